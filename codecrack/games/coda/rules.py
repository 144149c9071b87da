"""Coda's rules: options, the opening, the turn (draw, guess, stop or miss), elimination and the
3-round tournament. The rules as implemented are written up in ``docs/rules/coda.md``.

>>> game = CodaGame(players=2, seed=5, first=0)
>>> game.phase, sorted(game.to_move)
('opening', [0, 1])
>>> for seat in (0, 1):
...     _ = game.apply(seat, {"type": "opening", "black": 2})
>>> game.phase, game.current, game.legal_actions(0)
('draw', 0, [{'type': 'draw', 'color': 'black'}, {'type': 'draw', 'color': 'white'}])
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable
from itertools import product
from typing import Any, Literal, TypeGuard

from pydantic import Field, field_validator

from ...core.decisive import causes
from ...core.errors import IllegalAction, SeatNumber, seat_numbers
from ...core.frozen import frozen
from ...core.game import Action, Event, Game
from ...core.options import GameOptions, Preset, choice_option
from ...core.shape import check_keys
from ...i18n import N_
from .tiles import (
    BLACK,
    COLORS,
    DASH,
    HIGHEST,
    WHITE,
    Tile,
    color_counts,
    full_set,
    hand_size,
    hidden_value_sum,
    sort_key,
    sorted_places,
    tile_values,
)
from .view import coda_view

TOURNAMENT_ROUNDS = 3
HIT_POINTS, EXPOSE_POINTS, WIN_POINTS = 1, 3, 5
DECIDING_MOVES = {"guess", "reveal", "timeout"}  # the move before each "eliminated" put that seat out

# Which action types each phase accepts ("timeout" only with the clock option).
PHASE_ACTIONS = {
    "opening": {"opening"},
    "setup": {"ready"},
    "draw": {"draw", "timeout"},
    "guess": {"guess", "stop", "timeout"},
    "place": {"place", "timeout"},
    "reveal": {"reveal", "timeout"},
    "over": set(),
}


class CodaOptions(GameOptions):
    """The option keys of the rulings; defaults in the first position."""

    draw: Literal["classic", "deck"] = Field(
        "classic",
        title=N_("How to draw"),
        description=N_(
            "classic: pick a colour and get a random tile of it; deck: take the top tile of one shuffled deck."
        ),
    )
    dashes: bool = Field(
        False,
        title=N_("Dashes"),
        description=N_("The advanced game: a black and a white dash that may stand anywhere in a row."),
    )
    empty_deck: Literal["reveal", "eliminate"] = Field(
        "reveal",
        title=N_("Wrong guess, nothing to draw"),
        description=N_("reveal: turn up one of your own tiles; eliminate: you are out."),
    )
    memory: bool = Field(
        False,
        title=N_("Memory"),
        description=N_("After the opening look you no longer see the values of your own face-down tiles."),
    )
    notes: bool = Field(
        True,
        title=N_("History shown"),
        description=N_("Off: the table hides the guess history, so you play from memory."),
    )
    clock: bool = Field(
        False,
        title=N_("Turn clock"),
        description=N_("A turn lasts 60 s, then a 20 s countdown; when it runs out the turn is lost."),
    )
    rounds: int = choice_option(
        1,
        [1, TOURNAMENT_ROUNDS],
        title=N_("Rounds"),
        description=N_("1: one game; 3: the tournament, with points for hits and wins."),
    )

    @field_validator("rounds")
    @classmethod
    def _one_or_tournament(cls, rounds: int) -> int:
        if rounds not in (1, TOURNAMENT_ROUNDS):
            raise ValueError(N_("rounds must be 1 or 3 (3 is the tournament)"))
        return rounds


def color_of(action: Action) -> str:
    """The action's ``color``, refused unless it is black or white."""
    color: str = action["color"]
    if color not in COLORS:
        raise IllegalAction(N_("color must be 'black' or 'white', not {color!r}"), color=color)
    return color


def whole_number(action: Action, key: str, low: int, high: int) -> int:
    value = action[key]
    if not is_number_within(value, low, high):
        raise IllegalAction(
            N_("{key} must be a whole number from {low} to {high}, not {value!r}"),
            key=key,
            low=low,
            high=high,
            value=value,
        )
    return value


