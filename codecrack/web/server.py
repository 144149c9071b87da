"""``codecrack serve``: run the web app with uvicorn."""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO

import uvicorn
from sqlalchemy.engine import make_url

from .app import create_app
from .config import WebConfig, db_url_from


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, allow_seed: bool = False,
          redis: str | None = None) -> None:
    """Serve until interrupted. ``db`` is a SQLAlchemy URL (see :func:`db_url_from` for the default),
    ``redis`` a Redis URL that joins this instance to the others on the same database; every other
    setting comes from ``CODECRACK_*`` environment variables (:class:`WebConfig`)."""
    given = {**({"allow_seed": True} if allow_seed else {}), **({"redis_url": redis} if redis else {})}
    config = WebConfig(db_url=db_url_from(db), **given)
    lock = hold_sqlite(config.db_url)
    fanout = f", fan-out: {config.redis_url}" if config.redis_url else ""
    print(f"codecrack on http://{host}:{port}/  (records: {config.db_url}{fanout})")
    uvicorn.run(create_app(config), host=host, port=port, log_level="info",
                ws_max_size=config.max_ws_message_bytes, ws_per_message_deflate=config.ws_compression)
    if lock:
        lock.close()


def hold_sqlite(db_url: str) -> IO[bytes] | None:
    """SQLite serves one server process: hold a lock beside its file for this process's lifetime,
    or stop with a clear message when another server holds it (two would silently split the state)."""
    url = make_url(db_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    path = Path(url.database)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.with_name(path.name + ".serve-lock").open("a+b")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise SystemExit(f"another codecrack server already serves {path}: SQLite serves one server process. "
                         "Stop that one, or run several instances on PostgreSQL "
                         "(--db postgresql+psycopg://...).") from None
    return handle
