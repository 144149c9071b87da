"""The settings of one load run, checked before anything starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .players import TablePlan
from .target import SPAWNED_LIMITS, require_loopback

MAX_SECONDS = 3600.0  # one step never runs longer than this
MAX_TABLES = 5000
MAX_CLIENT_PROCESSES = 64


@dataclass
class LoadSettings:
    url: str = "http://127.0.0.1:8000"
    tables: list[int] = field(default_factory=lambda: [4])
    seconds: float = 20.0  # per step
    games: int = 0  # per table slot; 0: back to back until the step's time is up
    pace: str = "flat"  # "flat" or "human"
    human_pause: tuple[float, float] = (2.0, 5.0)
    seed: int = 0
    plan: TablePlan = field(default_factory=TablePlan)
    spawn: bool = False
    db: str | None = None  # for a spawned server
    server_pid: int | None = None
    allow_remote: bool = False
    # the server's per-address limits, respected by the harness (a spawned server gets higher ones)
    tables_per_minute: int = 20
    connections_per_address: int = 32
    messages_per_second: float = 20.0
    anchor: Path | None = None  # the boardgame.io harness folder: measure it too, with the same steps
    open_first: bool = False  # create and seat every slot's first table before the step's clock starts
    warmup: float = 0.0  # seconds played at the start of each step before anything is counted
    client_processes: int = 1  # the step's table slots are shared among this many client processes
    accounts: bool = False  # each human seat an account's, signed in through the API: rated tables

    def pause(self) -> tuple[float, float]:
        """The range of a simulated player's pause before each action, in seconds."""
        return self.human_pause if self.pace == "human" else (0.0, 0.0)

    def client_limits(self) -> tuple[int, float]:
        """Tables per minute and messages per second per socket the harness keeps to."""
        if self.spawn:
            return int(SPAWNED_LIMITS["CODECRACK_TABLES_PER_MINUTE"]), float(
                SPAWNED_LIMITS["CODECRACK_MESSAGES_PER_SECOND"]
            )
        return self.tables_per_minute, self.messages_per_second

    def check(self) -> None:
        if not self.allow_remote:
            require_loopback(self.url)
        if not 0 < self.seconds <= MAX_SECONDS:
            raise ValueError(f"seconds must be in (0, {MAX_SECONDS:.0f}]")
        if not self.tables or not all(0 < n <= MAX_TABLES for n in self.tables):
            raise ValueError(f"every number of tables must be in [1, {MAX_TABLES}]")
        if not 0 <= self.warmup <= MAX_SECONDS:
            raise ValueError(f"warmup must be in [0, {MAX_SECONDS:.0f}]")
        if not 1 <= self.client_processes <= MAX_CLIENT_PROCESSES:
            raise ValueError(f"client processes must be in [1, {MAX_CLIENT_PROCESSES}]")
        if self.pace not in ("flat", "human"):
            raise ValueError("pace must be flat or human")
        if not self.spawn and max(self.tables) * self.plan.humans > self.connections_per_address:
            raise ValueError(
                f"{max(self.tables) * self.plan.humans} websockets exceed the server's "
                f"{self.connections_per_address} per address (--connections-per-address, "
                "after raising CODECRACK_CONNECTIONS_PER_ADDRESS on the server)"
            )
