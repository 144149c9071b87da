"""Reading the opponents' guesses as evidence about their own rows (``hard``, issue 14).

A player names values that look likely *from its own side of the table*, and what looks likely
depends on the tiles it holds: holding white 5, it will not guess white 5 on a tile that may be
white 4, 5 or 6, and it becomes likelier to name 4 or 6. So each guess is evidence about the
guesser's hidden row, far beyond "it does not name a tile it holds" (which
:func:`.observe.guesser_lacks` already reads as a certainty).

This module turns that into a likelihood. For one world (values for every tile the reader cannot
see), the guesser's position at the moment of each of its recent guesses is rebuilt from the public
record at that time plus the guesser's own tiles *in that world* (its row then, and the tile it
had drawn); its exact belief gives the chance it saw in every guess it could make. The guesser is
modelled as picking among them with a softmax on those chances (``sharpness``), except with
chance ``slip`` any legal guess at all. Worlds drawn exactly from the reader's belief are then
weighted by the chance of the guesses observed, which gives reweighted marginals
(:class:`ReadBelief`) and a way to draw worlds for the playouts.

Only the reader's view goes in: the public history, the rows as the reader sees them, and worlds
drawn from the reader's own belief.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .belief import ANY, DASH, Belief, Position, Tile, _hidden_masks, key, solve
from .observe import COLORS, missed_values, round_events, value_code
from .worlds import Values, sample_values

View = dict[str, Any]


@dataclass(frozen=True)
class Moment:
    """One guess by an opponent, as the guesser saw the table when it made it.

    ``template`` is the guesser's position then, with its own tiles that the reader cannot see
    left open: ``slots[j]`` is the template index in the guesser's row filled from the reader's
    place ``own[j]``. ``drawn`` is the guesser's tile in hand then: its colour and either the
    reader's place holding it or its known value.
    """

    at: int  # index of the guess in the round's events
    guesser: int
    template: Position
    own: tuple[tuple[int, int], ...]
    slots: tuple[int, ...]
    drawn: tuple[int, tuple[int, int] | int] | None
    guess: tuple[int, int, int, int]  # target, index then, colour, value

    def hand(self, values: Values) -> tuple[int, ...]:
        """The guesser's tiles the reader cannot see, in world ``values`` (the cache key)."""
        held = tuple(values[place] for place in self.own)
        if self.drawn is not None and isinstance(self.drawn[1], tuple):
            held += (values[self.drawn[1]],)
        return held

    def position(self, values: Values) -> Position:
        """The guesser's position in world ``values``."""
        rows = list(self.template.rows)
        row = list(rows[self.guesser])
        for place, slot in zip(self.own, self.slots):
            row[slot] = replace(row[slot], value=values[place])
        rows[self.guesser] = row
        elsewhere = self.template.elsewhere
        if self.drawn is not None:
            color, held = self.drawn
            elsewhere = elsewhere | {(color, values[held] if isinstance(held, tuple) else held)}
        return Position(rows, self.template.dashes, elsewhere)


def moments(view: View, position: Position, recent: int) -> list[Moment]:
    """The last ``recent`` guesses of the round by opponents whose rows still hide tiles from the
    reader, each rebuilt as its guesser saw the table (``position``: the reader's)."""
    me, events, rows = view["seat"], round_events(view), view["rows"]
    found: list[Moment] = []
    for at in range(len(events) - 1, -1, -1):
        event = events[at]
        if len(found) == recent:
            break
        if event.get("type") != "guess" or event["seat"] == me:
            continue
        if all(tile.value is not None for tile in position.rows[event["seat"]]):
            continue
        found.append(_moment(at, event, events, rows, position))
    return found[::-1]


