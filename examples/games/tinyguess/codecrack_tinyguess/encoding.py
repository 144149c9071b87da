"""Tiny Guess's observation encoder: the view as a fixed-size vector."""

from __future__ import annotations

from typing import Any

import numpy as np

from codecrack.core.features import Layout, one_hot, seats


class TinyGuessEncoder:
    def __init__(self, players: int, options: Any) -> None:
        self.high = options.high
        self.layout = (
            Layout()
            .block("seat", players, doc="one-hot: the observing seat")
            .block("turn", players, doc="one-hot: the seat to guess")
            .block("out", players, doc="seats out")
            .block("card", self.high, doc="one-hot: own card")
            .block("possible", players, self.high, doc="per seat: values its card may still have")
        )

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        vector = self.layout.zeros()
        part = self.layout.parts(vector)
        one_hot(part["seat"], view["seat"])
        one_hot(part["turn"], view["turn"])
        seats(part["out"], view["out"])
        one_hot(part["card"], None if view["card"] is None else view["card"] - 1)
        possible = part["possible"]
        possible[:] = 1.0
        for event in view["history"]:
            row, value = possible[event["target"]], event["value"]
            if event["answer"] == "hit":
                row[:] = 0.0
                row[value - 1] = 1.0
            elif event["answer"] == "higher":
                row[:value] = 0.0
            else:
                row[value - 1 :] = 0.0
        return vector


def encoder(players: int, options: Any) -> TinyGuessEncoder:
    return TinyGuessEncoder(players, options)