def is_number_within(value: Any, low: int, high: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


CODA_PRESETS = (
    Preset(
        "classic", N_("Classic"), N_("The base game: pick colours to draw, no dashes, one round."), {}, default=True
    ),
    Preset("advanced", N_("Advanced"), N_("The advanced game with the two dashes."), {"dashes": True}),
    Preset(
        "tournament",
        N_("Tournament"),
        N_("The official tournament: three scored rounds, with the turn clock."),
        {"rounds": TOURNAMENT_ROUNDS, "clock": True},
    ),
)


@functools.cache
def tile_guesses(target: int, index: int, dashes: bool) -> tuple[Action, ...]:
    """Every guess at the face-down tile at ``index`` of ``target``'s row, frozen and made once
    for every game (a few thousand in all): the mover's legal actions share them from view to view."""
    return tuple(
        frozen({"type": "guess", "target": target, "index": index, "color": color, "value": value})
        for color in COLORS
        for value in tile_values(dashes)
    )


class CodaGame(Game):
    """Coda for 2-4 players. State is public attributes read by :mod:`.view`; change it only via ``apply``."""

    name = "coda"
    min_players = 2
    max_players = 4
    Options = CodaOptions
    options: CodaOptions
    presets = CODA_PRESETS
    rated_per_count = True  # two players read each other; four share the table's luck: not one skill

    # -- setup -----------------------------------------------------------------------
    def _setup(self) -> None:
        self.options_json = self.options.model_dump(mode="json")
        self.hand_size = hand_size(self.players)
        self.tournament = self.options.rounds == TOURNAMENT_ROUNDS
        self.history: list[Event] = []
        self.scores = [0] * self.players
        self.round_log: list[dict[str, Any]] = []
        self.round = 0
        self._start_round(self.first_seat())

    def _start_round(self, first: int) -> None:
        players = range(self.players)
        self.round += 1
        self.current = first
        self.rows: list[list[Tile]] = [[] for _ in players]
        self.next_id = [0] * self.players
        self.unplaced: list[list[Tile]] = [[] for _ in players]  # opening dashes the owner must place
        self.shown = [False] * self.players  # a row stands publicly once its owner has arranged it
        self.opened: set[int] = set()
        self.ready: set[int] = set()
        self.eliminated: list[int] = []
        self.drawn: Tile | None = None
        self.drawn_face_up = False
        self.hits = 0
        self.round_points = [0] * self.players
        self.pile = full_set(self.options.dashes)
        self._emit({"type": "round", "round": self.round, "first": first})
        if self.options.draw == "classic":
            self.phase = "opening"
            return
        self.shuffle("shuffle", self.pile)
        for seat in players:
            self._deal(seat, [self.pile.pop() for _ in range(self.hand_size)])
        self._dealing_done()

    def _deal(self, seat: int, tiles: list[Tile]) -> None:
        """Sort the numbered tiles into the row; dashes wait for their owner to place them."""
        self.rows[seat] = sorted((tile for tile in tiles if not tile.is_dash), key=sort_key)
        self.unplaced[seat] = sorted((tile for tile in tiles if tile.is_dash), key=sort_key)
        self._number_row(seat)
        if not self.options.dashes:
            self._show(seat)

    def _number_row(self, seat: int) -> None:
        """Opening tiles are numbered by where they stand, left to right: ids tell nothing more."""
        for index, tile in enumerate(self.rows[seat]):
            tile.id = index
        self.next_id[seat] = len(self.rows[seat])

    def _show(self, seat: int) -> None:
        self.shown[seat] = True
        self._emit({"type": "deal", "seat": seat, "colors": [tile.color for tile in self.rows[seat]]})

    def _dealing_done(self) -> None:
        if self.options.dashes or self.options.memory:
            self.phase = "setup"
        else:
            self._start_turn()

    # -- the contract hooks ------------------------------------------------------------
    @property
    def public_phase(self) -> str:
        """The phase as views name it: the setup step is "arrange" with dashes, else "memorize"."""
        if self.phase == "setup":
            return "arrange" if self.options.dashes else "memorize"
        return self.phase

    def _to_move(self) -> frozenset[int]:
        if self.phase == "opening":
            return frozenset(set(range(self.players)) - self.opened)
        if self.phase == "setup":
            return frozenset(set(range(self.players)) - self.ready)
        return frozenset({self.current})

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == "opening":
            low, high = self._opening_range()
            return [{"type": "opening", "black": black} for black in range(low, high + 1)]
        if phase == "setup":
            return self._ready_actions(seat)
        if phase == "draw":
            if self.options.draw == "deck":
                return [{"type": "draw"}]
            return [{"type": "draw", "color": color} for color in self._colors_left()]
        if phase == "guess":
            return self._guess_actions(seat) + ([{"type": "stop"}] if self.hits else [])
        if phase == "place":
            return [{"type": "place", "index": index} for index in self._places()]
        return [{"type": "reveal", "index": i} for i, tile in enumerate(self.rows[seat]) if not tile.revealed]

    def _ready_actions(self, seat: int) -> list[Action]:
        """``ready``, with an index for each opening dash (each one counted in the row as it
        stands after the dashes before it went in)."""
        dashes = len(self.unplaced[seat])
        if not dashes:
            return [{"type": "ready"}]
        size = len(self.rows[seat])
        spots = product(*(range(size + n + 1) for n in range(dashes)))
        return [{"type": "ready", "dashes": list(indices)} for indices in spots]

    def _places(self) -> range:
        """Where the drawn tile may go: anywhere for a dash; a numbered tile's sorted place, on
        either side of any dashes there (the owner chooses)."""
        row, drawn = self.rows[self.current], self._held()
        return range(len(row) + 1) if drawn.is_dash else sorted_places(row, drawn)

    def _held(self) -> Tile:
        """The drawn tile, while its owner places it (there is one whenever placing is asked)."""
        assert self.drawn is not None, "placing comes after drawing"
        return self.drawn

    def _guess_actions(self, seat: int) -> list[Action]:
        guesses: list[Action] = []
        for target in self._targets(seat):
            for index, tile in enumerate(self.rows[target]):
                if not tile.revealed:
                    guesses.extend(tile_guesses(target, index, self.options.dashes))
        return guesses

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        handler = self._handlers().get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise IllegalAction(
                N_("unknown action type {kind!r}; Coda actions are {kinds}"),
                kind=kind,
                kinds=", ".join(sorted(self._handlers())),
            )
        if kind not in PHASE_ACTIONS[self.phase] or (kind == "timeout" and not self.options.clock):
            raise self._not_now(kind)
        start = len(self.history)
        handler(seat, action)
        return self.history[start:]  # frozen: the caller cannot change them

    def _handlers(self) -> dict[str, Callable[[int, Action], None]]:
        return {
            "opening": self._opening,
            "ready": self._ready,
            "place": self._place,
            "draw": self._draw,
            "guess": self._guess,
            "stop": self._stop,
            "reveal": self._reveal,
            "timeout": self._timeout,
        }

    def _not_now(self, kind: str) -> IllegalAction:
        if kind == "timeout" and not self.options.clock:
            return IllegalAction(N_("timeout needs the clock option (clock=true)"))
        allowed = sorted(PHASE_ACTIONS[self.phase] - ({"timeout"} if not self.options.clock else set()))
        return IllegalAction(
            N_("no {kind} now: the phase is {phase}, which takes {allowed}"),
            kind=kind,
            phase=self.public_phase,
            allowed=", ".join(allowed),
        )

    def _view(self, seat: int | None) -> dict[str, Any]:
        return coda_view(self, seat)

    def _result(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        rounds = [{**entry, "points": list(entry["points"])} for entry in self.round_log]
        decisive = causes(self.history, {"eliminated"}, DECIDING_MOVES)
        if not self.tournament:
            return {"winners": [rounds[-1]["winner"]], "scores": None, "rounds": rounds, "decisive": decisive}
        best = max(self.scores)
        return {
            "winners": [s for s, score in enumerate(self.scores) if score == best],
            "scores": list(self.scores),
            "rounds": rounds,
            "decisive": decisive,
        }

    def clone(self) -> CodaGame:
        """An independent copy (same seed state, record and history) for fast simulations.

        Events and round summaries are never changed once written, so the copy shares them.
        """
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.rows = [[tile.copy() for tile in row] for row in self.rows]
        other.pile = [tile.copy() for tile in self.pile]
        other.unplaced = [[tile.copy() for tile in hand] for hand in self.unplaced]
        other.drawn = self.drawn and self.drawn.copy()
        for name in (
            "history",
            "round_log",
            "_actions",
            "scores",
            "round_points",
            "next_id",
            "shown",
            "eliminated",
            "opened",
            "ready",
        ):
            setattr(other, name, copy.copy(getattr(self, name)))
        return other

    # -- setup actions ---------------------------------------------------------------
    def _opening_range(self) -> tuple[int, int]:
        """How many black tiles an opening hand may take, given what is left of each colour."""
        left = color_counts(self.pile)
        return max(0, self.hand_size - left[WHITE]), min(self.hand_size, left[BLACK])

    def _opening(self, seat: int, action: Action) -> None:
        check_keys(action, "black")
        black = whole_number(action, "black", *self._opening_range())
        self.opened.add(seat)
        self._emit({"type": "opening", "seat": seat, "black": black})
        colors = [BLACK] * black + [WHITE] * (self.hand_size - black)
        self._deal(seat, [self._take(color) for color in colors])
        if len(self.opened) == self.players:
            self._dealing_done()

    def _ready(self, seat: int, action: Action) -> None:
        """The seat's row is arranged: its opening dashes go where it says, and it stands."""
        indices = self._check_dash_spots(seat, action)
        for tile, index in zip(self.unplaced[seat], indices):
            self.rows[seat].insert(index, tile)
        self.unplaced[seat] = []
        self._number_row(seat)
        self.ready.add(seat)
        self._emit({"type": "ready", "seat": seat})
        if self.options.dashes:
            self._show(seat)
        if len(self.ready) == self.players:
            self._start_turn()

    def _check_dash_spots(self, seat: int, action: Action) -> list[int]:
        dashes = len(self.unplaced[seat])
        if not dashes:
            check_keys(action)
            return []
        check_keys(action, "dashes")
        indices = action["dashes"]
        if not isinstance(indices, list) or len(indices) != dashes:
            raise IllegalAction(
                N_("dashes must list {count} index(es), one per opening dash, not {indices!r}"),
                count=dashes,
                indices=indices,
            )
        size = len(self.rows[seat])
        for n, index in enumerate(indices):
            if not is_number_within(index, 0, size + n):
                raise IllegalAction(
                    N_("dash index {n} must be a whole number from 0 to {high}, not {value!r}"),
                    n=n,
                    high=size + n,
                    value=index,
                )
        return indices

    def _place(self, seat: int, action: Action) -> None:
        """The drawn tile goes in where its owner puts it, among its legal places."""
        check_keys(action, "index")
        index = whole_number(action, "index", 0, len(self.rows[seat]))
        places = self._places()
        if index not in places:
            if len(places) == 1:
                raise IllegalAction(N_("the drawn tile goes at index {index}"), index=places[0])
            raise IllegalAction(
                N_("the drawn tile goes at an index from {first} to {last}"), first=places[0], last=places[-1]
            )
        self._insert_drawn(index)

    # -- the turn --------------------------------------------------------------------
    def _start_turn(self) -> None:
        self.phase = "draw" if self.pile else "guess"
        self.hits = 0
        self.drawn = None
        self.drawn_face_up = False

    def _draw(self, seat: int, action: Action) -> None:
        if self.options.draw == "deck":
            check_keys(action)
            self._draw_tile(seat, None)
            return
        check_keys(action, "color")
        color = color_of(action)
        if color not in self._colors_left():
            raise IllegalAction(
                N_("no black tiles are left; draw white")
                if color == "black"
                else N_("no white tiles are left; draw black")
            )
        self._draw_tile(seat, color)

    def _draw_tile(self, seat: int, color: str | None) -> None:
        self.drawn = self._take(color)
        self.phase = "guess"
        self._emit({"type": "draw", "seat": seat, "color": self.drawn.color})

    def _guess(self, seat: int, action: Action) -> None:
        check_keys(action, "target", "index", "color", "value")
        target, index = self._check_guess_target(seat, action)
        color, value = self._check_guess_tile(action)
        tile = self.rows[target][index]
        hit = tile.color == color and tile.value == value
        self._emit(
            {
                "type": "guess",
                "seat": seat,
                "target": target,
                "tile": tile.id,
                "index": index,
                "color": color,
                "value": value,
                "hit": hit,
            }
        )
        if not hit:
            self._penalty(seat)
            return
        tile.revealed = True
        self.hits += 1
        self._score(seat, HIT_POINTS)
        if not self._hidden_count(target):
            self._eliminate(target)
            self._score(seat, EXPOSE_POINTS)
            if len(self._alive()) == 1:
                self._place_drawn_or_go_on()

    def _check_guess_target(self, seat: int, action: Action) -> tuple[int, int]:
        target = action["target"]
        if not isinstance(target, int) or isinstance(target, bool):
            raise IllegalAction(N_("target must be a seat number, not {target!r}"), target=target)
        if target == seat:
            raise IllegalAction(N_("you cannot guess your own tiles; pick an opponent's seat"))
        if target not in self._targets(seat):
            raise IllegalAction(
                N_("target must be an opponent still in the round: {targets}, not {target!r}"),
                targets=seat_numbers(self._targets(seat)),
                target=SeatNumber(target),
            )
        index = whole_number(action, "index", 0, len(self.rows[target]) - 1)
        if self.rows[target][index].revealed:
            raise IllegalAction(
                N_("tile {index} of seat {target} is already face up; guess a face-down tile"),
                index=index,
                target=SeatNumber(target),
            )
        return target, index

    def _check_guess_tile(self, action: Action) -> tuple[str, int | str]:
        color, value = color_of(action), action["value"]
        if value == DASH and isinstance(value, str):
            if not self.options.dashes:
                raise IllegalAction(N_("there are no dashes in this game (dashes=false)"))
        elif not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= HIGHEST:
            raise IllegalAction(
                N_("value must be a whole number from 0 to {high} or '-', not {value!r}")
                if self.options.dashes
                else N_("value must be a whole number from 0 to {high}, not {value!r}"),
                high=HIGHEST,
                value=value,
            )
        return color, value

    def _stop(self, seat: int, action: Action) -> None:
        check_keys(action)
        if not self.hits:
            raise IllegalAction(N_("you may stop only after a correct guess; guess first"))
        self._emit({"type": "stop", "seat": seat})
        self._place_drawn_or_go_on()

    def _penalty(self, seat: int) -> None:
        """A miss (or a timeout): the drawn tile turns face up; with none, the empty-deck ruling."""
        if self.drawn is not None:
            self.drawn_face_up = True
            self.phase = "place"
        elif self.options.empty_deck == "reveal":
            self.phase = "reveal"
        else:
            self._eliminate(seat)
            self._end_turn_or_round()

    def _place_drawn_or_go_on(self) -> None:
        """Every drawn tile, dash or number, goes through the owner's placement step (the same
        public flow whatever it is); with no drawn tile the turn or the round ends at once."""
        if self.drawn is not None:
            self.phase = "place"
        else:
            self._end_turn_or_round()

    def _insert_drawn(self, index: int) -> None:
        tile, self.drawn = self._held(), None
        face_up = self.drawn_face_up
        self._enter(self.current, tile, index, revealed=face_up)
        self._emit(
            {
                "type": "insert",
                "seat": self.current,
                "tile": tile.id,
                "index": index,
                "color": tile.color,
                "revealed": face_up,
                "value": tile.value if face_up else None,
            }
        )
        self._end_turn_or_round()

    def _reveal(self, seat: int, action: Action) -> None:
        check_keys(action, "index")
        index = whole_number(action, "index", 0, len(self.rows[seat]) - 1)
        if self.rows[seat][index].revealed:
            raise IllegalAction(N_("your tile {index} is already face up; reveal a face-down one"), index=index)
        self._reveal_own(seat, index)

    def _reveal_own(self, seat: int, index: int) -> None:
        tile = self.rows[seat][index]
        tile.revealed = True
        self._emit(
            {"type": "reveal", "seat": seat, "tile": tile.id, "index": index, "color": tile.color, "value": tile.value}
        )
        if not self._hidden_count(seat):
            self._eliminate(seat)
        self._end_turn_or_round()

    def _timeout(self, seat: int, action: Action) -> None:
        """The host's clock ran out: the drawn tile turns face up (the engine draws it if
        needed) and goes in at once, at one of its legal places drawn by chance; the turn
        ends. With an empty pile this is a miss. A pending placement goes in the same way, face
        up or down as it was; a pending reveal turns up the leftmost face-down tile.
        """
        check_keys(action)
        self._emit({"type": "timeout", "seat": seat})
        if self.phase == "draw":
            self._draw_tile(seat, self._fuller_color())
        if self.phase == "guess" and self.drawn is None:
            self._penalty(seat)
        elif self.phase in ("guess", "place"):
            self.drawn_face_up = self.drawn_face_up or self.phase == "guess"
            self._insert_drawn(self.chance("place", self._places()))
        else:
            self._reveal_own(seat, next(i for i, tile in enumerate(self.rows[seat]) if not tile.revealed))

    def _end_turn_or_round(self) -> None:
        if len(self._alive()) == 1:
            self._finish_round()
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        seat = self.current
        while True:
            seat = (seat + 1) % self.players
            if seat not in self.eliminated:
                break
        self.current = seat
        self._start_turn()

    # -- rounds and scores -------------------------------------------------------------
    def _finish_round(self) -> None:
        """The last seat with a face-down tile wins the round (its drawn tile is already placed)."""
        winner = self._alive()[0]
        self._score(winner, WIN_POINTS + hidden_value_sum(self.rows[winner]))
        entry = {"round": self.round, "winner": winner, "points": list(self.round_points)}
        self.round_log.append(entry)
        self._emit({"type": "round_over", **entry, "scores": list(self.scores)})
        if self.round < self.options.rounds:
            self._start_round(winner)
        else:
            self.phase = "over"

    def _score(self, seat: int, points: int) -> None:
        if self.tournament:
            self.scores[seat] += points
            self.round_points[seat] += points

    def _eliminate(self, seat: int) -> None:
        self.eliminated.append(seat)
        self._emit({"type": "eliminated", "seat": seat})

    # -- small helpers -----------------------------------------------------------------
    def _emit(self, event: Event) -> None:
        """Record a public event, frozen: every later view shares it (docs/engine.md, "Views share")."""
        self.history.append(frozen(event))

    def _enter(self, seat: int, tile: Tile, index: int, revealed: bool) -> None:
        """A tile joins a row during the round: it gets the row's next id (entry order is public)."""
        tile.id = self.next_id[seat]
        tile.revealed = revealed
        self.next_id[seat] += 1
        self.rows[seat].insert(index, tile)

    def _take(self, color: str | None) -> Tile:
        """Deck: the top tile. Classic: a random remaining tile of ``color``."""
        if color is None:
            return self.pile.pop()
        choices = [i for i, tile in enumerate(self.pile) if tile.color == color]
        return self.pile.pop(self.chance("draw", choices))

    def _colors_left(self) -> list[str]:
        counts = color_counts(self.pile)
        return [color for color in COLORS if counts[color]]

    def _fuller_color(self) -> str | None:
        """What a timeout draws: the deck's top, or the colour with more tiles left (black on ties)."""
        if self.options.draw == "deck":
            return None
        counts = color_counts(self.pile)
        return BLACK if counts[BLACK] >= counts[WHITE] else WHITE

    def _alive(self) -> list[int]:
        return [seat for seat in range(self.players) if seat not in self.eliminated]

    def _targets(self, seat: int) -> list[int]:
        return [other for other in self._alive() if other != seat]

    def _hidden_count(self, seat: int) -> int:
        return sum(not tile.revealed for tile in self.rows[seat])
