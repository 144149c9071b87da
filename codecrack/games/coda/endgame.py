"""An exact endgame for 2-player ``hard``: when the opponent is down to its last face-down tiles,
search the rest of the turn over hard's exact belief and score every way the turn can end with
the opponent's reply played out exactly, world by world.

* **The turn** (exact over hard's belief): each guess hits with its posterior chance; a hit
  flips the tile (the belief is solved again) and hard may guess on or stop; clearing the row
  wins. Searched: the ``width`` likeliest values of every face-down tile of the opponent.
* **The reply** (exact per world): every row of the opponent that hard's belief allows
  (all of them when there are few, else a uniform sample) is taken in turn as the truth. The
  opponent then sees its own row, the public record and the tile hard's turn left in its own row
  (face down after a stop, face up after a miss). It is modelled as ``greedy``: it names its
  likeliest value (ties: each as likely) and goes on after a hit while that chance is at least its
  threshold. Hard knows its own values, so whether each guess hits is known: the reply ends by
  clearing hard's row (hard loses), by a stop (the opponent's drawn tile goes face down), or by
  a miss.
* **Afterwards**, a race: hard then clears the opponent's row in one turn with chance ``c`` (its
  best chain of guesses under its belief at the end of its turn, times ``fresh`` if the opponent
  just put a tile face down), and the opponent's later turns clear hard's row with chance ``d``
  (a second reply, from what the first one taught it: its hits and its miss), turn by turn:
  hard wins ``c / (1 - (1 - c)(1 - d))``.

Two opponent models (``rivals``: continue thresholds) are searched side by side; inside the turn
each model's best continuation counts, and the chosen action is the one whose worst value over
the models is highest. Only the seat's view goes in (its exact belief and its own values), so a
re-deal of what it cannot see leaves the decision unchanged.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .belief import Belief, Position, Tile, solve
from .worlds import sample_values
from .search import Guess, best_per_tile, guesses, hidden, likeliest, with_insert, with_value

Action = dict[str, Any]
World = dict[int, int]  # the opponent's face-down index -> value
CLEARED, STOPPED, MISSED = 0, 1, 2


def race(c: float, d: float) -> float:
    """Chance to win a race of turns, moving first, clearing with ``c`` per turn against ``d``.

    >>> race(1.0, 1.0), race(0.0, 0.5), race(0.5, 0.0), race(0.0, 0.0)
    (1.0, 0.0, 1.0, 0.5)
    """
    either = 1.0 - (1.0 - c) * (1.0 - d)
    return c / either if either > 0 else 0.5


@dataclass(frozen=True)
class Ending:
    """One way the opponent's reply ends: its chance per model, the outcome, and (unless it
    cleared hard's row) the chance per model that its next turn clears it."""

    weights: np.ndarray
    outcome: int
    later: np.ndarray


@dataclass(frozen=True)
class Turn:
    """Hard's side of the table at its decision: where its drawn tile would go and its values."""

    me: int
    rival: int
    drawn: tuple[int, int]  # (colour, value) of the tile in hand
    stop_at: int  # where the drawn tile enters the own row face down after a stop
    miss_at: int  # where it enters face up after a miss
    values: list[int]  # the own row's values, left to right


