"""One game driven one seat at a time: what every environment wrapper shares.

Environments ask one agent at a time, so the engine's multi-seat steps are serialised:

- **Simultaneous steps** (Coda's opening and setup, The Coding's ordering, stalemate reveals and
  one-shot answers, Alphabet Code's codes and last declarations): the seats to move choose in
  seat order, each from its own view of the state *before* anyone's choice; the choices are
  held back and applied together, in seat order, once the last seat has chosen. No seat sees
  another's choice, not even that it was made, so the order gives no information.
- **Real-time steps** (The Coding's speed mode, where the first slap wins): modelled as turns,
  each remaining seat in rotation deciding to slap or to wait (``pass``). A slap is applied at
  once. This is the one approximation: reaction speed is replaced by the rotation.

>>> table = SerialTable.new("coda", players=2, seed=3)
>>> table.actor(), sorted(table.game.to_move)
(0, [0, 1])
>>> table.act(0, table.legal(0)[0]); table.actor(), sorted(table.game.to_move)
(1, [0, 1])
>>> table.act(1, table.legal(1)[0]); sorted(table.game.to_move)
[0]
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from ..core.errors import IllegalAction, OptionError
from ..core.game import Action, Game
from ..core.nature import ForcedChance, Nature
from ..core.registry import game_module, new_game


def observation_encoder(name: str, players: int, options: Any):
    """The game's encoder (``encoding.encoder(players, options)``: ``.layout``, ``.encode(view)``)."""
    module = game_module(name, "encoding")
    if module is None:
        raise OptionError(f"{name} has no observation encoder (an 'encoding' module beside its rules)")
    return module.encoder(players, options)


