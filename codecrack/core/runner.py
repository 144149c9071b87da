"""Drive one game with one agent per seat: the loop shared by the arena and terminal play."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .agent import Agent
from .errors import IllegalAction
from .game import Event, Game

StepHook = Callable[[int, dict[str, Any], list[Event]], None]
RefusedHook = Callable[[int, IllegalAction], bool]  # True: the seat is asked again


@dataclass
class GameRun:
    """What one run produced: the finished game and each seat's decision times in ms."""

    game: Game
    decision_ms: dict[int, list[float]] = field(default_factory=dict)


def next_actor(game: Game, agents: Mapping[int, Agent]) -> int:
    """Among the awaited seats, the one whose agent reacts first (ties: lowest seat)."""
    return min(game.awaited, key=lambda seat: (agents[seat].reaction_delay, seat))


def run_game(
    game: Game,
    agents: Mapping[int, Agent],
    on_step: StepHook | None = None,
    max_steps: int = 100_000,
    on_refused: RefusedHook | None = None,
) -> GameRun:
    """Play ``game`` to the end. Each agent sees only its own seat's view."""
    run = GameRun(game, {seat: [] for seat in range(game.players)})
    play_out(run, agents, on_step, max_steps, on_refused)
    return run


def play_out(
    run: GameRun,
    agents: Mapping[int, Agent],
    on_step: StepHook | None = None,
    max_steps: int = 100_000,
    on_refused: RefusedHook | None = None,
) -> None:
    """Play ``run.game`` to the end, adding each decision's time to ``run`` as it happens, so
    that a caller who catches an agent's failure keeps the times measured before it.
    ``on_refused`` may take an action the game refused (it is then unchanged): when it returns
    True the seat is asked again, otherwise the refusal is raised."""
    game = run.game
    for _ in range(max_steps):
        if game.over:
            return
        seat = next_actor(game, agents)
        view = game.view(seat)
        started = time.perf_counter()
        action = agents[seat].act(view)
        run.decision_ms[seat].append((time.perf_counter() - started) * 1000)
        try:
            events = game.apply(seat, action)
        except IllegalAction as error:
            if on_refused is not None and on_refused(seat, error):
                continue
            raise
        if on_step is not None:
            on_step(seat, action, events)
    raise RuntimeError(f"{game.name} did not end within {max_steps} actions")
