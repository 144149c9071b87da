"""Coda's observation encoder: one seat's view as a fixed-size ``float32`` vector.

Everything comes from the view alone. The history enters through what deduction uses from it:
each face-down tile's missed guesses (matched by the tile's ``id`` in the guess events).

>>> import codecrack
>>> game = codecrack.new_game("coda", players=2, seed=1, first=0)
>>> encoder = CodaEncoder(2, game.options)
>>> encoder.encode(game.view(0)).shape == (encoder.layout.size,)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.features import Layout, one_hot, seats
from .nature import longest_row
from .tiles import COLORS, full_set, tile_values

PHASES = ("opening", "arrange", "memorize", "draw", "guess", "place", "reveal", "over")
ROUNDS = 3
MAX_POINTS = 1000     # far above what three rounds can score


class CodaEncoder:
    """The layout for ``players`` and ``options``; ``encode(view)`` fills it."""

    def __init__(self, players: int, options: Any) -> None:
        self.players = players
        self.values = tile_values(options.dashes)
        self.row = longest_row(players, options.dashes)
        tile = self.width = 5 + len(self.values)
        self.value_index = {value: index for index, value in enumerate(self.values)}
        self._tile_offsets: dict[tuple[str, bool, Any], tuple[int, ...]] = {}
        tiles = len(full_set(options.dashes))
        self.layout = (
            Layout()
            .block("seat", players, doc="one-hot: the observing seat")
            .block("phase", len(PHASES), doc="one-hot: " + ", ".join(PHASES))
            .block("current", players, doc="one-hot: the seat whose turn it is")
            .block("to_move", players, doc="seats that may act now")
            .block("eliminated", players, doc="seats out of the round")
            .block("round", ROUNDS, doc="one-hot: the round (1-3)")
            .block("scores", players, doc="tournament points per seat", high=MAX_POINTS)
            .block("hits", 1, doc="correct guesses this turn", high=tiles)
            .block("pile", 2, doc="classic: black and white tiles left; deck: [tiles left, 0]", high=tiles)
            .block("rows", players, self.row, tile,
                   doc="per seat and position: [present, black, white, face up, value known, value one-hot 0-11(, dash)]")
            .block("drawn", tile, doc="the drawn tile, as a row tile")
            .block("unplaced", 2, tile, doc="the seat's own dashes still to place, as row tiles")
            .block("misses", players, self.row, len(COLORS), len(self.values),
                   doc="per tile: 1 where a guess of that colour and value missed it")
        )

    def tile(self, ones: list[int], at: int, tile: dict[str, Any]) -> None:
        """Note the entries set to 1 for ``tile``, encoded at offset ``at``."""
        ones += [at + offset for offset in self.tile_offsets(tile["color"], tile.get("revealed"), tile.get("value"))]

    def tile_offsets(self, color: str, revealed: bool | None, value: Any) -> tuple[int, ...]:
        """The entries set to 1 for one kind of tile, from the tile's offset (cached per kind)."""
        key = (color, bool(revealed), value)
        offsets = self._tile_offsets.get(key)
        if offsets is None:
            offsets = (0, 1 + COLORS.index(color), *((3,) if revealed else ()),
                       *((4, 5 + self.value_index[value]) if value is not None else ()))
            self._tile_offsets[key] = offsets
        return offsets

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        vector = self.layout.zeros()
        part = self.layout.parts(vector).__getitem__
        one_hot(part("seat"), view["seat"])
        one_hot(part("phase"), PHASES.index(view["phase"]))
        one_hot(part("current"), view["current"])
        seats(part("to_move"), view["to_move"])
        seats(part("eliminated"), view["eliminated"])
        one_hot(part("round"), min(view["round"], ROUNDS) - 1)
        part("scores")[:] = view["scores"]
        part("hits")[0] = view["hits_this_turn"]
        pile = view["pile"]
        part("pile")[:] = [pile["total"], 0] if "total" in pile else [pile["black"], pile["white"]]
        ones: list[int] = []
        rows, width = self.layout.blocks["rows"][0].start, self.width
        for seat, row in enumerate(view["rows"]):
            for index, tile in enumerate(row):
                self.tile(ones, rows + (seat * self.row + index) * width, tile)
        if view["drawn"] is not None:
            self.tile(ones, self.layout.blocks["drawn"][0].start, view["drawn"])
        for index, tile in enumerate(view["unplaced"][:2]):
            self.tile(ones, self.layout.blocks["unplaced"][0].start + index * width, tile)
        vector[ones] = 1.0
        self.misses(part("misses"), view)
        return vector

    def misses(self, part: np.ndarray, view: dict[str, Any]) -> None:
        where = {(seat, tile["id"]): index for seat, row in enumerate(view["rows"]) for index, tile in enumerate(row)}
        colors, values = len(COLORS), len(self.values)
        ones: list[int] = []
        for event in view["history"]:
            kind = event["type"]
            if kind == "round":
                ones.clear()           # a new round deals new rows
            elif kind == "guess" and not event["hit"]:
                index = where.get((event["target"], event["tile"]))
                if index is not None:
                    tile = (event["target"] * self.row + index) * colors + COLORS.index(event["color"])
                    ones.append(tile * values + self.value_index[event["value"]])
        part.reshape(-1)[ones] = 1.0

def encoder(players: int, options: Any) -> CodaEncoder:
    return CodaEncoder(players, options)