class SerialTable:
    """A game, its declared nature, and the serialisation of its multi-seat steps."""

    def __init__(self, game: Game, nature: Nature | None = None) -> None:
        self.game = game
        self.nature: Nature = nature or type(game).nature(game.players, **game.options.model_dump())
        self.waiting: list[int] = []  # seats still to choose in this simultaneous step
        self.held: list[tuple[int, Action]] = []  # choices made in it, not applied yet
        self.rotation = -1  # the last seat asked in a real-time step
        self._actor: tuple[tuple[Any, ...], int | None] | None = None  # (state key, the seat to ask)
        self._mask: tuple[tuple[Any, ...], int, np.ndarray] | None = None  # (state key, seat, its legal mask)
        self._readers: tuple[Game, Any, dict[int, Any]] | None = None  # (game, encoder, each seat's reader)

    @classmethod
    def new(
        cls, name: str, *, players: int, seed: int | None = None, nature: Nature | None = None, **options: Any
    ) -> SerialTable:
        return cls(new_game(name, players=players, seed=seed, **options), nature)

    @property
    def over(self) -> bool:
        return self.game.over

    def state_key(self) -> tuple[Any, ...]:
        """What the seat to ask and the masks depend on, as the table moves on: the game (the
        object itself, so that another game put in its place never passes for it), how far it
        has gone, the choices held (``waiting`` shrinks only as they grow) and the rotation."""
        game = self.game
        return game, len(game.chance_log), game.record_length, len(self.held), self.rotation

    def actor(self) -> int | None:
        """The seat to ask now; ``None`` once the game is over (kept until the state key changes)."""
        key = self.state_key()
        if self._actor is None or self._actor[0] != key:
            self._actor = (key, self._next_actor())
        return self._actor[1]

    def _next_actor(self) -> int | None:
        if self.game.over:
            return None
        if self.waiting:
            return self.waiting[0]
        to_move = sorted(self.game.to_move)
        kind = self.nature.step_dynamics(self.game)
        if kind == "real_time":
            return next((seat for seat in to_move if seat > self.rotation), to_move[0])
        if kind == "simultaneous":
            self.waiting = to_move
        return to_move[0]

    def legal(self, seat: int) -> list[Action]:
        """The actions ``seat`` may choose now (none unless it is the seat to ask)."""
        return self.game.legal_actions(seat) if seat == self.actor() else []

    def act(self, seat: int, action: Action) -> None:
        """``seat``'s choice: applied now, or held until the simultaneous step's last choice."""
        self.hold(seat, action)
        self.flush()

    def hold(self, seat: int, action: Action, checked: bool = False) -> None:
        """Take ``seat``'s choice into ``held``; :meth:`flush` applies what is ready. ``checked``:
        the caller took ``action`` from the legal ones already (a held choice is not applied yet,
        so it must be legal when taken)."""
        if seat != self.actor():
            raise IllegalAction(f"seat {seat} is not the seat to act (seat {self.actor()} is)")
        if self.waiting:
            if not checked and action not in self.game.legal_actions(seat):
                raise IllegalAction(f"{action!r} is not a legal action for seat {seat} now")
            self.waiting.pop(0)
        else:
            self.rotation = seat
        self.held.append((seat, dict(action)))

    def ready(self) -> bool:
        """Whether held choices wait to be applied (none wait while a simultaneous step is open)."""
        return bool(self.held) and not self.waiting

    def flush(self) -> None:
        """Apply the held choices that are ready, in seat order."""
        while self.ready():
            self.apply_next()

    def apply_next(self) -> None:
        """Apply the first held choice; it leaves ``held`` once applied or refused, so a host whose
        chance outcome is still to come (``ChancePending``) can call this again to go on."""
        seat, action = self.held[0]
        try:
            self.game.apply(seat, action)
        except IllegalAction:
            self.held.pop(0)
            raise
        self.held.pop(0)

    def __deepcopy__(self, memo: dict) -> SerialTable:
        """An independent copy (see :func:`copied_game`)."""
        other = SerialTable.__new__(SerialTable)
        other.game, other.nature, other.rotation = copied_game(self.game), self.nature, self.rotation
        other.waiting, other.held = list(self.waiting), [(seat, dict(action)) for seat, action in self.held]
        other._actor = other._mask = other._readers = None
        return other

    def mask(self, seat: int) -> np.ndarray:
        """``int8`` over the action space: 1 on ``seat``'s legal slots. Read off the state by the
        nature's ``legal_mask`` when the game declares one, else from the game's legal actions."""
        return self._legal_mask(seat).copy()

    def _legal_mask(self, seat: int) -> np.ndarray:
        """:meth:`mask`, kept until the state key changes (callers must not write to it)."""
        key = self.state_key()
        if self._mask is None or self._mask[1] != seat or self._mask[0] != key:
            self._mask = (key, seat, self._fresh_mask(seat))
        return self._mask[2]

    def _fresh_mask(self, seat: int) -> np.ndarray:
        space = self.nature.actions
        if seat != self.actor():
            return np.zeros(space.size, dtype=np.int8)
        if self.nature.legal_mask is not None:
            return self.nature.legal_mask(self.game, seat)
        return space.mask(self.legal(seat))

    def observation(self, seat: int, encoder: Any) -> dict[str, np.ndarray]:
        """``seat``'s observation: ``encoder`` applied to exactly its view, and its legal mask. An
        encoder with a ``reader()`` (Coda's: the history's missed guesses) gets the seat's own
        reader of this game with each view, which reads the history on from the seat's last
        observation; no seat's reader ever sees another seat's view."""
        view = self.game.view(seat, legal_actions=False)
        if not hasattr(encoder, "reader"):
            return {"observation": encoder.encode(view), "action_mask": self.mask(seat)}
        if self._readers is None or self._readers[0] is not self.game or self._readers[1] is not encoder:
            self._readers = (self.game, encoder, {})
        readers = self._readers[2]
        reader = readers.get(seat) or readers.setdefault(seat, encoder.reader())
        return {"observation": encoder.encode(view, reader), "action_mask": self.mask(seat)}

    def legal_indices(self, seat: int) -> list[int]:
        """``seat``'s legal slots, in increasing order."""
        return np.flatnonzero(self._legal_mask(seat)).tolist()

    def action_at(self, seat: int, index: int) -> Action:
        """The legal action of ``seat`` in slot ``index``; :class:`IllegalAction` when that slot is
        not legal now."""
        space, index = self.nature.actions, int(index)
        if not (0 <= index < space.size and self._legal_mask(seat)[index]):
            label = space.label(index) if 0 <= index < space.size else "outside the action space"
            raise IllegalAction(f"action {index} ({label}) is not legal now")
        if space.exact:
            return dict(space.templates[index])
        return space.action(index, self.legal(seat))

    def act_index(self, seat: int, index: int) -> None:
        self.hold(seat, self.action_at(seat, index), checked=True)
        self.flush()

    def utilities(self) -> list[float]:
        result = self.game.result
        assert result is not None, "utilities are read at the end"
        return self.nature.utilities(result, self.game.players)

    def step_limit(self, rounds: int = 8) -> int:
        """Actions after which a wrapper truncates: the declared bound, or ``rounds`` rounds' worth
        when the rules bound only each round."""
        return self.nature.max_length * (1 if self.nature.rounds_bounded else rounds)


def copied_game(game: Game) -> Game:
    """An independent copy of ``game``, its forced chance outcomes copied too: by the game's own
    ``clone()`` when it has one (Coda's is fast), else a deep copy."""
    clone = getattr(game, "clone", None)
    if clone is None:
        return copy.deepcopy(game)
    source = game.chance_source
    other = clone()
    other.use_chance(ForcedChance(list(source.outcomes)) if isinstance(source, ForcedChance) else source)
    return other
