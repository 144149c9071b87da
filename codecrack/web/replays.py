"""Replays of finished games over HTTP, page by page: ``GET /api/tables/{code}/replay?start=S&count=N``.

A page is ``view(seat)`` after ``start``, ``start + 1``, ... actions (the seat's own with its token
in ``Authorization: Bearer TOKEN``, else the spectators'), at most ``replay_page_frames`` of them and
at most ``max_replay_bytes`` of JSON (always at least one frame); ``steps`` says how many frames the
whole replay has, so a client fetches the pages it moves to. A page is computed in one thread of
its own (the game played again up to ``start`` without views, then the page's views) and sent as
the bytes made there: the event loop never builds or checks a whole replay. Each client address
may ask for ``replays_per_minute`` pages.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response

from ..core.registry import replay
from ..i18n import _
from .hub import Hub
from .schema import ERRORS, Problem, Replay, no_table
from .tokens import bearer_token, seat_of


def frame_at(record: dict[str, Any], seat: int | None, step: int) -> dict[str, Any]:
    """``view(seat)`` after the record's first ``step`` actions (one frame: no other view is built)."""
    game = replay({**record, "actions": record["actions"][:step]})
    return game.view(seat)


def replay_page(record: dict[str, Any], seat: int | None, start: int, count: int, max_bytes: int) -> bytes:
    """The JSON of frames ``start`` .. ``start + count - 1`` of ``record``'s replay for ``seat``, as
    many as fit in ``max_bytes`` (at least one); the body of a :class:`~.schema.Replay` but ``code``."""
    actions = record["actions"]
    game = replay({**record, "actions": []})
    for actor, action in actions[:start]:
        game.apply(actor, action)
    frames: list[bytes] = []
    size = 0
    for step in range(start, min(start + count, len(actions) + 1)):
        frame = orjson.dumps(game.view(seat))
        if frames and size + len(frame) + 1 > max_bytes:
            break
        frames.append(frame)
        size += len(frame) + 1
        if step < len(actions):
            game.apply(*actions[step])
    head = orjson.dumps({"seat": seat, "steps": len(actions) + 1, "start": start})
    return head[:-1] + b',"frames":[' + b",".join(frames) + b"]}"


def replay_router(hub: Hub, address_of: Callable[[Request], str]) -> APIRouter:
    router = APIRouter()
    config = hub.config
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="codecrack-replay")
    pages = hub.fanout.window("replays", config.replays_per_minute, 60.0)

    @router.get("/api/tables/{code}/replay", responses={**ERRORS, 429: {"model": Problem}}, response_model=Replay)
    async def replay_frames(
        code: str,
        http: Request,
        start: int = Query(0, ge=0, lt=2**31, description="the first frame: the view after this many actions"),
        count: int | None = Query(None, ge=1, description="frames wanted (the server's page size at most)"),
        token: str | None = Depends(bearer_token),
    ) -> Response:
        if not await pages.allow(address_of(http)):
            raise HTTPException(
                status_code=429,
                detail=_("at most {count} replay pages per minute from one address").format(
                    count=config.replays_per_minute
                ),
            )
        table = await hub.find(code)
        if table is None:
            raise HTTPException(status_code=404, detail=no_table(code))
        if not table.over:
            raise HTTPException(status_code=400, detail=_("a game can be replayed once it is over"))
        record = table.game.record()
        if start > len(record["actions"]):
            raise HTTPException(
                status_code=400,
                detail=_("start: this replay has {count} frames").format(count=len(record["actions"]) + 1),
            )
        seat = seat_of(table, token, config.token_hours)
        count = min(count or config.replay_page_frames, config.replay_page_frames)
        loop = asyncio.get_running_loop()
        body = await loop.run_in_executor(pool, replay_page, record, seat, start, count, config.max_replay_bytes)
        return Response(b'{"code":' + orjson.dumps(table.code) + b"," + body[1:], media_type="application/json")

    router.on_shutdown.append(lambda: pool.shutdown(wait=False, cancel_futures=True))
    return router
