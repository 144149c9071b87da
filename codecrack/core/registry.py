"""Which games exist, imported lazily so that one game never loads another."""

from __future__ import annotations

import importlib
import secrets
from typing import Any

from .errors import OptionError
from .game import Game

GAMES: dict[str, str] = {
    "coda": "codecrack.games.coda.rules:CodaGame",
    "coding": "codecrack.games.coding.rules:CodingGame",
    "alphacode": "codecrack.games.alphacode.rules:AlphacodeGame",
}


def game_class(name: str) -> type[Game]:
    """The class of game ``name``; an unknown name lists the valid ones."""
    if name not in GAMES:
        raise OptionError(f"unknown game {name!r}; valid games: {', '.join(sorted(GAMES))}")
    module, _, attribute = GAMES[name].partition(":")
    return getattr(importlib.import_module(module), attribute)


def optional_module(path: str):
    """Import ``path``; ``None`` when that module itself does not exist (a broken import inside it
    still raises)."""
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as error:
        if error.name != path:
            raise
        return None


def game_module(name: str, part: str):
    """A sibling module of game ``name``'s rules, e.g. ``game_module("coda", "agents")``, or ``None``."""
    game_class(name)
    package = GAMES[name].partition(":")[0].rsplit(".", 1)[0]
    return optional_module(f"{package}.{part}")


def new_game(name: str, *, players: int, seed: int | None = None, **options: Any) -> Game:
    """Start a game. ``seed=None`` picks a fresh seed, which the record keeps."""
    if seed is None:
        seed = secrets.randbelow(2**31)
    return game_class(name)(players=players, seed=seed, **options)


def replay(record: dict[str, Any]) -> Game:
    """Rebuild a game from its record: same options, seed and actions give the same state."""
    game = new_game(record["game"], players=record["players"], seed=record["seed"], **record["options"])
    for seat, action in record["actions"]:
        game.apply(seat, action)
    return game
