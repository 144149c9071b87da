"""The arena: many seeded games between named agents, seats rotated, on local processes or Ray.

An agent named ``cmd:<command>`` is an external program speaking the bot protocol
(:mod:`codecrack.protocol`). A bot that crashes, times out, breaks the protocol or answers an
illegal action loses that game (the other seats share the win) and the series goes on.
"""

from __future__ import annotations

import math
import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .agents import Agent, make_agent
from .core.errors import IllegalAction, OptionError
from .core.forfeit import forfeit_result
from .core.game import Game
from .core.registry import new_game
from .core.runner import GameRun, next_actor, play_out
from .protocol import BotFault, Limits, ProcessAgent, is_command
from .protocol.agent import command_argv

BACKENDS = ("local", "ray")
FAULTS_LISTED = 20
STDERR_REPORTED = 400
RAY_OBJECT_STORE_BYTES = 128 * 1024 * 1024
RAY_LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"  # "0" (read when ray is imported): bind to 127.0.0.1
ChunkRunner = Callable[[list[list[int]]], list[list[dict[str, Any]]]]


@dataclass(frozen=True)
class ArenaConfig:
    game: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    workers: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    move_time: float = 5.0


def seat_names(agents: tuple[str, ...], players: int, game_index: int) -> list[str]:
    """Fill the seats from ``agents`` (the last name repeats), rotated by ``game_index``.

    >>> seat_names(("hard", "medium"), 3, 1)
    ['medium', 'hard', 'medium']
    """
    names = list(agents[:players]) + [agents[-1]] * (players - len(agents))
    shift = game_index % players
    return names[-shift:] + names[:-shift] if shift else names


def game_seed(series_seed: int, game_index: int) -> int:
    """The seed of game ``game_index`` of the series ``series_seed`` (its agents get ``seed * 31 + seat``)."""
    return series_seed * 1_000_003 + game_index


def placements(result: dict[str, Any], players: int) -> list[int]:
    """Each seat's place (1 is best, ties share): by score when the game scores, else winners
    first and everyone else second.

    >>> placements({"winners": [2], "scores": None}, 3)
    [2, 2, 1]
    >>> placements({"winners": [0], "scores": [4, 1, 2]}, 3)
    [1, 3, 2]
    """
    scores = result.get("scores")
    if scores is None:
        return [1 if seat in result["winners"] else 2 for seat in range(players)]
    return [1 + sum(other > score for other in scores) for score in scores]


def play_one(config: ArenaConfig, game_index: int) -> dict[str, Any]:
    """Play game ``game_index`` of the series and summarise it by agent name."""
    cpu_started = time.process_time()
    seed = game_seed(config.seed, game_index)
    names = seat_names(config.agents, config.players, game_index)
    game = new_game(config.game, players=config.players, seed=seed, **config.options)
    run = GameRun(game, {seat: [] for seat in range(config.players)})
    agents: dict[int, Agent] = {}
    fault: BotFault | None = None
    try:
        for seat, name in enumerate(names):
            agents[seat] = _make_agent(config, name, game, seat, seed)
        play_out(run, agents)
    except BotFault as error:
        fault = error
    except IllegalAction as error:
        fault = _illegal(error, game, agents)
    finally:
        result = game.result if fault is None else forfeit_result(config.players, [seat_of(fault)], fault.kind)
        _close(agents, result)
    if result is None:  # play_out ends with the game over, or with a fault
        raise RuntimeError("the game stopped before its end with no fault")
    summary = _summary_of_game(game_index, names, result, run, fault)
    summary["cpu_ms"] = round((time.process_time() - cpu_started) * 1000, 3)  # this process only
    return summary


def _make_agent(config: ArenaConfig, name: str, game: Game, seat: int, seed: int) -> Agent:
    if is_command(name):
        return ProcessAgent(name, game, seat, Limits(move_s=config.move_time))
    return make_agent(name, config.game, seed=seed * 31 + seat)


def _illegal(error: IllegalAction, game: Game, agents: dict[int, Agent]) -> BotFault:
    """Blame the rejected action on its seat: a rejected action leaves the game unchanged, so the
    seat to act is still the one that answered. Only external bots forfeit; codecrack's own
    agents answering illegally is a bug and raises."""
    seat = next_actor(game, agents)
    agent = agents[seat]
    if not isinstance(agent, ProcessAgent):
        raise error
    return BotFault("illegal", str(error), agent.bot.stderr_tail, seat)


def seat_of(fault: BotFault) -> int:
    """The seat a fault is blamed on: a ProcessAgent names it on every fault it raises."""
    if fault.seat is None:
        raise RuntimeError(f"a bot's fault names no seat: {fault}")
    return fault.seat


def _close(agents: dict[int, Agent], result: dict[str, Any] | None) -> None:
    for agent in agents.values():
        if isinstance(agent, ProcessAgent):
            agent.close(result)


def _summary_of_game(
    index: int, names: list[str], result: dict[str, Any], run: GameRun, fault: BotFault | None
) -> dict[str, Any]:
    wins: dict[str, float] = defaultdict(float)
    for seat in result["winners"]:
        wins[names[seat]] += 1 / len(result["winners"])
    return {
        "index": index,
        "names": names,
        "wins": dict(wins),
        "scores": result.get("scores"),
        "places": placements(result, len(names)),
        "decision_ms": dict(run.decision_ms),
        "fault": None
        if fault is None
        else {
            "game": index,
            "agent": names[seat_of(fault)],
            "seat": seat_of(fault),
            "kind": fault.kind,
            "detail": fault.detail,
            "stderr": fault.stderr[-STDERR_REPORTED:],
        },
    }


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a rate.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return (max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator))


