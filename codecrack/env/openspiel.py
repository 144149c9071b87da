"""OpenSpiel: every codecrack game registered with ``pyspiel`` as a Python game.

>>> import pyspiel
>>> from codecrack.env import openspiel
>>> game = pyspiel.load_game("codecrack_coda", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())     # who starts: seat 0 or 1
(True, 2)

Each registered game ``codecrack_<name>`` takes ``players`` and the game's options with plain
values as parameters. The engine's multi-seat steps are serialised as :mod:`codecrack.env.table`
explains. Chance nodes are the engine's explicit chance events (``docs/engine.md``): when the
engine needs an outcome, the state becomes a chance node with the event's equally likely
outcomes, and continues once OpenSpiel picks one.

- ``information_state_string``: the canonical JSON of the player's view (public history
  included) and of its own choice held in an unfinished simultaneous step: perfect recall,
  except in Coda's memory variant, whose rules make a seat forget.
- ``observation_string``: the same without the history.
- ``information_state_tensor`` and ``observation_tensor``: the game's encoder applied to the view.
- A game still running after ``max_game_length`` actions (a duel of Alphabet Code drawn again
  and again) ends there, every seat getting an equal share.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from ..core.errors import OptionError
from ..core.game import Game
from ..core.nature import ChancePending, ForcedChance, Nature
from ..core.registry import GAMES, game_class, game_module, new_game, replay
from .table import SerialTable, copied_game, observation_encoder

PLAIN = (bool, int, float, str)


def short_name(name: str) -> str:
    return f"codecrack_{name}"


def parameter_defaults(name: str) -> dict[str, Any]:
    """``players`` and every option whose default is a plain value (OpenSpiel's parameter types)."""
    cls = game_class(name)
    options = {
        key: field.default for key, field in cls.Options.model_fields.items() if isinstance(field.default, PLAIN)
    }
    return {"players": cls.min_players, **options}


@dataclass(frozen=True)
class Config:
    """One configuration: what states and observers need (pyspiel keeps no Python attributes
    on a game object, so they are looked up by the game's parameters)."""

    codecrack_name: str
    players: int
    options: dict[str, Any]
    nature: Nature
    limit: int
    encoder: Any

    def __deepcopy__(self, memo: dict) -> Config:
        return self  # immutable: OpenSpiel's state copies share it


@cache
def _config(name: str, parameters: str) -> Config:
    options = {**parameter_defaults(name), **json.loads(parameters)}
    players = int(options.pop("players"))
    nature = game_class(name).nature(players, **options)
    if not nature.explicit_chance:
        raise OptionError(f"{name} with {options} draws some chance in a way OpenSpiel cannot list")
    limit = SerialTable.new(name, players=players, seed=0, nature=nature, **options).step_limit()
    encoder = observation_encoder(name, players, game_class(name).Options(**options))
    return Config(name, players, options, nature, limit, encoder)


def config(game: pyspiel.Game) -> Config:
    return _config(game.codecrack_name, json.dumps(game.get_parameters(), sort_keys=True))


class CodecrackGame(pyspiel.Game):
    """One configuration of a codecrack game, as OpenSpiel sees it."""

    codecrack_name = ""  # set on the subclass registered for each game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.codecrack_name
        given = {**parameter_defaults(name), **(params or {})}
        spec = _config(name, json.dumps(given, sort_keys=True))
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.nature.actions.size,
            max_chance_outcomes=spec.nature.max_chance_outcomes,
            num_players=spec.players,
            min_utility=0.0,
            max_utility=float(spec.nature.max_utility),
            utility_sum=None,
            max_game_length=spec.limit,
        )
        super().__init__(_game_types[name], info, given)

    def new_initial_state(self) -> CodecrackState:
        return CodecrackState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> CodecrackObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return CodecrackObserver(config(self).encoder, perfect_recall)


