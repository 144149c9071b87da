"""Bots at the table: each awaited AI seat (``game.awaited``) gets a driver task whose moves are made
in a worker process within the budget, sent from a thread (:mod:`.work`: heavy tables' from one of
their own; a tutorial's scripted opponent moves in the thread); a move cut off there is replaced by
the seed's legal move.

In a turn-based or simultaneous moment a bot waits ``ai_pace`` so humans can follow; in a
real-time moment (a race, such as The Coding's slapping) it waits its agent's ``reaction_delay``
instead, so humans can win it. A decision made on a state that has since changed is dropped and
made again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from functools import cache
from time import monotonic
from typing import TYPE_CHECKING, Any

from ..agents import Agent, make_agent
from ..core.errors import OptionError
from ..core.game import Game
from ..core.nature import Nature
from ..tutorials import TUTORIAL_AGENT, scripted_agent
from . import metrics
from .refusals import NO_ACTION, STORE_RETRY, Refusal, Refused
from .sandbox import OverBudget
from .work import Work

if TYPE_CHECKING:
    from .config import WebConfig
    from .table import LiveTable

log = logging.getLogger("codecrack.web")


def real_time(game: Game) -> bool:
    """Whether the seats to move now race each other, as the game's nature declares (a game that
    declares none has no races)."""
    if len(game.to_move) <= 1:
        return False
    nature = _nature(type(game), game.players, game.options.model_dump_json())
    return nature is not None and nature.step_dynamics(game) == "real_time"


@cache
def _nature(cls: type[Game], players: int, options: str) -> Nature | None:
    """The declared nature of one configuration, made once."""
    try:
        return cls.nature(players, **json.loads(options))
    except OptionError:
        return None


def moves_of(table: LiveTable, seat: int) -> int:
    """How many actions ``seat`` has made at the table (a tutorial opponent's place in its script)."""
    return sum(1 for actor, _ in table.game.record()["actions"] if actor == seat)


class Bots:
    """The agents of every table and the threads they think in."""

    def __init__(self, config: WebConfig, workers: int = 2) -> None:
        self.config = config
        self.work = Work(config, workers)
        self.agents: dict[tuple[str, int, str], Agent] = {}

    def agent(self, table: LiveTable, seat: int, tier: str) -> Agent:
        key = (table.code, seat, tier)
        if key not in self.agents:
            seed = table.row.seed * 31 + seat
            self.agents[key] = (
                scripted_agent(table.row.game, seat, lambda: moves_of(table, seat), seed)
                if tier == TUTORIAL_AGENT
                else make_agent(tier, table.row.game, seed=seed)
            )
        return self.agents[key]

    def delay(self, table: LiveTable, agent: Agent) -> float:
        return agent.reaction_delay if real_time(table.game) else self.config.ai_pace

    async def drive(self, table: LiveTable, seat: int) -> None:
        """Play ``seat`` for as long as it is a bot's turn there."""
        while not table.over and seat in table.game.awaited and (tier := table.bot_tier(seat)):
            agent = self.agent(table, seat, tier)
            step, started = table.step, monotonic()
            view = table.game.view(seat)
            try:
                action, moved = await self.work.decide(table, agent, view, apart=tier != TUTORIAL_AGENT)
            except OverBudget as over:
                log.warning(
                    "%s agent cut off on %s seat %d: past its %s budget", agent.name, table.code, seat, over.kind
                )
                action = None
            except Exception:
                log.exception("%s agent failed on %s seat %d", agent.name, table.code, seat)
                action = None
            else:
                if self.agents.get((table.code, seat, tier)) is agent:
                    self.agents[table.code, seat, tier] = moved  # from a worker: the copy that moved on
            thought = monotonic() - started
            metrics.bot_decided(thought)
            # Think first, then wait out the rest of the pace: how long a decision took (a dash
            # to place against a number with one place, say) must not show in when it arrives.
            await asyncio.sleep(max(0.0, self.delay(table, agent) - thought))
            if step != table.step:
                continue  # the game moved on while the bot thought
            refused = await self.play(table, seat, action, view, step)
            if refused is None or refused.kind is Refusal.STALE:
                continue
            log.warning("bot move refused on %s seat %d: %s", table.code, seat, refused)
            if refused.kind is Refusal.NOT_STORED:  # the database did not answer: try again soon, not at once
                await asyncio.sleep(STORE_RETRY)

    async def play(self, table: LiveTable, seat: int, action: Any, view: dict[str, Any], step: int) -> Refused | None:
        """Submit the bot's action; if the engine refuses it, a legal one drawn from the seed."""
        refused = await table.submit(seat, action, expect_step=step) if action is not None else NO_ACTION
        if refused is None or refused.kind is Refusal.STALE or not view["legal_actions"]:
            return refused
        fallback = random.Random(table.row.seed + step).choice(view["legal_actions"])
        return await table.submit(seat, fallback, expect_step=step) or refused

    def forget(self, code: str) -> None:
        for key in [key for key in self.agents if key[0] == code]:
            del self.agents[key]

    def close(self) -> None:
        self.work.close()
