"""The language of each request, the languages on offer, and the lobby's catalogue in a language.

The front end says which language it shows: ``?lang=`` on a websocket (a browser cannot set its
headers), ``Accept-Language`` on HTTP (the browser's own, or the one picked in the page's header).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter

from ..i18n import best_language, from_accept_language, language, translate
from .middleware import ASGIApp, Receive, Scope, Send

CATALOGUES = Path(__file__).with_name("static") / "i18n"


class RequestLanguage:
    """Runs each HTTP request and websocket in the language its client asked for, so ``_()`` in a
    route (errors, the catalogue) answers in that language."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        with language(scope_language(scope)):
            await self.app(scope, receive, send)


def scope_language(scope: Scope) -> str:
    asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang")
    if asked:
        return best_language(asked)
    headers = dict(scope.get("headers") or [])
    return from_accept_language(headers.get(b"accept-language", b"").decode("latin-1"))


@lru_cache(maxsize=1)
def front_end_languages() -> list[dict[str, str]]:
    """``[{"code", "name"}]``: one per JSON catalogue of the front end, named in its own language."""
    found = []
    for path in sorted(CATALOGUES.glob("*.json")):
        found.append({"code": path.stem, "name": json.loads(path.read_text(encoding="utf-8"))["language.name"]})
    return found


def localized_games(games: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """The lobby's catalogue with each option's and preset's title and help in ``lang``."""

    def texts(item: dict[str, Any]) -> dict[str, Any]:
        unset = {"unset": translate(item["unset"], lang)} if item.get("unset") else {}
        return {**item, "title": translate(item["title"], lang), "help": translate(item["help"], lang), **unset}

    return [
        {**game, "options": [texts(o) for o in game["options"]], "presets": [texts(p) for p in game["presets"]]}
        for game in games
    ]


def language_router() -> APIRouter:
    router = APIRouter()

    @router.get("/api/languages")
    async def languages() -> list[dict[str, str]]:
        return front_end_languages()

    return router