def _moment(
    at: int, event: dict[str, Any], events: list[dict[str, Any]], rows: list[list[dict[str, Any]]], position: Position
) -> Moment:
    guesser = event["seat"]
    later = {(e["seat"], e["tile"]) for e in events[at + 1 :] if e.get("type") == "insert"}
    shown = _revealed(events[:at])
    missed = missed_values(events[:at], rows)
    template, own, slots = [], [], []
    for seat, row in enumerate(rows):
        then: list[Tile] = []
        for index, tile in enumerate(row):
            if (seat, tile["id"]) in later:
                continue
            seen = position.rows[seat][index].value
            color = COLORS[tile["color"]]
            if seat == guesser and seen is None:
                own.append((seat, index))
                slots.append(len(then))
                then.append(Tile(color, None))
            elif seat == guesser or (seat, tile["id"]) in shown:
                then.append(Tile(color, value_code(tile["value"]) if seat != guesser else seen))
            else:
                then.append(Tile(color, None, ANY & ~missed.get((seat, tile["id"]), 0)))
        template.append(then)
    guess = (event["target"], event["index"], COLORS[event["color"]], value_code(event["value"]))
    return Moment(
        at,
        guesser,
        Position(template, position.dashes),
        tuple(own),
        tuple(slots),
        _drawn_then(at, guesser, events, rows, position),
        guess,
    )


def _revealed(events: list[dict[str, Any]]) -> set[tuple[int, int]]:
    """Tiles ``(seat, id)`` turned face up by these events."""
    shown = set()
    for event in events:
        kind = event.get("type")
        if kind == "guess" and event["hit"]:
            shown.add((event["target"], event["tile"]))
        elif kind == "reveal" or (kind == "insert" and event["revealed"]):
            shown.add((event["seat"], event["tile"]))
    return shown


def _drawn_then(
    at: int, guesser: int, events: list[dict[str, Any]], rows: list[list[dict[str, Any]]], position: Position
) -> tuple[int, tuple[int, int] | int] | None:
    """The tile the guesser held at event ``at``: the one it placed at the end of that turn."""
    for event in events[at + 1 :]:
        if event.get("seat") != guesser or event.get("type") not in ("insert", "draw"):
            continue
        if event["type"] == "draw":
            return None
        index = next(i for i, tile in enumerate(rows[guesser]) if tile["id"] == event["tile"])
        value = position.rows[guesser][index].value
        return COLORS[event["color"]], (guesser, index) if value is None else value
    return None


def enumerate_worlds(position: Position, limit: int) -> list[Values] | None:
    """Every world of ``position`` (values for its hidden tiles), or ``None`` if there are more
    than ``limit``: the assignments :func:`.belief.solve` counts, listed."""
    masks = _hidden_masks(position)
    places = [(s, i) for s, row in enumerate(position.rows) for i, tile in enumerate(row)]
    found: list[Values] = []
    values: Values = {}

    def bound(s: int, i: int) -> int:
        """The key of the next known number right of tile ``i`` in row ``s``."""
        for tile in position.rows[s][i + 1 :]:
            if tile.value is not None and tile.value != DASH:
                return key(tile.color, tile.value)
        return 99

    def walk(n: int, low: int, used: frozenset[tuple[int, int]]) -> bool:
        if n == len(places):
            found.append(dict(values))
            return len(found) <= limit
        s, i = places[n]
        tile = position.rows[s][i]
        low = -1 if i == 0 else low
        if tile.value is not None:
            if tile.value == DASH:
                return walk(n + 1, low, used)
            return key(tile.color, tile.value) > low and walk(n + 1, key(tile.color, tile.value), used)
        high = bound(s, i)
        bits = masks[(s, i)]
        for value in range(13):
            if not bits >> value & 1 or (tile.color, value) in used:
                continue
            if value == DASH:
                after = low
            else:
                after = key(tile.color, value)
                if not low < after < high:
                    continue
            values[(s, i)] = value
            if not walk(n + 1, after, used | {(tile.color, value)}):
                return False
        values.pop((s, i), None)
        return True

    complete = walk(0, -1, frozenset())
    return found if complete else None


class ReadBelief(Belief):
    """Marginals reweighted by what the opponents' guesses say, with the weighted worlds behind
    them (for the playouts: :meth:`sample_world`)."""

    def __init__(self, total: int, counts: list[list[np.ndarray]], worlds: list[Values], weights: list[float]):
        super().__init__(total, counts)
        self.worlds, self.weights = worlds, weights

    def sample_world(self, rng: random.Random) -> Values:
        return rng.choices(self.worlds, weights=self.weights)[0]


