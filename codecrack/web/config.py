"""Settings of one web server: where records live, how long the host's clocks run, and the limits
a public server needs.

Every setting can be given as an environment variable ``CODECRACK_<NAME>`` (for example
``CODECRACK_MAX_WS_MESSAGE_BYTES=8192``), or as a keyword in tests.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATA_DIR = Path("data")


def default_db_url(data_dir: Path = DEFAULT_DATA_DIR) -> str:
    """SQLite in the data folder, created on demand.

    >>> default_db_url(Path("data"))
    'sqlite:///data/codecrack.db'
    """
    return f"sqlite:///{data_dir.as_posix()}/codecrack.db"


def db_url_from(given: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The database to use: ``--db``, else ``$CODECRACK_DB``, else SQLite in ``$CODECRACK_DATA`` or ./data.

    >>> db_url_from(None, {"CODECRACK_DATA": "/srv/cc"})
    'sqlite:////srv/cc/codecrack.db'
    >>> db_url_from("postgresql+psycopg://cc@localhost/cc", {})
    'postgresql+psycopg://cc@localhost/cc'
    """
    variables = os.environ if environ is None else environ
    if given:
        return given
    if variables.get("CODECRACK_DB"):
        return variables["CODECRACK_DB"]
    return default_db_url(Path(variables.get("CODECRACK_DATA", DEFAULT_DATA_DIR)))


