"""Which games exist, imported lazily so that one game never loads another.

Games are found through the ``codecrack.games`` entry-point group: each entry names a game and
its class, ``coda = "codecrack.games.coda.rules:CodaGame"``. The built-in games are registered
the same way in codecrack's own ``pyproject.toml``; a third-party package adds a game by
declaring one entry (see ``examples/games/tinyguess``).
"""

from __future__ import annotations

import importlib
import secrets
from functools import cache
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

from ..i18n import N_
from .errors import OptionError
from .game import Game
from .nature import ForcedChance, RandomChance

ENTRY_POINT_GROUP = "codecrack.games"


def discovered_games() -> dict[str, str]:
    """Every installed game: name -> ``"module:Class"``, codecrack's own games first."""
    found = {entry.name: entry.value for entry in entry_points(group=ENTRY_POINT_GROUP)}
    return dict(sorted(found.items(), key=lambda item: not item[1].startswith("codecrack.")))


GAMES: dict[str, str] = discovered_games()


def discover() -> dict[str, str]:
    """Look for installed games again (after a package was installed while running)."""
    GAMES.update(discovered_games())
    return GAMES


def game_class(name: str) -> type[Game]:
    """The class of game ``name``; an unknown name lists the valid ones."""
    if name not in GAMES:
        raise OptionError(N_("unknown game {name!r}; valid games: {games}"), name=name, games=", ".join(sorted(GAMES)))
    module, _, attribute = GAMES[name].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module), attribute)
    return cls


def optional_module(path: str) -> ModuleType | None:
    """Import ``path``; ``None`` when that module itself does not exist (a broken import inside it
    still raises)."""
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as error:
        if error.name != path:
            raise
        return None


def package_of(rules: str) -> str:
    """The package of a game's rules path (``"codecrack.games.coda.rules:CodaGame"``: ``codecrack.games.coda``)."""
    return rules.partition(":")[0].rpartition(".")[0]


def game_module(name: str, part: str) -> ModuleType | None:
    """A sibling module of game ``name``'s rules, e.g. ``game_module("coda", "agents")``, or ``None``."""
    game_class(name)
    return optional_module(f"{package_of(GAMES[name])}.{part}")


def game_part(name: str, part: str, attribute: str) -> Any:
    """``attribute`` of module ``part`` in game ``name``'s package (its hint provider, clock rule,
    tutorial...), or ``None`` when the game or that piece does not exist."""
    return _game_part(GAMES[name], part, attribute) if name in GAMES else None


@cache
def _game_part(rules: str, part: str, attribute: str) -> Any:
    """By the game's rules path (``module:Class``), so that a game registered anew is looked up anew."""
    return getattr(optional_module(f"{package_of(rules)}.{part}"), attribute, None)


def new_game(
    name: str,
    *,
    players: int,
    seed: int | None = None,
    chance: RandomChance | ForcedChance | None = None,
    **options: Any,
) -> Game:
    """Start a game. ``seed=None`` picks a fresh seed, which the record keeps.

    ``chance=ForcedChance(outcomes)`` replays given chance outcomes instead of drawing them
    (the ``chance_log`` of another game, or a host's choices).
    """
    if seed is None:
        seed = secrets.randbelow(2**31)
    return game_class(name)(players=players, seed=seed, chance=chance, **options)


def replay(record: dict[str, Any], chance: RandomChance | ForcedChance | None = None) -> Game:
    """Rebuild a game from its record: same options, seed and actions give the same state.

    With ``chance``, the chance outcomes come from it instead of the seed.
    """
    game = new_game(record["game"], players=record["players"], seed=record["seed"], chance=chance, **record["options"])
    for seat, action in record["actions"]:
        game.apply(seat, action)
    return game
