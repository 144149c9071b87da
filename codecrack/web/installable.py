"""What makes codecrack an installable web app: its manifest and its service worker.

The worker (templates/sw.js) is served from the site's root so that it may control every page;
it caches static assets only (``/static/...`` and a game's ``/games/GAME/FILE``), never a page,
an ``/api`` answer, a websocket or a token. Its cache is named after a digest of those assets, so
a server with other files makes the browser install a new worker that drops the old cache.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from ..core.registry import GAMES
from ..i18n import _, current
from .game_assets import asset_files

STATIC = Path(__file__).with_name("static")
WORKER = Path(__file__).with_name("templates") / "sw.js"
THEME, BACKGROUND = "#1d1d1f", "#f4f1ea"  # app.css: the top bar, the page


def assets_digest() -> str:
    """A digest of every static asset the worker may cache (their paths and contents)."""
    files = sorted(STATIC.rglob("*")) + [path for game in sorted(GAMES) for path in asset_files(game)]
    digest = hashlib.sha256()
    for path in files:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def manifest() -> dict:
    return {
        "id": "/",
        "name": "codecrack",
        "short_name": "codecrack",
        "description": _("Hidden-code deduction games against friends and fair AIs."),
        "lang": current(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": "/static/icons/app.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": "/static/icons/app-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "/static/icons/app-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any maskable"},
        ],
    }


def installable_router() -> APIRouter:
    router = APIRouter()
    worker = WORKER.read_text().replace("__VERSION__", json.dumps(assets_digest())).encode()

    @router.get("/manifest.webmanifest", include_in_schema=False)
    async def web_manifest() -> JSONResponse:
        return JSONResponse(manifest(), media_type="application/manifest+json")

    @router.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        return Response(worker, media_type="text/javascript", headers={"cache-control": "no-cache"})

    return router