class WebConfig(BaseSettings):
    """Everything the server needs. Times are in seconds and can be shortened for tests.

    >>> WebConfig(db_url="sqlite://").max_ws_message_bytes
    16384
    """

    model_config = SettingsConfigDict(env_prefix="CODECRACK_", frozen=True, allow_inf_nan=False)

    db_url: str = Field(default_factory=db_url_from)
    ai_pace: float = Field(0.6, ge=0)  # pause before a bot's turn-based move, so humans can follow it
    disconnect_timeout: float = Field(60.0, ge=0)  # a human seat left empty this long is played by the takeover AI
    turn_think: float = Field(60.0, gt=0)  # Coda's turn clock: thinking time ...
    turn_countdown: float = Field(20.0, gt=0)  # ... then this countdown, then a timeout action
    answer_window: float | None = Field(None, gt=0)  # The Coding's answer window; None uses the table's option
    turn_hour: float = Field(3600.0, gt=0)  # an hour of a turn-based table's time per move (tests shorten it)
    turn_check_interval: float = Field(60.0, gt=0)  # how often the hub loads turn-based tables whose time ran out

    # -- trust: a seeded table lets its creator recompute every hidden tile, so only for local use
    allow_seed: bool = False
    token_hours: float = Field(24.0, gt=0)  # a seat token counts this long after its table was created
    session_days: float = Field(90.0, gt=0)  # a player's browser session lasts this long after its last use

    # -- limits (docs/security.md lists them) ----------------------------------------------
    max_body_bytes: int = Field(16 * 1024, ge=256)  # one HTTP request body
    max_ws_message_bytes: int = Field(16 * 1024, ge=256)  # one websocket message, either way in
    max_name_length: int = Field(40, ge=1, le=40)  # a player's or a seat's name (the column holds 40)
    messages_per_second: float = Field(20.0, gt=0)  # per websocket connection, refilled ...
    message_burst: int = Field(40, ge=1)  # ... into a bucket this big
    tables_per_minute: int = Field(20, ge=1)  # tables one client address may create
    connections_per_address: int = Field(32, ge=1)  # open websockets from one client address
    spectators_per_table: int = Field(200, ge=0)  # connections without a seat, per table
    chat_length: int = Field(200, ge=1, le=500)  # characters of one chat line (the column holds 500)
    chat_per_minute: float = Field(12.0, gt=0)  # chat lines one connection may send, after a burst of 3
    match_calls_per_minute: int = Field(90, ge=1)  # quick-match calls one client address may make (a page: 30)
    match_wait: float = Field(20.0, ge=0)  # quick match offers the AI after this wait (shown to the player)
    match_absent: float = Field(
        10.0, gt=0
    )  # a quick-match player whose page has not called for this long is not seated
    replays_per_minute: int = Field(120, ge=1)  # replay pages one client address may ask for in any minute
    exports_per_hour: int = Field(4, ge=1)  # data exports (GET /api/me/export) one player may ask for in any hour
    exports_per_address: int = Field(20, ge=1)  # ... and one client address, in any hour
    replay_page_frames: int = Field(64, ge=1, le=1000)  # frames in one replay page at most ...
    max_replay_bytes: int = Field(1024 * 1024, ge=16 * 1024)  # ... and bytes (at least one frame is sent)
    http_connections_per_address: int = Field(64, ge=1)  # open HTTP connections from one address (codecrack serve)
    header_timeout: float = Field(10.0, gt=0)  # a request's headers must arrive within this, from its first byte
    body_timeout: float = Field(10.0, gt=0)  # ... and its body within this, once the headers are in
    idle_timeout: float = Field(5.0, gt=0)  # an open HTTP connection with no request is closed after this
    # Addresses of the reverse proxies in front (comma-separated, e.g. "127.0.0.1"): only their
    # X-Forwarded-For is believed. Empty (the default): no proxy, the TCP peer is the client.
    trusted_proxies: str = ""

    # -- Web Push (docs/web.md, "Notifications"): the push services whose endpoints are posted to
    push_services: str = (
        r"https://(fcm\.googleapis\.com|updates\.push\.services\.mozilla\.com|web\.push\.apple\.com"
        r"|[a-z0-9-]+\.notify\.windows\.com)/"
    )  # a regular expression each subscription's endpoint must start with
    push_contact: str = "mailto:operator@localhost"  # the VAPID contact a push service may write to (set yours)
    push_ttl: int = Field(86400, ge=0)  # seconds a push service keeps a push for a browser that is offline
    push_timeout: float = Field(10.0, gt=0)  # seconds one push request may take

    # -- the AI's work: bot moves, hints, reviews (docs/security.md) ------------------------
    work_memory_mb: int = Field(
        512, ge=16
    )  # peak memory one AI move, hint or review may take: options that need more are refused
    work_seconds: float = Field(5.0, gt=0)  # CPU time one may take: options that need more are refused
    work_cache_mb: int = Field(256, ge=0)  # the solvers' tables kept between moves (the least recently used go)
    heavy_work_seconds: float = Field(0.25, ge=0)  # tables whose moves may take longer think in their own thread
    work_switch_ms: float = Field(
        1.0, gt=0, le=100
    )  # how long a thinking thread may keep the GIL while the event loop waits for it (sys.setswitchinterval)

    # -- connections, memory and restarts (docs/security.md) --------------------------------
    send_queue_limit: int = Field(32, ge=1)  # messages queued for one connection; more and it is closed as too slow
    ws_compression: bool = False  # websocket per-message deflate (costs CPU per message)
    ws_ping_interval: float = Field(
        20.0, gt=0
    )  # a keepalive ping per connection this often (the first at a random moment within it)
    ws_ping_timeout: float = Field(20.0, gt=0)  # a ping unanswered this long closes the connection as dead
    send_timeout: float = Field(10.0, gt=0)  # a send that takes longer closes the connection as too slow
    table_info_interval: float = Field(0.25, ge=0)  # at most one table-info broadcast per table this often
    views_kept_seconds: float = Field(
        30.0, gt=0
    )  # a table keeps each audience's last view (its next delta's base) this long after its last one sent
    finished_listed_for: float = Field(600.0, ge=0)  # a finished table leaves the lobby's public list after this
    max_live_tables: int = Field(256, ge=1)  # loaded tables without a connection (the least recently used go)
    unjoined_table_ttl: float = Field(
        3600.0, gt=0
    )  # a table nobody connects to is unloaded; deleted if nobody sat or played
    restore_window: float = Field(3600.0, ge=0)  # at start-up, restore the unfinished tables with an action this recent

    # -- notifications (codecrack/web/notify): e-mail over SMTP; none is sent without smtp_host ----
    public_url: str = "http://localhost:8000"  # this site's address as players reach it, for links in notifications
    smtp_host: str | None = None
    smtp_port: int = Field(25, ge=1, le=65535)
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = False  # upgrade the connection with STARTTLS before logging in
    smtp_from: str = "codecrack <noreply@localhost>"
    smtp_timeout: float = Field(10.0, gt=0)  # one SMTP conversation's socket timeout

    # -- several instances on one PostgreSQL database (docs/deploy.md) ------------------------
    redis_url: str | None = None  # Redis for the fan-out between instances and the driver leases
    instance_name: str | None = None  # this instance's name in Redis (lease owner); None: a random one
    lease_seconds: float = Field(3.0, gt=0)  # a table's driver lease lapses this long after its last renewal

    # -- running it as a service (docs/deploy.md) ---------------------------------------------
    log_format: Literal["text", "json"] = "text"  # json: one JSON object per line (codecrack/web/logs.py)
    drain_seconds: float = Field(20.0, gt=0)  # on SIGTERM, exit within this (codecrack/web/draining.py)
    metrics: bool = True  # GET /metrics and the counting behind it (codecrack/web/metrics.py)
    admin_token: str | None = Field(None, min_length=16)  # lets `codecrack admin close` close a live table

    def proxies(self) -> list[str]:
        """The trusted proxies' addresses.

        >>> WebConfig(db_url="sqlite://", trusted_proxies=" 127.0.0.1, ::1").proxies()
        ['127.0.0.1', '::1']
        """
        return [address.strip() for address in self.trusted_proxies.split(",") if address.strip()]
