"""Settings of one web server: where records live and how long the host's clocks run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA_DIR = Path("data")


def default_db_url(data_dir: Path = DEFAULT_DATA_DIR) -> str:
    """SQLite in the data folder, created on demand.

    >>> default_db_url(Path("data"))
    'sqlite:///data/codecrack.db'
    """
    return f"sqlite:///{data_dir.as_posix()}/codecrack.db"


@dataclass(frozen=True)
class WebConfig:
    """Everything the server needs. Times are in seconds and can be shortened for tests."""

    db_url: str = default_db_url()
    ai_pace: float = 0.6            # pause before a bot's turn-based move, so humans can follow it
    disconnect_timeout: float = 60.0  # a human seat left empty this long is played by the takeover AI
    turn_think: float = 60.0        # Coda's turn clock: thinking time ...
    turn_countdown: float = 20.0    # ... then this countdown, then a timeout action
    answer_window: float | None = None  # The Coding's answer window; None uses the table's option
