"""``codecrack serve``: run the web app with uvicorn."""

from __future__ import annotations

import uvicorn

from .app import create_app
from .config import WebConfig, db_url_from


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, allow_seed: bool = False) -> None:
    """Serve until interrupted. ``db`` is a SQLAlchemy URL (see :func:`db_url_from` for the default);
    every other setting comes from ``CODECRACK_*`` environment variables (:class:`WebConfig`)."""
    config = WebConfig(db_url=db_url_from(db), **({"allow_seed": True} if allow_seed else {}))
    print(f"codecrack on http://{host}:{port}/  (records: {config.db_url})")
    uvicorn.run(create_app(config), host=host, port=port, log_level="info",
                ws_max_size=config.max_ws_message_bytes)
