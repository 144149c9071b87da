"""The engine contract every game implements.

A game is a state machine over seats ``0 .. players-1``.  Hosts (the CLI, the web server,
the arena) only ever call the public methods below; games implement the underscored hooks.
"""

from __future__ import annotations

import copy
import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, ClassVar, TypeVar

from ..i18n import N_
from .errors import IllegalAction, OptionError, SeatNumber, seat_numbers
from .nature import ForcedChance, Nature, RandomChance
from .options import GameOptions, Preset, parse_options

T = TypeVar("T")

Action = dict[str, Any]
Event = dict[str, Any]
GAME_OVER = N_("the game is over")


class Game(ABC):
    """Base class of every game. Subclasses declare their name, player range and options."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[GameOptions]] = GameOptions
    presets: ClassVar[tuple[Preset, ...]] = ()  # named option sets; the one marked default is the defaults
    rated_per_count: ClassVar[bool] = False  # a rating and a leaderboard per player count (else one for all)

    def __init__(
        self, *, players: int, seed: int, chance: RandomChance | ForcedChance | None = None, **options: Any
    ) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise self._player_count_error(players)
        self.players = players
        self.seed = seed
        self.options = parse_options(self.Options, options)
        if self.options.first is not None and not 0 <= self.options.first < players:
            raise OptionError(N_("first must be a seat from 0 to {last}"), last=players - 1)
        self.rng = random.Random(seed)
        self._chance = chance or RandomChance()
        self.chance_log: tuple[tuple[str, int, int], ...] = ()  # hidden: (kind, outcome, outcomes)
        self._actions: list[list[Any]] = []
        self._setup()

    # -- hooks for games -------------------------------------------------------------
    @abstractmethod
    def _setup(self) -> None:
        """Deal and prepare the opening state, drawing chance only from ``self.rng``."""

    @abstractmethod
    def _to_move(self) -> frozenset[int]: ...

    def _awaited(self) -> frozenset[int]:
        """Seats the game is waiting for; override when a seat may hold a standing choice."""
        return self._to_move()

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]: ...

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Check ``action`` fully, raising :class:`IllegalAction` before any change, then perform it."""

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def _result(self) -> dict[str, Any] | None:
        """``None`` while playing, else ``{"winners": [...], "scores": [...] or None, ...}``."""

    @classmethod
    def _nature(cls, players: int, options: GameOptions) -> Nature:
        """The nature of this configuration (see :mod:`codecrack.core.nature`): by default the
        ``declare(players, options)`` function of the ``nature`` module beside the game's rules."""
        package = cls.__module__.rpartition(".")[0]
        try:
            module = importlib.import_module(f"{package}.nature")
        except ModuleNotFoundError as error:
            if error.name != f"{package}.nature":
                raise
            raise OptionError(
                N_("{game} declares no nature, so the environments cannot wrap it"), game=cls.name
            ) from None
        nature: Nature = module.declare(players, options)
        return nature

    # -- chance: every random event is an explicit choice among equally likely outcomes ----
    def chance_index(self, kind: str, outcomes: int) -> int:
        """One chance event of ``kind``: an index below ``outcomes``, each equally likely.

        Drawn from ``self.rng`` (exactly as ``rng.randrange``), or given by a
        :class:`~codecrack.core.nature.ForcedChance`. The game's ``chance_log`` keeps every event.
        """
        chosen = self._chance.pick(self, kind, outcomes)
        self.chance_log = (*self.chance_log, (kind, chosen, outcomes))
        return chosen

    @property
    def chance_source(self) -> RandomChance | ForcedChance:
        return self._chance

    def use_chance(self, source: RandomChance | ForcedChance) -> None:
        """Draw the chance events from now on from ``source`` (a host taking over chance)."""
        self._chance = source

    def chance(self, kind: str, outcomes: Sequence[T]) -> T:
        """One of ``outcomes``, equally likely (as ``rng.choice``)."""
        return outcomes[self.chance_index(kind, len(outcomes))]

    def shuffle(self, kind: str, items: MutableSequence[Any]) -> None:
        """Shuffle ``items`` in place exactly as ``rng.shuffle`` does, one chance event per step:
        step ``i`` (from the end) picks which of the first ``i + 1`` items goes to position ``i``."""
        for i in reversed(range(1, len(items))):
            j = self.chance_index(kind, i + 1)
            items[i], items[j] = items[j], items[i]

    # -- the contract ----------------------------------------------------------------
    def first_seat(self) -> int:
        """The starting seat: the ``first`` option, or one drawn from the seed."""
        if self.options.first is not None:
            return self.options.first
        return self.chance_index("first", self.players)

    @classmethod
    def _player_count_error(cls, players: Any) -> OptionError:
        return OptionError(
            N_("{game} takes {low}-{high} players, not {players!r}"),
            game=cls.name,
            low=cls.min_players,
            high=cls.max_players,
            players=players,
        )

    @classmethod
    def nature(cls, players: int, **options: Any) -> Nature:
        """The nature of the configuration ``players`` and ``options`` (checked as ``new_game`` does)."""
        if not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
            raise cls._player_count_error(players)
        return cls._nature(players, parse_options(cls.Options, options))

    @property
    def to_move(self) -> frozenset[int]:
        """Seats that may act now (several when the rules allow simultaneous or real-time play)."""
        return frozenset() if self.over else self._to_move()

    @property
    def awaited(self) -> frozenset[int]:
        """The seats of ``to_move`` whose action the game is waiting for.

        Usually all of them. A seat that has made a standing choice it may still change (a
        pass in The Coding's speed mode, which a later slap cancels) stays in ``to_move`` but
        is not awaited: hosts ask their bots to act only for awaited seats.
        """
        return frozenset() if self.over else self._awaited()

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, as JSON-able dicts with a ``"type"``."""
        self._check_seat(seat)
        return self._legal_actions(seat) if seat in self.to_move else []

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Perform ``action`` for ``seat`` and return the public events it caused.

        Raises :class:`IllegalAction` naming the problem; the game is then unchanged.
        """
        self._check_seat(seat)
        if self.over:
            raise IllegalAction(GAME_OVER)
        if not isinstance(action, Mapping):
            raise IllegalAction(N_("an action must be a dict with a 'type', not {kind}"), kind=type(action).__name__)
        if "type" not in action:
            raise IllegalAction(N_("an action needs a 'type'"))
        if seat not in self.to_move:
            raise IllegalAction(
                N_("seat {seat} may not act now (to move: {to_move})"),
                seat=SeatNumber(seat),
                to_move=seat_numbers(sorted(self.to_move)),
            )
        action = {key: _copied(value) for key, value in action.items()}
        events = self._apply(seat, action)
        self._actions.append([seat, action])
        return events

    def view(self, seat: int | None, *, legal_actions: bool = True) -> dict[str, Any]:
        """Exactly what ``seat`` may know now (``None``: a spectator), public history included.
        ``legal_actions=False`` leaves that entry out, for hosts that read the legal actions
        another way (the environments' masks)."""
        if seat is not None:
            self._check_seat(seat)
        view = self._view(seat)
        if legal_actions:
            view["legal_actions"] = self.legal_actions(seat) if seat is not None else []
        return view

    @property
    def over(self) -> bool:
        return self._result() is not None

    @property
    def result(self) -> dict[str, Any] | None:
        return self._result()

    @property
    def record_length(self) -> int:
        """How many actions the game has taken (cheaper than ``len(record()["actions"])``)."""
        return len(self._actions)

    def record(self) -> dict[str, Any]:
        """The game's record: replaying it with :func:`codecrack.replay` rebuilds this game."""
        return {
            "game": self.name,
            "players": self.players,
            "seed": self.seed,
            "options": self.options.model_dump(mode="json", exclude_defaults=True),
            "actions": copy.deepcopy(self._actions),
        }

    def _check_seat(self, seat: Any) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise IllegalAction(N_("no seat {seat!r}: seats are 0 to {last}"), seat=seat, last=self.players - 1)


def _copied(value: Any) -> Any:
    """Copy nested containers so that a caller's later edits cannot reach the record."""
    return copy.deepcopy(value) if isinstance(value, (dict, list, tuple, set)) else value