class CodecrackState(pyspiel.State):
    """An engine game behind OpenSpiel's state interface, with explicit chance nodes.

    OpenSpiel copies a state attribute by attribute; the engine game lives in ``table`` (copied
    by :meth:`SerialTable.__deepcopy__`) and draws its chance from a
    :class:`~codecrack.core.nature.ForcedChance` whose outcomes OpenSpiel's chance nodes choose.
    """

    def __init__(self, game: CodecrackGame) -> None:
        super().__init__(game)
        self.spec = config(game)
        self.dealing: list[int] = []  # chance outcomes while the engine game is being set up
        self.pending: tuple[str, int] | None = None
        self.table: SerialTable | None = None
        self.steps = 0
        self._deal()

    # -- the engine, with chance from OpenSpiel ---------------------------------------------
    def _deal(self) -> None:
        """Build the engine game; it stops at its first chance event that has no outcome yet."""
        try:
            game = new_game(
                self.spec.codecrack_name,
                players=self.spec.players,
                seed=0,
                chance=ForcedChance(self.dealing),
                **self.spec.options,
            )
        except ChancePending as event:
            self.pending = (event.kind, event.outcomes)
            return
        self.pending = None
        self.table = SerialTable(game, self.spec.nature)

    @property
    def playing(self) -> SerialTable:
        """The engine game's table, once dealt (until then the state is a chance node of the deal)."""
        if self.table is None:
            raise RuntimeError("the game is still being dealt")
        return self.table

    def _go_on(self) -> None:
        """Apply the held choices one by one; a chance event without an outcome restores the game
        before the choice that needs it and makes this state a chance node."""
        self.pending = None
        while self.playing.ready():
            before = copied_game(self.playing.game) if hasattr(self.playing.game, "clone") else None
            try:
                self.playing.apply_next()
            except ChancePending as event:
                self.playing.game = before or copied_game_as_recorded(self.playing.game)
                self.pending = (event.kind, event.outcomes)
                return

    def view(self, player: int) -> dict[str, Any]:
        return self.playing.game.view(player)

    def held_choice(self, player: int) -> list[Any]:
        return [action for seat, action in self.playing.held if seat == player]

    # -- OpenSpiel's state interface -----------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.pending is not None:
            return pyspiel.PlayerId.CHANCE
        actor = self.playing.actor()
        return pyspiel.PlayerId.TERMINAL if actor is None else actor

    def _legal_actions(self, player: int) -> list[int]:
        return self.playing.legal_indices(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pending is None:
            raise ValueError("not a chance node")
        outcomes = self.pending[1]
        return [(outcome, 1.0 / outcomes) for outcome in range(outcomes)]

    def _apply_action(self, action: int) -> None:
        if self.pending is not None:
            if self.table is None:
                self.dealing.append(int(action))
                self._deal()
            else:
                forced_outcomes(self.playing.game).append(int(action))
                self._go_on()
            return
        seat = self.playing.actor()
        if seat is None:
            raise ValueError("the game is over: no seat acts")
        self.playing.hold(seat, self.playing.action_at(seat, action), checked=True)
        self.steps += 1
        self._go_on()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{self.pending[0] if self.pending else 'chance'}: outcome {action}"
        return self.spec.nature.actions.label(action)

    def is_terminal(self) -> bool:
        return self.table is not None and (self.table.over or self.steps >= self.spec.limit)

    def returns(self) -> list[float]:
        if self.table is None or not self.is_terminal():
            return [0.0] * self.spec.players
        if self.table.over:
            return self.table.utilities()
        share = 1.0 / self.spec.players if self.spec.nature.utility == "win_share" else 0.0
        return [share] * self.spec.players

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> CodecrackState:
        """A state ``player`` cannot tell from this one, for IS-MCTS: the game's ``worlds`` module
        redraws what the player cannot see, and the other seats' choices held in an unfinished
        simultaneous step are redrawn among their legal actions."""
        worlds = game_module(self.spec.codecrack_name, "worlds")
        if worlds is None or self.table is None:
            raise NotImplementedError(f"{self.spec.codecrack_name} cannot sample worlds")
        rng = random.Random(int(probability_sampler() * 2**31))
        world = self.clone()
        world.playing.game = worlds.resample(self.table.game, player, rng)
        world.playing.game.use_chance(ForcedChance(list(forced_outcomes(self.table.game))))
        world.playing.held = [
            (seat, action if seat == player else rng.choice(self.table.game.legal_actions(seat)))
            for seat, action in self.table.held
        ]
        return world

    def __str__(self) -> str:
        if self.table is None:
            return json.dumps({"chance": self.dealing})
        game = self.table.game
        return json.dumps(
            {"chance": forced_outcomes(game), "actions": game.record()["actions"], "held": self.table.held},
            sort_keys=True,
        )


def copied_game_as_recorded(game: Game) -> Game:
    """``game`` rebuilt from its record and chance outcomes: an action that a missing chance
    outcome interrupted leaves no trace in the record, so this undoes it."""
    rebuilt = replay(game.record(), chance=ForcedChance(list(forced_outcomes(game))))
    rebuilt.use_chance(game.chance_source)
    return rebuilt


class CodecrackObserver:
    """OpenSpiel's observer interface over the game's encoder and the view."""

    def __init__(self, encoder: Any, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoder.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CodecrackState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(state.view(player)) if state.table is not None else 0.0

    def string_from(self, state: CodecrackState, player: int) -> str:
        if state.table is None:
            return json.dumps({"seat": player, "dealing": True})
        view = state.view(player)
        if self.perfect_recall:
            view["held"] = state.held_choice(player)
        else:
            view.pop("history", None)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


_game_types: dict[str, pyspiel.GameType] = {}


def register(name: str) -> str:
    """Register codecrack game ``name`` with pyspiel (once); returns its short name."""
    if name in _game_types:
        return short_name(name)
    cls = game_class(name)
    _game_types[name] = pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"codecrack {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_defaults(name),
    )
    game_type = type(f"Codecrack{name.title()}Game", (CodecrackGame,), {"codecrack_name": name})
    pyspiel.register_game(_game_types[name], game_type)
    return short_name(name)


def register_all() -> list[str]:
    """Register every installed game that declares a nature and ships an encoder."""
    return [register(name) for name in GAMES if game_module(name, "encoding") is not None]


register_all()


def forced_outcomes(game: Game) -> list[int]:
    """The chance outcomes chosen for ``game`` so far: an OpenSpiel state's game draws its chance
    from a :class:`ForcedChance` whose outcomes OpenSpiel's chance nodes choose."""
    source = game.chance_source
    if not isinstance(source, ForcedChance):
        raise TypeError("an OpenSpiel state's game draws its chance from a ForcedChance")
    return source.outcomes
