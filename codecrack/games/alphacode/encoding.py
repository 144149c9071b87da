"""Alphabet Code's observation encoder: one seat's view as a fixed-size ``float32`` vector.

Questions are numbered as :func:`~codecrack.games.alphacode.sheet.all_questions` lists them
(zone counts, then filled squares). Answers are one-hot 0-4 (a ``filled`` answer is 0 or 1).

>>> import codecrack
>>> game = codecrack.new_game("alphacode", players=3, seed=1)
>>> encoder = AlphacodeEncoder(3, game.options)
>>> encoder.encode(game.view(0)).shape == (encoder.layout.size,)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.features import Layout, one_hot, seats
from .codes import CODE_LENGTH
from .letters import LETTER_SETS
from .sheet import all_questions, sheet_of

PHASES = ("code", "handicap", "play", "final", "cascade", "over")
ANSWERS = 5
MANY = 10**6  # the bound of counting entries (rounds, declarations): a duel may be drawn again and again


def question_key(question: dict[str, Any]) -> tuple[str, str, str]:
    return question["type"], question["row"].upper(), question["column"].upper()


class AlphacodeEncoder:
    def __init__(self, players: int, options: Any) -> None:
        self.sheet = sheet_of(options.columns, options.rows)
        self.letters = LETTER_SETS[options.letters]
        self.questions = {question_key(q): i for i, q in enumerate(all_questions(self.sheet))}
        p, q = players, len(self.questions)
        self.layout = (
            Layout()
            .block("seat", p, doc="one-hot: the observing seat")
            .block("phase", len(PHASES), doc="one-hot: " + ", ".join(PHASES))
            .block("round", 1, doc="round number (a drawn duel replays)", high=MANY)
            .block("first", p, doc="one-hot: the round's first player")
            .block("creator", p, doc="one-hot: the code creator (none in a duel)")
            .block("target", p, doc="one-hot: whose code this seat cracks")
            .block("to_move", p, doc="seats that may act now")
            .block("handicap_left", 1, doc="handicap questions left", high=3)
            .block("coded", p, doc="seats whose code is made")
            .block("misses", p, doc="wrong declarations per seat", high=MANY)
            .block("eliminated", p, doc="solvers out")
            .block("pending", p, doc="seats still to declare or pass (final chance, cascade)")
            .block("declared", p, 2, doc="visible declarations per seat: [right, wrong]", high=MANY)
            .block(
                "code",
                CODE_LENGTH,
                len(self.letters) + self.sheet.rows + self.sheet.columns,
                doc="own code: per letter, [letter one-hot, corner row one-hot, corner column one-hot]",
            )
            .block("about_target", q, 1 + ANSWERS, doc="per question about the cracked code: [asked, answer one-hot]")
            .block("about_own", q, 1 + ANSWERS, doc="per question about the own code: [asked, answer one-hot]")
        )

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        vector = self.layout.zeros()
        part = self.layout.parts(vector).__getitem__
        seat = view["seat"]
        one_hot(part("seat"), seat)
        one_hot(part("phase"), PHASES.index(view["phase"]))
        part("round")[0] = view["round"]
        one_hot(part("first"), view["first"])
        one_hot(part("creator"), view["creator"])
        one_hot(part("target"), view["target"])
        seats(part("to_move"), view["to_move"])
        part("handicap_left")[0] = view["handicap_left"]
        part("coded")[:] = view["coded"]
        part("misses")[:] = view["misses"]
        seats(part("eliminated"), view["eliminated"])
        seats(part("pending"), view["pending"])
        for declaration in view["declarations"]:
            part("declared")[declaration["seat"], 0 if declaration["correct"] else 1] += 1.0
        for row, entry in enumerate(view["code"] or []):
            self.piece(part("code")[row], entry)
        for entry in view["questions"]:
            about = (
                "about_target"
                if entry["target"] == view["target"]
                else "about_own"
                if entry["target"] == seat
                else None
            )
            if about is not None:
                answer = part(about)[self.questions[question_key(entry["question"])]]
                answer[0] = 1.0
                answer[1 + int(entry["answer"])] = 1.0
        return vector

    def piece(self, part: np.ndarray, entry: dict[str, str]) -> None:
        sheet = self.sheet
        part[self.letters.index(entry["letter"])] = 1.0
        part[len(self.letters) + sheet.row_labels.index(entry["row"].upper())] = 1.0
        part[len(self.letters) + sheet.rows + sheet.column_labels.index(entry["column"].upper())] = 1.0


def encoder(players: int, options: Any) -> AlphacodeEncoder:
    return AlphacodeEncoder(players, options)
