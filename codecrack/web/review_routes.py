"""The post-game review over HTTP: ``GET /api/tables/{code}/review`` with the seat token in
``Authorization: Bearer TOKEN``.

Only for finished games, and only a seated player's own decisions (the token names the seat).
The review is computed from that seat's views alone (:mod:`codecrack.review`), in a thread off
the event loop, and kept in a small cache: a finished game's review never changes.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Depends, HTTPException

from ..i18n import _, current
from ..review import review_record
from ..review.numbering import tiles_counted_from
from .schema import ERRORS, Review, no_table
from .tokens import bearer_token, seat_of

CACHED_REVIEWS = 64


def review_router(hub: Any) -> APIRouter:
    router = APIRouter()
    cache: OrderedDict[tuple[str, int, str], dict[str, Any]] = OrderedDict()  # (table, seat, language)

    @router.get("/api/tables/{code}/review", responses=ERRORS)
    async def review(code: str, token: str | None = Depends(bearer_token)) -> Review:
        table = await hub.get(code)
        if table is None:
            raise HTTPException(status_code=404, detail=no_table(code))
        if not table.game.over:
            raise HTTPException(status_code=400, detail=_("a game can be reviewed once it is over"))
        seat = seat_of(table, token, hub.config.token_hours)
        if seat is None:
            raise HTTPException(status_code=400, detail=_("only a player can review a game: their own decisions"))
        key = (table.code, seat, current())
        if key not in cache:  # the thread runs in this request's language (the context is copied)
            with tiles_counted_from(1):  # as the table page numbers a row's tiles
                result = await hub.bots.work.run(
                    table.game, review_record, table.game.record(), seat, light=hub.hint_pool
                )
            cache[key] = {"code": table.code, **result.to_json()}
            while len(cache) > CACHED_REVIEWS:
                cache.popitem(last=False)
        cache.move_to_end(key)
        return cache[key]

    return router
