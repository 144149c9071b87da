"""``codecrack serve``: run the web app with uvicorn, in one process or several (``workers``)."""

from __future__ import annotations

import faulthandler
import logging
import logging.config
import os
import resource
import socket
from typing import Any, cast

import uvicorn

from .app import create_app
from .collector import Collector
from .config import WebConfig, db_url_from
from .direct_send import DirectSend
from .draining import DrainingServer
from .guard import GuardedHttp
from .instances import workers_refusal
from .logs import log_config, shown_url

log = logging.getLogger("codecrack.web")


def uvicorn_options(config: WebConfig, instance: str = "") -> dict[str, Any]:
    """uvicorn's settings besides the address: the logs (:mod:`.logs`; ``instance`` names this
    instance in them), the HTTP protocol (its guards against slow and idle clients: :mod:`.guard`),
    the websocket protocol (its keepalive pings spread and its direct writes: :mod:`.direct_send`),
    the proxies trusted, and the websocket limits."""
    GuardedHttp.configure(config)
    proxies = config.proxies()
    return {
        "log_level": "info",
        "log_config": log_config(config.log_format, instance),
        "http": GuardedHttp,
        "timeout_keep_alive": config.idle_timeout,
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": ",".join(proxies) or "",
        "ws": DirectSend,
        "ws_max_size": config.max_ws_message_bytes,
        "ws_per_message_deflate": config.ws_compression,
        "ws_ping_interval": config.ws_ping_interval,
        "ws_ping_timeout": config.ws_ping_timeout,
    }


def open_files_raised() -> int:
    """Raise this process's limit of open files (a websocket each) to its hard limit, the most it
    may take without privileges (a shell's soft limit is often 1,024: a thousand players); the limit
    now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1_048_576  # Linux's default fs.nr_open
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        return soft
    return wanted


def run_one(app: Any, drain_seconds: float = 20.0, **options: Any) -> None:
    """Serve ``app`` in this process with uvicorn (``options``: the address and
        :func:`uvicorn_options`), its garbage collector set up for a server (:mod:`.collector`); on
        SIGTERM it drains and exits within ``drain_seconds`` (:mod:`.draining`). A fatal signal
        (SIGBUS, SIGSEGV) writes the threads' stacks to the log (``faulthandler``). It may open as many
    files as its hard limit allows (:func:`open_files_raised`)."""
    faulthandler.enable()
    Collector().install()
    log.info("open files (sockets) allowed: %d", open_files_raised())
    # uvicorn waits with asyncio.wait_for, which takes a float, though Config declares an int
    grace = cast(int, drain_seconds * 0.75)
    config = uvicorn.Config(app, timeout_graceful_shutdown=grace, **options)
    DrainingServer(config, app.state.drain, drain_seconds).run()


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    allow_seed: bool = False,
    redis: str | None = None,
    workers: int = 1,
    log_format: str | None = None,
) -> None:
    """Serve until interrupted. ``db`` is a SQLAlchemy URL (see :func:`db_url_from` for the default),
    ``redis`` a Redis URL that joins this instance to the others on the same database; ``workers``
    processes serve the port, each one an instance (so several need PostgreSQL and Redis);
    ``log_format`` is ``text`` or ``json`` (:mod:`.logs`). Every other setting comes from
    ``CODECRACK_*`` environment variables (:class:`WebConfig`)."""
    given: dict[str, Any] = {  # only what was given: the rest comes from the environment
        **({"allow_seed": True} if allow_seed else {}),
        **({"redis_url": redis} if redis else {}),
        **({"log_format": log_format} if log_format else {}),
    }
    config = WebConfig(db_url=db_url_from(db), **given)
    refused = workers_refusal(config.db_url, config.redis_url, workers)
    if refused:
        raise SystemExit(refused)
    instance = config.instance_name or f"{socket.gethostname()}:{port}"
    options = {"host": host, "port": port, **uvicorn_options(config, instance)}
    logging.config.dictConfig(options["log_config"])
    fanout = f", fan-out: {shown_url(config.redis_url)}" if config.redis_url else ""
    log.info("codecrack on http://%s:%s/  (records: %s%s)", host, port, shown_url(config.db_url), fanout)
    if workers == 1:
        run_one(create_app(config), config.drain_seconds, **options)
        return
    # each worker process builds its own app from the environment (CODECRACK_*)
    os.environ.update(
        {
            "CODECRACK_DB": config.db_url,
            "CODECRACK_REDIS_URL": config.redis_url or "",  # several workers need one (workers_refusal)
            "CODECRACK_ALLOW_SEED": str(config.allow_seed).lower(),
            "CODECRACK_LOG_FORMAT": config.log_format,
        }
    )
    uvicorn.run("codecrack.web.app:create_app", factory=True, workers=workers, **options)
