"""What kind of game a configuration is, declared once, as OpenSpiel's ``_GAME_TYPE``/``_GAME_INFO`` do.

Each game class answers :meth:`codecrack.Game.nature` for a player count and options. The
PettingZoo, Gymnasium and OpenSpiel wrappers in :mod:`codecrack.env` read only this declaration,
the engine contract and the game's observation encoder.

>>> space = ActionSpace([{"type": "add", "amount": 1}, {"type": "add", "amount": 2}])
>>> space.size, space.index({"amount": 2, "type": "add"})
(2, 1)
>>> space.action(0, [{"type": "add", "amount": 2}, {"type": "add", "amount": 1}])
{'type': 'add', 'amount': 1}
>>> space.mask([{"type": "add", "amount": 2}]).tolist()
[0, 1]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..i18n import N_
from .errors import IllegalAction

Dynamics = Literal["sequential", "simultaneous", "real_time"]
Utility = Literal["win_share", "score"]


def action_key(action: Mapping[str, Any]) -> Hashable:
    """The default slot key of an action: its items, or its canonical JSON when a value nests."""
    try:
        return frozenset(action.items())
    except TypeError:
        return json.dumps(action, sort_keys=True, separators=(",", ":"))


class ActionSpace:
    """A fixed, enumerated action space: slot ``i`` holds ``templates[i]``.

    ``key`` maps an action to its slot's key; by default the whole action, so slots and actions
    correspond one to one. A game whose action carries a value too large to enumerate (Alphabet
    Code's declaration) gives a coarser key, and the slot then means "the legal action of this
    kind": :meth:`action` resolves it against the legal actions, which never hold two in one slot.
    """

    def __init__(
        self, templates: Sequence[Mapping[str, Any]], key: Callable[[Mapping[str, Any]], Hashable] = action_key
    ) -> None:
        self.templates = [dict(template) for template in templates]
        self._key = key
        self._slots = {key(template): index for index, template in enumerate(self.templates)}
        if len(self._slots) != len(self.templates):
            raise ValueError("two templates of an action space share a slot")
        # Fast path: a flat action whose items come in its template's order (as games build them);
        # equal item tuples mean equal dicts, so one hashed look-up settles the slot.
        self._by_items = {
            tuple(template.items()): index
            for index, template in enumerate(self.templates)
            if not any(isinstance(value, (dict, list)) for value in template.values())
        }

    @property
    def size(self) -> int:
        return len(self.templates)

    @property
    def exact(self) -> bool:
        """Whether each slot holds exactly one action (its template), as with the default key."""
        return self._key is action_key

    def index(self, action: Mapping[str, Any]) -> int:
        """The slot of ``action``; :class:`IllegalAction` when the space has no such action."""
        try:
            index = self._by_items.get(tuple(action.items()))
        except TypeError:  # a nested value: The Coding's answers, Alphabet Code's declaration
            index = None
        if index is not None:
            return index
        try:
            return self._slots[self._key(action)]
        except (KeyError, TypeError, ValueError):
            raise IllegalAction(N_("{action!r} is outside this game's action space"), action=action) from None

    def indices(self, legal: Sequence[Mapping[str, Any]]) -> list[int]:
        """The slot of each action of ``legal``, in order (:meth:`index` applied to each)."""
        by_items, index = self._by_items.get, self.index
        slots = []
        for action in legal:
            try:
                slot = by_items(tuple(action.items()))
            except TypeError:
                slot = None
            slots.append(index(action) if slot is None else slot)
        return slots

    def action(self, index: int, legal: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The legal action in slot ``index``; :class:`IllegalAction` when that slot is not legal now."""
        for action in legal:
            if self.index(action) == index:
                return dict(action)
        raise IllegalAction(N_("action {index} ({label}) is not legal now"), index=index, label=self.label(index))

    def mask(self, legal: Sequence[Mapping[str, Any]]) -> np.ndarray:
        """``int8`` over the slots: 1 where a legal action lies."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[self.indices(legal)] = 1
        return mask

    def label(self, index: int) -> str:
        return json.dumps(self.templates[index], sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Nature:
    """One configuration's declaration (players and options fixed).

    - ``dynamics``: the kinds of step the configuration has; "simultaneous" when several seats
      act on the same state without seeing each other's choice, "real_time" when the first to
      act wins the step.
    - ``actions``: the enumerated action space, covering every action ``legal_actions`` offers.
    - ``max_length``: a bound on the number of actions in a game, or on one round when
      ``rounds_bounded`` is false (a drawn Alphabet Code duel is replayed without limit).
    - ``utility``: "win_share" (winners share 1, others 0: constant sum) or "score" (the result's
      scores; ``max_utility`` bounds them).
    - ``chance``: the kinds of chance event, each an explicit choice among ``n`` equally likely
      outcomes (see :meth:`codecrack.Game.chance_index`); ``max_chance_outcomes`` bounds ``n``.
      ``explicit_chance`` is false when some event is drawn otherwise (Alphabet Code's codes on
      sheets too large to list every code).
    - ``real_time``: for configurations with real-time steps, tells whether ``game`` is in one.
    - ``legal_mask``: optional fast path, ``legal_mask(game, seat)`` equals
      ``actions.mask(game.legal_actions(seat))`` but is read off the state by slot arithmetic,
      without building the action dicts (a Coda guess step offers hundreds; tests check the two
      agree over random play). Only for spaces where each slot is one action (``actions.exact``).
    """

    dynamics: frozenset[Dynamics]
    actions: ActionSpace
    max_length: int
    utility: Utility
    chance: tuple[str, ...]
    max_chance_outcomes: int
    max_utility: float = 1.0
    rounds_bounded: bool = True
    explicit_chance: bool = True
    real_time: Callable[[Any], bool] | None = None
    legal_mask: Callable[[Any, int], np.ndarray] | None = None

    def step_dynamics(self, game: Any) -> Dynamics:
        """How the seats in ``game.to_move`` act now: alone, simultaneously, or racing in real time."""
        if len(game.to_move) <= 1:
            return "sequential"
        if self.real_time is not None and self.real_time(game):
            return "real_time"
        return "simultaneous"

    def utilities(self, result: Mapping[str, Any], players: int) -> list[float]:
        """Each seat's utility for a finished game's ``result``."""
        if self.utility == "score":
            return [float(score) for score in result["scores"]]
        winners = result["winners"]
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]


class ChancePending(Exception):
    """Raised by :class:`ForcedChance` when the game needs an outcome it has not been given."""

    def __init__(self, kind: str, outcomes: int) -> None:
        super().__init__(f"chance event {kind!r} needs one of {outcomes} outcomes")
        self.kind = kind
        self.outcomes = outcomes


class RandomChance:
    """The default: every outcome drawn from the game's seeded ``rng``."""

    def pick(self, game: Any, kind: str, outcomes: int) -> int:
        pick: int = game.rng.randrange(outcomes)
        return pick


class ForcedChance:
    """Outcomes given in advance, in order (``game.chance_log`` indices); raises
    :class:`ChancePending` past their end. Replays the chance of another game, or lets a host
    (the OpenSpiel wrapper) choose each outcome."""

    def __init__(self, outcomes: list[int]) -> None:
        self.outcomes = outcomes  # the caller's list: outcomes appended later are used too

    def pick(self, game: Any, kind: str, outcomes: int) -> int:
        done = len(game.chance_log)
        if done >= len(self.outcomes):
            raise ChancePending(kind, outcomes)
        chosen = self.outcomes[done]
        if not 0 <= chosen < outcomes:
            raise ValueError(f"chance event {done} ({kind}) has {outcomes} outcomes, not {chosen}")
        return chosen
