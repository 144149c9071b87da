"""A game's front-end files, served from the ``web`` folder of its own package as
``/games/GAME/FILE``: its board module is ``board.js`` (with its ``teaching.js``), its daily puzzle's page ``daily.js``
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


def web_folder(game: str) -> Path | None:
    """The ``web`` folder of ``game``'s package (it may not exist), or ``None`` (no such game)."""
    spec = find_spec(package_of(GAMES[game])) if game in GAMES else None
    folders = spec.submodule_search_locations if spec else None
    return Path(folders[0]) / "web" if folders else None


def asset_path(game: str, name: str) -> Path | None:
    """The file ``name`` of ``game``'s ``web`` folder, or ``None`` (no such game, name or file)."""
    folder = web_folder(game) if NAME.fullmatch(name) else None
    path = folder / name if folder else None
    return path if path is not None and path.is_file() else None


def asset_files(game: str) -> list[Path]:
    """Every file ``game``'s ``web`` folder serves, by name."""
    folder = web_folder(game)
    files = sorted(folder.iterdir()) if folder and folder.is_dir() else []
    return [path for path in files if path.is_file() and NAME.fullmatch(path.name)]


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
