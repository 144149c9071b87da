"""Coda's observation encoder: one seat's view as a fixed-size ``float32`` vector.

Everything comes from the view alone. The history enters through what deduction uses from it:
each face-down tile's missed guesses (matched by the tile's ``id`` in the guess events). A host
that encodes one seat's views of one game in order may pass a :meth:`CodaEncoder.reader` along,
which reads each history on from where the last one ended (the environments do).

>>> import codecrack
>>> game = codecrack.new_game("coda", players=2, seed=1, first=0)
>>> encoder = CodaEncoder(2, game.options)
>>> encoder.encode(game.view(0)).shape == (encoder.layout.size,)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.features import Layout
from .nature import longest_row
from .tiles import COLORS, full_set, tile_values

PHASES = ("opening", "arrange", "memorize", "draw", "guess", "place", "reveal", "over")
ROUNDS = 3
MAX_POINTS = 1000  # far above what three rounds can score


class CodaEncoder:
    """The layout for ``players`` and ``options``; ``encode(view)`` fills it."""

    def __init__(self, players: int, options: Any) -> None:
        self.players = players
        self.values = tile_values(options.dashes)
        self.row = longest_row(players, options.dashes)
        tile = self.width = 5 + len(self.values)
        self.value_index = {value: index for index, value in enumerate(self.values)}
        self._tile_entries: dict[tuple[int, str, bool | None, Any], tuple[int, ...]] = {}
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
            .block(
                "rows",
                players,
                self.row,
                tile,
                doc="per seat and position: [present, black, white, face up, value known, value one-hot 0-11(, dash)]",
            )
            .block("drawn", tile, doc="the drawn tile, as a row tile")
            .block("unplaced", 2, tile, doc="the seat's own dashes still to place, as row tiles")
            .block(
                "misses",
                players,
                self.row,
                len(COLORS),
                len(self.values),
                doc="per tile: 1 where a guess of that colour and value missed it",
            )
        )
        self.at = {name: where.start for name, (where, _, _) in self.layout.blocks.items()}
        guesses = len(COLORS) * len(self.values)
        self.miss_at = [
            [self.at["misses"] + (seat * self.row + index) * guesses for index in range(self.row)]
            for seat in range(players)
        ]
        self.guess_at = {
            (color, value): shade * len(self.values) + index
            for shade, color in enumerate(COLORS)
            for index, value in enumerate(self.values)
        }
        self.empty = self.layout.zeros()

    def tile_entries(self, at: int, color: str, revealed: bool | None, value: Any) -> tuple[int, ...]:
        """The entries set to 1 for a tile encoded at offset ``at`` (cached per place and kind)."""
        key = (at, color, revealed, value)
        entries = self._tile_entries.get(key)
        if entries is None:
            offsets = (
                0,
                1 + COLORS.index(color),
                *((3,) if revealed else ()),
                *((4, 5 + self.value_index[value]) if value is not None else ()),
            )
            entries = self._tile_entries[key] = tuple(at + offset for offset in offsets)
        return entries

    def reader(self) -> HistoryReader:
        """A reader for one seat's views of one game, given in order to :meth:`encode`."""
        return HistoryReader(self.guess_at)

    def encode(self, view: dict[str, Any], reader: HistoryReader | None = None) -> np.ndarray:
        at, players = self.at, self.players
        ones = [at["phase"] + PHASES.index(view["phase"]), at["round"] + min(view["round"], ROUNDS) - 1]
        ones += [at["seat"] + view["seat"]] if view["seat"] is not None else []
        ones += [at["current"] + view["current"]] if view["current"] is not None else []
        ones += [at["to_move"] + seat for seat in view["to_move"]]
        ones += [at["eliminated"] + seat for seat in view["eliminated"]]
        rows, width, cached = at["rows"], self.width, self._tile_entries
        for seat, row in enumerate(view["rows"]):
            base = rows + seat * self.row * width
            for index, tile in enumerate(row):
                key = (base + index * width, tile["color"], tile["revealed"], tile["value"])
                ones += cached.get(key) or self.tile_entries(*key)
        drawn = view["drawn"]
        if drawn is not None:
            ones += self.tile_entries(at["drawn"], drawn["color"], drawn["revealed"], drawn["value"])
        for index, tile in enumerate(view["unplaced"][:2]):
            ones += self.tile_entries(at["unplaced"] + index * width, tile["color"], None, tile["value"])
        ones += self.misses(view, reader or self.reader())
        vector = self.empty.copy()  # cheaper than a new zeros array
        vector.put(ones, 1.0)
        vector[at["scores"] : at["scores"] + players] = view["scores"]
        vector[at["hits"]] = view["hits_this_turn"]
        pile = view["pile"]
        vector[at["pile"] : at["pile"] + 2] = [pile["total"], 0] if "total" in pile else [pile["black"], pile["white"]]
        return vector

    def misses(self, view: dict[str, Any], reader: HistoryReader) -> list[int]:
        """The vector entries of this round's missed guesses at tiles still in the rows."""
        rows, miss_at, ones = view["rows"], self.miss_at, []
        where: dict[int, dict[Any, int]] = {}  # per target: tile id -> position, as needed
        for target, tile, guess in reader.misses(view["history"]):
            ids = where.get(target)
            if ids is None:
                ids = where[target] = {row_tile["id"]: index for index, row_tile in enumerate(rows[target])}
            index = ids.get(tile)
            if index is not None:
                ones.append(miss_at[target][index] + guess)
        return ones


class HistoryReader:
    """The round's missed guesses in the histories of one seat's views of one game, each history
    read on from where the last one ended: a game's history only grows, its events never change.
    A new reader reads a history from the start."""

    def __init__(self, guess_at: dict[tuple[str, Any], int]) -> None:
        self.guess_at = guess_at
        self.read = 0  # events read so far
        self.missed: list[tuple[int, Any, int]] = []  # (target, tile id, offset of the guess)

    def misses(self, history: list[dict[str, Any]]) -> list[tuple[int, Any, int]]:
        if len(history) < self.read:  # not the game read so far: start over
            self.read, self.missed = 0, []
        for event in history[self.read :]:
            kind = event["type"]
            if kind == "round":
                self.missed = []  # a new round deals new rows
            elif kind == "guess" and not event["hit"]:
                self.missed.append((event["target"], event["tile"], self.guess_at[event["color"], event["value"]]))
        self.read = len(history)
        return self.missed


def encoder(players: int, options: Any) -> CodaEncoder:
    return CodaEncoder(players, options)