# -- running a series ----------------------------------------------------------------------
@dataclass
class Series:
    """The games of one arena run, in game order whatever the backend, and its wall time."""

    config: ArenaConfig
    games: list[dict[str, Any]]
    elapsed: float

    def summary(self) -> dict[str, Any]:
        return summarise(self.config, self.games, self.elapsed)


def _play_chunk(args: tuple[ArenaConfig, list[int]]) -> list[dict[str, Any]]:
    config, indices = args
    return [play_one(config, i) for i in indices]


def play_series(config: ArenaConfig, backend: str = "local", address: str | None = None) -> Series:
    """Play the series on ``backend``: ``local`` (``workers`` processes) or ``ray`` (a local Ray
    with ``workers`` CPUs, or the cluster at ``address``). The same seeds give the same games."""
    check_config(config, backend)
    with _on_ray(config, address) if backend == "ray" else _on_processes(config) as run_chunks:
        started = time.perf_counter()
        games = [game for chunk in run_chunks(_chunks(config, backend)) for game in chunk]
        elapsed = time.perf_counter() - started
    return Series(config, sorted(games, key=lambda game: game["index"]), elapsed)


def run_arena(config: ArenaConfig, backend: str = "local", address: str | None = None) -> dict[str, Any]:
    """Play the series and report wins, 95% intervals, decision times and throughput."""
    return play_series(config, backend, address).summary()


def check_config(config: ArenaConfig, backend: str = "local") -> None:
    """Refuse a bad series before any game starts, naming the problem."""
    if backend not in BACKENDS:
        raise OptionError(f"unknown backend {backend!r}; valid backends: {', '.join(BACKENDS)}")
    if config.games < 0 or config.workers < 1 or not config.agents:
        raise OptionError("an arena needs agents, games >= 0 and workers >= 1")
    if not config.move_time > 0:
        raise OptionError("the time limit per move must be positive")
    new_game(config.game, players=config.players, seed=config.seed, **config.options)
    for name in config.agents:
        if is_command(name):
            command_argv(name)
        else:
            make_agent(name, config.game)


def _chunks(config: ArenaConfig, backend: str) -> list[list[int]]:
    """Game indices dealt round-robin into chunks: one per process, several per Ray worker so
    that a slow chunk does not hold the others back."""
    count = config.workers if backend == "local" else config.workers * 4
    count = max(1, min(count, config.games))
    return [list(range(config.games))[k::count] for k in range(count)]


@contextmanager
def _on_processes(config: ArenaConfig) -> Iterator[ChunkRunner]:
    if config.workers == 1:
        yield lambda chunks: [_play_chunk((config, chunk)) for chunk in chunks]
        return
    with ProcessPoolExecutor(config.workers) as pool:
        yield lambda chunks: list(pool.map(_play_chunk, [(config, chunk) for chunk in chunks]))


@contextmanager
def _on_ray(config: ArenaConfig, address: str | None) -> Iterator[ChunkRunner]:
    """Each chunk is a Ray task of one CPU. Without an address, a private Ray starts here on
    loopback (never joining another local cluster) and stops after."""
    if address is None:
        os.environ.setdefault(RAY_LOOPBACK_ONLY, "0")
    try:
        import ray
    except ModuleNotFoundError:
        raise OptionError("the ray backend needs Ray: pip install 'codecrack[ray]'") from None
    owned = not ray.is_initialized()
    if owned and address:
        ray.init(address=address, log_to_driver=False)
    elif owned:
        ray.init(
            address="local",
            _node_ip_address="127.0.0.1",
            num_cpus=config.workers,
            include_dashboard=False,
            log_to_driver=False,
            object_store_memory=RAY_OBJECT_STORE_BYTES,
        )
    task = ray.remote(num_cpus=1)(_play_chunk)
    try:
        yield lambda chunks: ray.get([task.remote((config, chunk)) for chunk in chunks])
    finally:
        if owned:
            ray.shutdown()


# -- the summary ---------------------------------------------------------------------------
def summarise(config: ArenaConfig, games: list[dict[str, Any]], elapsed: float) -> dict[str, Any]:
    wins: dict[str, float] = defaultdict(float)
    times: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    faults = [game["fault"] for game in games if game["fault"] is not None]
    for game in games:
        for name, share in game["wins"].items():
            wins[name] += share
        for seat, name in enumerate(game["names"]):
            times[name].extend(game["decision_ms"][seat])
            if game["scores"] is not None:
                scores[name].append(game["scores"][seat])
    seats = seat_names(config.agents, config.players, 0)
    rows = []
    for name in dict.fromkeys(seats):
        low, high = wilson(wins[name], len(games))
        row = {
            "name": name,
            "seats": seats.count(name),
            "fair_share": seats.count(name) / config.players,
            "wins": round(wins[name], 3),
            "win_rate": round(wins[name] / len(games), 4) if games else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
            "decision_ms": _percentiles(times[name]),
            "faults": sum(fault["agent"] == name for fault in faults),
        }
        if scores[name]:
            row["mean_score"] = round(float(np.mean(scores[name])), 4)
        rows.append(row)
    return {
        "game": config.game,
        "players": config.players,
        "options": config.options,
        "games": len(games),
        "agents": rows,
        "faults": faults[:FAULTS_LISTED],
        "fault_count": len(faults),
        "games_per_s": round(len(games) / elapsed, 3) if elapsed > 0 else None,
        "elapsed_s": round(elapsed, 3),
        "cpu_s": round(sum(game["cpu_ms"] for game in games) / 1000, 3),
    }


def _percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None}
    p50, p95 = np.percentile(values, [50, 95])
    return {"p50": round(float(p50), 3), "p95": round(float(p95), 3)}
