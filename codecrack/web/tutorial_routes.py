"""Tutorials over HTTP: ``GET /api/tutorials/{game}`` (what the coach says and waits for) and
``POST /api/tutorials/{game}`` (a new tutorial table: the learner in seat 0, the scripted
opponent in seat 1, the script's own seed and options).

The client never picks chance: the seed is part of the server's script (:mod:`codecrack.tutorials`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request

from ..core.errors import OptionError, explain
from ..i18n import _
from ..tutorials import LEARNER, TUTORIAL_AGENT, tutorial
from .hub import Hub
from .players.identity import Player, current_player
from .schema import ERRORS, Created, Lessons, TutorialRequest
from .table_routes import too_many_tables


def tutorial_router(hub: Hub, allowed: Callable[[Request], Awaitable[bool]]) -> APIRouter:
    """``await allowed(request)`` is the app's limit on new tables per address (counted)."""
    router = APIRouter()

    def script_or_404(game: str):
        script = tutorial(game)
        if script is None:
            raise HTTPException(status_code=404, detail=_("no tutorial for '{game}'").format(game=game))
        return script

    @router.get("/api/tutorials/{game}", responses=ERRORS, response_model=Lessons)
    async def lessons(game: str) -> dict[str, Any]:
        return {"game": game, "lessons": script_or_404(game).lessons()}

    @router.post("/api/tutorials/{game}", responses=ERRORS, response_model=Created)
    async def start(
        game: str, request: TutorialRequest, http: Request, player: Player | None = Depends(current_player)
    ) -> dict[str, Any]:
        script = script_or_404(game)
        if not await allowed(http):
            raise too_many_tables(hub)
        seats: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "ai", "agent": TUTORIAL_AGENT}]
        try:
            table = await hub.create(
                game,
                2,
                dict(script.options),
                seats,
                seed=script.seed,
                scripted=True,
                sit=LEARNER,
                name=request.name,
                player=player,
            )
        except OptionError as error:
            raise HTTPException(status_code=400, detail=explain(error)) from None
        return {"code": table.code, "seat": LEARNER, "token": next(iter(table.tokens)), "table": table.summary()}

    return router
