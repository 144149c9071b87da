"""Thai: one term, one spelling (issue 25 §4.13), and the terminal's boxes stay aligned with Thai's
combining marks (each bordered line as wide as the console, counted in display cells)."""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pytest
from rich.console import Console

from codecrack.i18n import language
from codecrack.terminal.play import play

ROOT = Path(__file__).resolve().parents[2] / "codecrack"
CATALOGUES = [ROOT / "web/static/i18n/th.json", ROOT / "locale/th/LC_MESSAGES/codecrack.po"]
# the spelling kept -> the spellings that must not appear
TERMS = {"แฮ็ก": ["แฮก"], "แผ่นไขรหัส": ["กระดาษจดรหัส"]}


@pytest.mark.parametrize("kept, others", TERMS.items())
def test_one_term_one_spelling(kept, others):
    for catalogue in CATALOGUES:
        text = catalogue.read_text(encoding="utf-8")
        assert [other for other in others if other in text] == [], catalogue.name


def display_width(line: str) -> int:
    return sum(0 if unicodedata.category(c) in ("Mn", "Me") else 1 for c in line)


@pytest.mark.parametrize("game", ["coda", "coding", "alphacode"])
def test_the_terminals_boxes_stay_aligned_in_thai(game):
    answers = iter(["1"] * 2000)
    output = io.StringIO()
    with language("th"):
        play(
            game,
            ["human", "random"],
            seed=5,
            options={},
            console=Console(file=output, width=100, color_system=None),
            read=lambda prompt: next(answers),
        )
    boxed = [line.rstrip() for line in output.getvalue().splitlines() if line.startswith(("│", "╭", "╰"))]
    assert boxed and {display_width(line) for line in boxed} == {100}
