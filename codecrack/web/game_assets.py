"""A game's front-end files, served from the ``web`` folder of its own package as
``/games/GAME/FILE``: its board module is ``board.js``, its daily puzzle's page ``daily.js``
(docs/engine.md, "A game's pieces")."""

from __future__ import annotations

import re
from importlib.util import find_spec
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

from ..core.registry import GAMES, package_of

NAME = re.compile(r"[a-z0-9_-]{1,64}\.(js|css)")
MEDIA_TYPES = {".js": "text/javascript", ".css": "text/css"}


def asset_path(game: str, name: str) -> Path | None:
    """The file ``name`` of ``game``'s ``web`` folder, or ``None`` (no such game, name or file)."""
    if game not in GAMES or not NAME.fullmatch(name):
        return None
    spec = find_spec(package_of(GAMES[game]))
    folders = spec.submodule_search_locations if spec else None
    path = Path(folders[0]) / "web" / name if folders else None
    return path if path is not None and path.is_file() else None


def module_url(game: str, name: str) -> str | None:
    """Where the browser loads ``game``'s module ``name`` (``board.js``, ``daily.js``) from, if its package ships one."""
    return f"/games/{game}/{name}" if asset_path(game, name) else None


def game_assets_router() -> APIRouter:
    router = APIRouter()

    @router.get("/games/{game}/{name}", include_in_schema=False)
    async def asset(game: str, name: str) -> FileResponse:
        path = asset_path(game, name)
        if path is None:
            raise HTTPException(status_code=404, detail="Not Found")
        return FileResponse(path, media_type=MEDIA_TYPES[path.suffix])

    return router
