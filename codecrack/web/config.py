"""Settings of one web server: where records live and how long the host's clocks run."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA_DIR = Path("data")


def default_db_url(data_dir: Path = DEFAULT_DATA_DIR) -> str:
    """SQLite in the data folder, created on demand.

    >>> default_db_url(Path("data"))
    'sqlite:///data/codecrack.db'
    """
    return f"sqlite:///{data_dir.as_posix()}/codecrack.db"


def db_url_from(given: str | None = None, environ: dict[str, str] | None = None) -> str:
    """The database to use: ``--db``, else ``$CODECRACK_DB``, else SQLite in ``$CODECRACK_DATA`` or ./data.

    >>> db_url_from(None, {"CODECRACK_DATA": "/srv/cc"})
    'sqlite:////srv/cc/codecrack.db'
    >>> db_url_from("postgresql+psycopg://cc@localhost/cc", {})
    'postgresql+psycopg://cc@localhost/cc'
    """
    environ = os.environ if environ is None else environ
    if given:
        return given
    if environ.get("CODECRACK_DB"):
        return environ["CODECRACK_DB"]
    return default_db_url(Path(environ.get("CODECRACK_DATA", DEFAULT_DATA_DIR)))


@dataclass(frozen=True)
class WebConfig:
    """Everything the server needs. Times are in seconds and can be shortened for tests."""

    db_url: str = default_db_url()
    ai_pace: float = 0.6            # pause before a bot's turn-based move, so humans can follow it
    disconnect_timeout: float = 60.0  # a human seat left empty this long is played by the takeover AI
    turn_think: float = 60.0        # Coda's turn clock: thinking time ...
    turn_countdown: float = 20.0    # ... then this countdown, then a timeout action
    answer_window: float | None = None  # The Coding's answer window; None uses the table's option
    send_queue_limit: int = 32      # messages queued for one connection; more and it is closed as too slow
    send_timeout: float = 10.0      # a send that takes longer closes the connection as too slow
    table_info_interval: float = 0.25  # at most one table-info broadcast per table this often
    max_live_tables: int = 256      # tables kept loaded beyond those with a connection (least recently used go)
    unjoined_table_ttl: float = 3600.0  # a table nobody connects to is unloaded after this; deleted if nobody sat or played
    restore_window: float = 3600.0  # at start-up, restore the unfinished tables with an action this recent
