"""Coda puzzles: positions from real self-play games where one decision matters.

A puzzle is a seat's first guess of a turn in a game the ``medium`` tier plays against itself.
Every guess the seat may make (an opponent's hidden tile and a value) has an exact chance of being
right from that seat's own view (:func:`codecrack.games.coda.belief.solve`). A position is kept
when one guess is clearly best: at least :data:`MARGIN` more likely than any other, and not a
sure thing. It is graded by the weakest tier that finds a best guess
(``easy``, ``medium``), else ``hard``.

``codecrack puzzles coda`` writes them to a JSON file (``puzzles.json`` in this package, made by
``codecrack puzzles coda --games 40 --seed 1 --out codecrack/games/coda/puzzles.json``): for each, the game's seed and options, the actions
before the decision, the seat, the best guess and its chance, and the grade. A puzzle is rebuilt
by replaying its actions (:func:`position`), so the file holds no view of its own.

>>> found = find_puzzles(games=2, seed=1)
>>> all(p["p_best"] - p["p_next"] >= MARGIN and p["p_best"] < 1 for p in found)
True
"""

from __future__ import annotations

import json
import random
from datetime import date
from functools import cache
from importlib.resources import files
from typing import Any

from ...core.daily import number_of_day
from ...core.registry import new_game, replay
from ...core.runner import run_game
from .agents import AGENTS
from .belief import DASH, solve
from .observe import position_from_view

MARGIN = 0.15  # the best guess's chance beats every other one's by this much at least
GRADES = ("easy", "medium", "hard")
Guess = tuple[int, int, int]  # (target seat, tile index, value; DASH for a dash)


def odds(view: dict[str, Any]) -> dict[Guess, float]:
    """The chance of every guess the seat of ``view`` may make, from that view alone."""
    belief = solve(position_from_view(view))
    seat = view["seat"]
    found: dict[Guess, float] = {}
    for target, row in enumerate(view["rows"]):
        if target == seat or target in view["eliminated"]:
            continue
        for index, tile in enumerate(row):
            if tile["value"] is None:
                for value, p in enumerate(belief.probs[target][index]):
                    if p > 0:
                        found[(target, index, value)] = float(p)
    return found


def guess_of(action: dict[str, Any]) -> Guess:
    value = action["value"]
    return (action["target"], action["index"], DASH if value == "-" else int(value))


def clear_best(chances: dict[Guess, float]) -> tuple[Guess, float, float] | None:
    """The best guess, its chance and the next best chance, if the best is clearly so."""
    if not chances:
        return None
    best = max(chances, key=lambda guess: (chances[guess], guess))
    runner_up = max((p for guess, p in chances.items() if guess != best), default=0.0)
    if chances[best] >= 1 or chances[best] - runner_up < MARGIN:
        return None
    return best, chances[best], runner_up


def grade(view: dict[str, Any], chances: dict[Guess, float], seed: int) -> str:
    """The weakest tier whose guess in this view is as likely as the best, else ``hard``."""
    best = max(chances.values())
    for tier in GRADES[:-1]:
        action = AGENTS[tier](seed=seed).act(view)
        if action["type"] == "guess" and chances.get(guess_of(action), 0.0) >= best:
            return tier
    return GRADES[-1]


def find_puzzles(games: int, seed: int) -> list[dict[str, Any]]:
    """The clear decisions of ``games`` self-play games of the medium tier (two players), seeded from ``seed``."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        game_seed = rng.randrange(2**31)
        game = new_game("coda", players=2, seed=game_seed)
        run_game(game, {0: AGENTS["medium"](seed=game_seed), 1: AGENTS["medium"](seed=game_seed + 1)})
        record = game.record()
        again = replay({**record, "actions": []})
        for step, (seat, action) in enumerate(record["actions"]):
            view = again.view(seat) if action["type"] == "guess" else None
            if view is not None and view["hits_this_turn"] == 0:
                chances = odds(view)
                clear = clear_best(chances)
                if clear is not None:
                    best, p_best, p_next = clear
                    found.append(
                        {
                            "seed": game_seed,
                            "options": record["options"],
                            "actions": [list(move) for move in record["actions"][:step]],
                            "seat": seat,
                            "best": list(best),
                            "p_best": round(p_best, 6),
                            "p_next": round(p_next, 6),
                            "grade": grade(view, chances, game_seed),
                        }
                    )
            again.apply(seat, action)
    return found


def position(puzzle: dict[str, Any]) -> dict[str, Any]:
    """The puzzle's view: its seat's, after its actions."""
    record = {"game": "coda", "players": 2, "seed": puzzle["seed"], "options": puzzle["options"]}
    return replay({**record, "actions": puzzle["actions"]}).view(puzzle["seat"])


@cache
def shipped() -> list[dict[str, Any]]:
    """The puzzles of this package's ``puzzles.json``."""
    puzzles: list[dict[str, Any]] = json.loads(files(__package__).joinpath("puzzles.json").read_text())
    return puzzles


def puzzle_of_day(secret: bytes, day: date) -> int:
    """The index (into :func:`shipped`) of ``day``'s puzzle under the server's ``secret``."""
    return number_of_day(secret, day, "coda-daily", len(shipped()))


def guess_action(view: dict[str, Any], guess: Guess) -> dict[str, Any]:
    """The ``guess`` action of ``guess`` in ``view`` (the tile's colour from the view)."""
    target, index, value = guess
    color = view["rows"][target][index]["color"]
    return {"type": "guess", "target": target, "index": index, "color": color, "value": "-" if value == DASH else value}