@dataclass
class Endgame:
    """The search; ``decide`` returns an action, or ``None`` when the position is not an endgame
    or no option stands out."""

    reach: int = 2  # the opponent has at most this many face-down tiles...
    exposed: int = 2  # ...or the own row at most this many, and the opponent at most ``far``
    far: int = 4
    rivals: tuple[float, ...] = (0.3, 0.5)  # the opponent models' continue thresholds
    worlds: int = 24  # the opponent's rows: all when at most this many, else this many sampled
    width: int = 2  # values searched per face-down tile
    breadth: int = 3  # face-down tiles searched (the likeliest ones)
    ties: int = 4  # the opponent's missing tied guesses followed (each stands for its share of all)
    fresh: float = 0.3  # chance to name a tile that the opponent has just put face down
    clear_lead: float = 0.01  # the best option must beat the next by this much, or hard decides as usual
    bolder_only: bool = False  # decide only to go on after a hit (else hard decides)
    _solved: dict[Any, Belief] = field(default_factory=dict, repr=False)

    def applies(self, position: Position, public: Position, me: int, rival: int) -> bool:
        theirs, mine = len(hidden(position, rival)), len(hidden(public, me))
        return 1 <= theirs <= self.reach or 1 <= theirs <= self.far and mine <= self.exposed

    def decide(self, position: Position, belief: Belief, public: Position, turn: Turn, hits: int,
               rng: random.Random) -> Action | None:
        """The action with the best worst-case win chance, or ``None`` outside the endgame or
        when the two best are within ``clear_lead``."""
        if not belief.total or not self.applies(position, public, turn.me, turn.rival):
            return None
        rows = self.rows(position, belief, turn.rival, rng)
        replies = {kind: self.replies(public, turn, rows, kind) for kind in ("stop", "miss")}
        options = self.options(position, belief, turn, rows, replies, hits)
        worst = sorted(((float(values.min()), n) for n, (values, _) in enumerate(options)), reverse=True)
        if len(worst) > 1 and worst[0][0] - worst[1][0] < self.clear_lead:
            return None  # too close to call: hard's own choice stands
        chosen = options[worst[0][1]][1]
        if self.bolder_only and (not hits or chosen["type"] == "stop"):
            return None
        return chosen

    # -- the opponent's rows ------------------------------------------------------------------
    def rows(self, position: Position, belief: Belief, rival: int, rng: random.Random) -> list[World]:
        """Every row of the opponent that the belief allows (each once: they are equally likely),
        or a uniform sample of ``worlds`` of them."""
        if belief.total <= self.worlds:
            return self.every_row(position, belief, rival)
        return [{index: value for (_, index), value in sample_values(position, belief, rng).items()}
                for _ in range(self.worlds)]  # hard's own row is known: only the opponent's is drawn

    def every_row(self, position: Position, belief: Belief, rival: int) -> list[World]:
        places = hidden(position, rival)
        if not places:
            return [{}]
        index = places[0]
        found = []
        for value in np.flatnonzero(belief.counts[rival][index]):
            after = with_value(position, rival, index, int(value))
            rest = self.every_row(after, self.solve(after), rival)
            found.extend({index: int(value), **world} for world in rest)
        return found

    # -- the reply ------------------------------------------------------------------------------
    def replies(self, public: Position, turn: Turn, rows: list[World], kind: str) -> list[list[Ending]]:
        """Per world, how the opponent's reply may end after hard's turn ended by ``kind``
        ("stop": drawn tile face down, "miss": face up); each way that does not clear hard's row
        comes with the chance that the opponent's next turn, knowing what this one taught it,
        clears it."""
        color, value = turn.drawn
        at = turn.stop_at if kind == "stop" else turn.miss_at
        mine = with_insert(public, turn.me, at, Tile(color, None if kind == "stop" else value))
        truth = [*turn.values[:at], value, *turn.values[at:]]
        found = []
        for world in rows:
            theirs = mine
            for index, v in world.items():
                theirs = with_value(theirs, turn.rival, index, v)
            endings = []
            for weights, outcome, after in self.reply(theirs, turn.me, truth, 0):
                later = weights * 0 if outcome == CLEARED else self.threat(after, turn.me, truth)
                endings.append(Ending(weights, outcome, later))
            found.append(endings)
        return found

    def threat(self, position: Position, me: int, truth: list[int]) -> np.ndarray:
        """Per model, the chance that a turn of the opponent from ``position`` clears hard's row."""
        cleared = [weights for weights, outcome, _ in self.reply(position, me, truth, 0) if outcome == CLEARED]
        return np.sum(cleared, axis=0) if cleared else np.zeros(len(self.rivals))

    def reply(self, position: Position, me: int, truth: list[int], hits: int) -> list[tuple[np.ndarray, int, Position]]:
        """The ways the opponent's turn from ``position`` (its view of the table) may end:
        ``(chance per model, outcome, what it knows then)``."""
        known = self.solve(position)
        top = likeliest(position, known, [me]) if known.total else []
        models = len(self.rivals)
        if not top:  # the opponent finds no consistent world: treat its turn as a miss
            return [(np.ones(models), MISSED, position)]
        going = np.array([hits == 0 or top[0].p >= t for t in self.rivals])
        found = [(1.0 - going, STOPPED, position)] if not going.all() else []
        if not going.any():
            return found
        share = going / len(top)
        wrong = [guess for guess in top if truth[guess.index] != guess.value]
        for guess in wrong[: self.ties]:  # a few misses stand for all of them
            found.append((share * len(wrong) / len(wrong[: self.ties]), MISSED,
                          self.without(position, me, guess.index, guess.value)))
        for guess in top:
            if truth[guess.index] != guess.value:
                continue
            after = with_value(position, me, guess.index, guess.value)
            if not hidden(after, me):
                found.append((share, CLEARED, after))
                continue
            found.extend((share * weights, outcome, end) for weights, outcome, end in self.reply(after, me, truth, hits + 1))
        return found

    # -- hard's turn ----------------------------------------------------------------------------
    def options(self, position: Position, belief: Belief, turn: Turn, rows: list[World],
                replies: dict[str, list[list[Ending]]], hits: int) -> list[tuple[np.ndarray, Action]]:
        """Each option's win chance per opponent model: stop (after a hit), or each guess searched."""
        found = []
        if hits:
            found.append((self.end_value(position, turn.rival, rows, replies["stop"]), {"type": "stop"}))
        for guess in self.candidates(position, belief, turn.rival):
            found.append((self.guess_value(position, guess, turn, rows, replies), guess.action()))
        return found

    def best(self, position: Position, belief: Belief, turn: Turn, rows: list[World],
             replies: dict[str, list[list[Ending]]]) -> np.ndarray:
        """Win chance per model after a hit, each model's best continuation (the turn has a hit)."""
        values = [value for value, _ in self.options(position, belief, turn, rows, replies, hits=1)]
        return np.max(values, axis=0)

    def guess_value(self, position: Position, guess: Guess, turn: Turn, rows: list[World],
                    replies: dict[str, list[list[Ending]]]) -> np.ndarray:
        after = with_value(position, turn.rival, guess.index, guess.value)
        if hidden(after, turn.rival):
            hit = self.best(after, self.solve(after), turn, rows, replies)
        else:
            hit = np.ones(len(self.rivals))
        missed = self.without(position, turn.rival, guess.index, guess.value)
        return guess.p * hit + (1.0 - guess.p) * self.end_value(missed, turn.rival, rows, replies["miss"])

    def candidates(self, position: Position, belief: Belief, rival: int) -> list[Guess]:
        found = guesses(position, belief, [rival])
        tiles = [guess.index for guess in best_per_tile(found)][: self.breadth]
        per_tile: dict[int, int] = {}
        kept = []
        for guess in found:
            if guess.index in tiles and per_tile.get(guess.index, 0) < self.width:
                per_tile[guess.index] = per_tile.get(guess.index, 0) + 1
                kept.append(guess)
        return kept

    def end_value(self, position: Position, rival: int, rows: list[World], replies: list[list[Ending]]) -> np.ndarray:
        """Win chance per model once the turn ends at ``position`` (hard's belief then), the
        opponent replying as ``replies`` says in each world still consistent with it."""
        alive = [w for w, world in enumerate(rows) if self.fits(position, rival, world)] or list(range(len(rows)))
        clear = self.clear(position, self.solve(position), rival)
        total = np.zeros(len(self.rivals))
        for w in alive:
            for ending in replies[w]:
                if ending.outcome != CLEARED:
                    mine = clear * self.fresh if ending.outcome == STOPPED else clear
                    total += ending.weights * np.array([race(mine, theirs) for theirs in ending.later])
        return total / len(alive)

    @staticmethod
    def fits(position: Position, rival: int, world: World) -> bool:
        row = position.rows[rival]
        return all(row[i].value == v if row[i].value is not None else row[i].allowed >> v & 1
                   for i, v in world.items())

    def clear(self, position: Position, belief: Belief, rival: int) -> float:
        """Chance to flip every face-down tile of ``rival`` in one turn, by the best chain of guesses."""
        if not belief.total:
            return 0.0
        best = 0.0
        for guess in best_per_tile(guesses(position, belief, [rival])):
            after = with_value(position, rival, guess.index, guess.value)
            rest = self.clear(after, self.solve(after), rival) if hidden(after, rival) else 1.0
            best = max(best, guess.p * rest)
        return best

    @staticmethod
    def without(position: Position, seat: int, index: int, value: int) -> Position:
        """The position after a miss ruled ``value`` out for that tile."""
        rows = list(position.rows)
        row = list(rows[seat])
        row[index] = replace(row[index], allowed=row[index].allowed & ~(1 << value))
        rows[seat] = row
        return replace(position, rows=rows)

    def solve(self, position: Position) -> Belief:
        key = (tuple(tuple(row) for row in position.rows), position.dashes, position.elsewhere)
        if key not in self._solved:
            self._solved[key] = solve(position)
        return self._solved[key]
