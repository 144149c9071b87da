"""``codecrack serve``: run the web app with uvicorn."""

from __future__ import annotations

import uvicorn

from .app import create_app
from .config import WebConfig, db_url_from


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> None:
    """Serve until interrupted. ``db`` is a SQLAlchemy URL (see :func:`db_url_from` for the default)."""
    config = WebConfig(db_url=db_url_from(db))
    print(f"codecrack on http://{host}:{port}/  (records: {config.db_url})")
    uvicorn.run(create_app(config), host=host, port=port, log_level="info")