class Reading:
    """The guesser model and its cache: the likelihood of each recent guess, per guesser's hand."""

    def __init__(self, sharpness: float, slip: float, recent: int, listed: int, seed: int):
        self.sharpness, self.slip, self.recent, self.listed = sharpness, slip, recent, listed
        self.rng = random.Random(seed)
        self.cache: dict[tuple[Any, ...], float] = {}
        self.round: Any = None

    def reweigh(self, view: View, position: Position, belief: Belief, worlds: int) -> Belief:
        """``belief`` reweighted by the opponents' recent guesses in ``worlds`` worlds (all of them
        when there are no more); unchanged when there are no such guesses."""
        if view.get("round") != self.round:
            self.round, self.cache = view.get("round"), {}
        found = moments(view, position, self.recent)
        if not found or not belief.total:
            return belief
        drawn, exact = self.draw(position, belief, worlds)
        weights = [math.prod(self.likelihood(m, values) for m in found) for values in drawn]
        if sum(weights) <= 0:
            return belief
        return ReadBelief(belief.total, self.counts(position, belief, drawn, weights, exact), drawn, weights)

    def draw(self, position: Position, belief: Belief, worlds: int) -> tuple[list[Values], bool]:
        """``worlds`` worlds drawn uniformly from the reader's belief (all of them when there are
        no more), and whether they are all of them."""
        listed = enumerate_worlds(position, self.listed) if belief.total <= self.listed else None
        if listed is not None and len(listed) <= worlds:
            return listed, True
        if listed is not None:
            return self.rng.sample(listed, worlds), False
        return [sample_values(position, belief, self.rng) for _ in range(worlds)], False

    def likelihood(self, moment: Moment, values: Values) -> float:
        """The chance of the observed guess, had the guesser held its tiles of world ``values``."""
        memo = (moment.at, moment.hand(values))
        if memo not in self.cache:
            self.cache[memo] = self.chance(moment, values)
        return self.cache[memo]

    def chance(self, moment: Moment, values: Values) -> float:
        seen = moment.position(values)
        belief = solve(seen)
        options = [
            (s, i)
            for s, row in enumerate(seen.rows)
            if s != moment.guesser
            for i, tile in enumerate(row)
            if tile.value is None
        ]
        width = 13 if seen.dashes else 12
        anything = self.slip / max(1, len(options) * width)
        if not belief.total:
            return anything
        target, index, color, value = moment.guess
        probs = np.concatenate([belief.probs[s][i] for s, i in options])
        probs = probs[probs > 0]
        top = probs.max()
        mass = np.exp(self.sharpness * (probs - top)).sum()
        named = belief.probs[target][index][value] if seen.rows[target][index].color == color else 0.0
        picked = math.exp(self.sharpness * (named - top)) / mass if named > 0 else 0.0
        return (1 - self.slip) * picked + anything

    @staticmethod
    def counts(
        position: Position, belief: Belief, worlds: list[Values], weights: list[float], exact: bool
    ) -> list[list[np.ndarray]]:
        """Reweighted counts per tile and value (scaled to ``belief.total``). With every world
        listed they are exact; with a sample, each value's exact chance is scaled by the ratio of
        its worlds' mean weight to the mean weight (values never drawn keep their chance)."""
        counts = [[np.asarray(c, dtype=float).copy() for c in row] for row in belief.counts]
        mean = sum(weights) / len(weights)
        for s, row in enumerate(position.rows):
            for i, tile in enumerate(row):
                if tile.value is not None:
                    continue
                weighed, seen = np.zeros(13), np.zeros(13)
                for values, weight in zip(worlds, weights):
                    weighed[values[(s, i)]] += weight
                    seen[values[(s, i)]] += 1
                if exact:
                    probs = weighed
                else:
                    ratio = np.divide(weighed, seen * mean, out=np.ones(13), where=seen > 0)
                    probs = belief.probs[s][i] * ratio
                counts[s][i] = probs / probs.sum() * belief.total
        return counts
