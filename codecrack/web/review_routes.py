"""The post-game review over HTTP: ``GET /api/tables/{code}/review`` with the seat token in
``Authorization: Bearer TOKEN``, and ``GET /api/tables/{code}/replay/{step}/hint``: the odds a
seat's hints showed at one step of the replay, from that seat's view then (never the end's).

Only for finished games (ended by the game or by a forfeit), and only a seated player's own
decisions (the token names the seat). The review is computed from that seat's views alone
(:mod:`codecrack.review`), in a thread off the event loop, and kept in a small cache: a finished
game's review never changes.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Depends, HTTPException

from ..i18n import _, current
from ..review import review_step_for_the_page, reviewer_for, seat_decisions
from .hints import hint_for
from .hub import Hub
from .replays import frame_at
from .sandbox import OverBudget
from .schema import ERRORS, Review, no_table
from .tokens import bearer_token, seat_of

CACHED_REVIEWS = 64


def review_router(hub: Hub) -> APIRouter:
    router = APIRouter()
    cache: OrderedDict[tuple[str, int, str], dict[str, Any]] = OrderedDict()  # (table, seat, language)

    async def finished_seat(code: str, token: str | None) -> tuple[Any, int]:
        table = await hub.find(code)
        if table is None:
            raise HTTPException(status_code=404, detail=no_table(code))
        if not table.over:  # its game ended, or a seat lost on time
            raise HTTPException(status_code=400, detail=_("a game can be reviewed once it is over"))
        seat = seat_of(table, token, hub.config.token_hours)
        if seat is None:
            raise HTTPException(status_code=400, detail=_("only a player can review a game: their own decisions"))
        return table, seat

    @router.get("/api/tables/{code}/replay/{step}/hint", responses=ERRORS)
    async def replay_hint(code: str, step: int, token: str | None = Depends(bearer_token)) -> dict[str, Any]:
        table, seat = await finished_seat(code, token)
        if not 0 <= step <= table.game.record_length:
            raise HTTPException(status_code=400, detail=_("no step {step} in this game").format(step=step))
        view = await asyncio.to_thread(frame_at, table.game.record(), seat, step)
        try:
            of = ("replay hint", table.code, seat, step)
            return {"step": step, "hint": await hint_for(table, view, hub.bots.work, hub.hint_pool, of)}
        except OverBudget as refused:
            raise HTTPException(status_code=400, detail=refused.text()) from None

    @router.get("/api/tables/{code}/review", responses=ERRORS, response_model=Review)
    async def review(code: str, token: str | None = Depends(bearer_token)) -> dict[str, Any]:
        table, seat = await finished_seat(code, token)
        key = (table.code, seat, current())
        if key not in cache:  # the workers run in this request's language
            made, steps = await asyncio.to_thread(seat_decisions, table.game.record(), seat)
            reviewer = reviewer_for(made.game, seat)
            try:
                for step in steps:  # one call a decision: each within one step's budget, other work between
                    reviewer, decisions = await hub.bots.work.run_apart(
                        table,
                        ("review", table.code, seat),
                        review_step_for_the_page,
                        reviewer,
                        *step,
                        light=hub.hint_pool,
                    )
                    made.decisions += decisions
            except OverBudget as refused:
                raise HTTPException(status_code=400, detail=refused.text()) from None
            cache[key] = {"code": table.code, **made.to_json()}
            while len(cache) > CACHED_REVIEWS:
                cache.popitem(last=False)
        cache.move_to_end(key)
        return cache[key]

    return router
