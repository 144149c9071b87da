"""The engines' refusals reach players in their language: every IllegalAction carries a marked
English template and its params, and the boundary (web, terminal) renders it through the catalogue."""

from __future__ import annotations

import ast
import pickle
import random
from pathlib import Path

import pytest

import codecrack
from codecrack.core.errors import IllegalAction, OptionError, TemplateError, explain
from codecrack.i18n import N_, language, translate
from codecrack.review import ReviewError

from .catalogues import ROOT, extracted_messages

PACKAGE = ROOT / "codecrack"
# The researchers' tools (the reinforcement-learning environments, the arena, the benchmarks, the
# bot protocol's host) refuse in English only (docs/i18n.md).
RESEARCH = [PACKAGE / "env", PACKAGE / "protocol", PACKAGE / "bench", PACKAGE / "arena.py", PACKAGE / "report.py"]
RESEARCH_FILES = ("bound.py",)
JUNK = [None, True, -1, 99, 2.5, "", "zz", "Q9", [], [1, 2], {}, {"a": 1}]


TEMPLATE_ERRORS = {cls.__name__ for cls in (TemplateError, IllegalAction, OptionError, ReviewError)}


def _is_research(path: Path) -> bool:
    return path.name in RESEARCH_FILES or any(path == place or place in path.parents for place in RESEARCH)


def _calls_of_template_errors(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in TEMPLATE_ERRORS and node.args:
            yield node


def test_no_illegal_action_is_raised_with_a_bare_english_text():
    """An f-string or a plain literal cannot be translated: the text of an IllegalAction (or an
    OptionError, a ReviewError) must be a template marked with N_() (the engine) or an already
    translated _() text (the terminal)."""
    assert {cls.__name__ for cls in TemplateError.__subclasses__()} <= TEMPLATE_ERRORS
    bare = []
    for path in PACKAGE.rglob("*.py"):
        if _is_research(path):
            continue
        for call in _calls_of_template_errors(path):
            first = call.args[0]
            if isinstance(first, (ast.JoinedStr, ast.Constant, ast.BinOp)):
                bare.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert bare == []


def test_str_stays_english_and_the_template_survives_pickling():
    error = IllegalAction(N_("seat {seat} may not act now (to move: {to_move})"), seat=1, to_move=[0])
    assert str(error) == "seat 1 may not act now (to move: [0])"
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.template, copy.params, str(copy)) == (error.template, error.params, str(error))
    with language("th"):
        assert explain(copy) == translate(error.template, "th").format(seat=1, to_move=[0]) != str(error)


def _mutations(action: dict, legal: list[dict], rng: random.Random) -> list:
    """Wrong versions of a legal action: each value replaced by junk or another action's value,
    a key dropped, a key added, an unknown type; and a few shapes that are no action at all."""
    wrong: list = [None, [], {}, {"type": "fly"}, {"type": 5}, {**action, "extra": 1}]
    for key in action:
        if key != "type":
            wrong.append({k: v for k, v in action.items() if k != key})
            wrong.extend({**action, key: junk} for junk in rng.sample(JUNK, 4))
            other = rng.choice(legal)
            if key in other:
                wrong.append({**action, key: other[key]})
    other_kinds = {a["type"] for a in legal} ^ {
        "draw",
        "guess",
        "stop",
        "place",
        "reveal",
        "ready",
        "opening",
        "take",
        "cannot",
        "give",
        "decode",
        "order",
        "slap",
        "pass",
        "answer",
        "make_code",
        "random_code",
        "count",
        "filled",
        "declare",
        "timeout",
    }
    wrong.extend({"type": kind} for kind in sorted(other_kinds))
    return wrong


def _refusals(game_name: str, seed: int) -> list[IllegalAction]:
    """Every refusal met while a random game is played, trying wrong actions at every step
    (from the seat to move and from the others)."""
    rng = random.Random(seed)
    game = codecrack.new_game(game_name, players=3 if game_name == "coding" else 2, seed=seed)
    refusals = []
    for _step in range(400):
        if game.over:
            break
        seat = rng.choice(sorted(game.to_move))
        legal = game.legal_actions(seat)
        for seat_trying in range(game.players):
            for wrong in _mutations(rng.choice(legal), legal, rng):
                if wrong in game.legal_actions(seat_trying):
                    continue
                try:
                    game.apply(seat_trying, wrong)
                except IllegalAction as error:
                    refusals.append(error)
                else:  # a legal action of a seat not asked this step: fine, the game goes on
                    break
        if not game.over and seat in game.to_move:
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    try:
        game.apply(0, {"type": "draw", "color": "black"})
    except IllegalAction as error:
        refusals.append(error)
    return refusals


@pytest.mark.parametrize("game", ["coda", "coding", "alphacode"])
def test_every_refusal_of_random_play_is_shown_in_thai(game):
    refusals = [error for seed in (1, 2) for error in _refusals(game, seed)]
    extracted = extracted_messages()
    templates = {error.template for error in refusals}
    assert len(templates) >= 10, "the fuzzing should meet many kinds of refusal"
    assert sorted(templates - extracted) == [], "templates not marked with N_()"
    with language("th"):
        english = [error for error in refusals if explain(error) == str(error)]
    assert english == [], "shown in English"
    assert all(translate(template, "th") != template for template in templates)
