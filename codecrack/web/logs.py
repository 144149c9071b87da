"""The server's logs: text for a terminal (the default), or one JSON object per line for a log
search (``codecrack serve --log-format json``, or ``CODECRACK_LOG_FORMAT=json``).

A JSON line holds ``time`` (UTC, ISO 8601), ``level``, ``event`` (the message), ``logger``,
``instance``, ``table`` (the code of the table the request or socket is about, else null),
``request_id`` (the request's ``X-Request-ID`` when it sent a plain one, else a new one; answered in
the same header) and ``error`` (a traceback) when there is one.

What is logged never holds a seat token (they travel in headers and websocket messages, which are
not logged), a password (URLs are shown without theirs: :func:`shown_url`; SQL errors without
their parameters: ``store.make_engine``) or a hidden game value (views and actions are not logged).
"""

from __future__ import annotations

import logging
import re
import secrets
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

FORMATS = ("text", "json")
REQUEST_ID: ContextVar[str | None] = ContextVar("codecrack_request_id", default=None)
TABLE: ContextVar[str | None] = ContextVar("codecrack_table", default=None)
TABLE_PATH = re.compile(r"^/(?:ws|t|api/tables)/([A-Za-z0-9]{1,12})(?:/|$)")
PLAIN_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def shown_url(url: str | None) -> str | None:
    """``url`` without its password, for a log or a terminal.

    >>> shown_url("postgresql+psycopg://cc:s3cret@db/cc")
    'postgresql+psycopg://cc:***@db/cc'
    >>> shown_url("redis://:s3cret@cache:6379/0")
    'redis://:***@cache:6379/0'
    >>> shown_url("sqlite:///data/codecrack.db")
    'sqlite:///data/codecrack.db'
    """
    if not url:
        return url
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user, _, host = parts.netloc.rpartition("@")
    name = user.split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{name}:***@{host}"))


def tag(scope: Scope) -> str:
    """Name the request (or websocket) in ``scope`` and its table, if its path names one, in every
    log line written while it is served (the context's :data:`REQUEST_ID` and :data:`TABLE`); its request id."""
    given = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")
    request_id = given if PLAIN_ID.match(given) else secrets.token_hex(8)
    found = TABLE_PATH.match(scope.get("path", ""))
    REQUEST_ID.set(request_id)
    TABLE.set(found.group(1).upper() if found else None)
    return request_id


class RequestContext:
    """ASGI middleware: each HTTP request and websocket gets a request id and, when its path names
    a table, that table's code, both seen by every log line written while it is served."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        request_id = tag(scope)
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)

        async def with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        await self.app(scope, receive, with_id)


class JsonLines(logging.Formatter):
    """One JSON object per record (see the module's text)."""

    def __init__(self, instance: str = "") -> None:
        super().__init__()
        self.instance = instance

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "event": record.getMessage(),
            "logger": record.name,
            "instance": self.instance,
            "table": getattr(record, "table", None) or TABLE.get(),
            "request_id": REQUEST_ID.get(),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def log_config(log_format: str, instance: str, level: str = "info") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for uvicorn's ``log_config``: uvicorn's loggers and
    codecrack's write to stderr, as text or as JSON lines."""
    if log_format not in FORMATS:
        raise ValueError(f"log format: {log_format!r}; valid: {', '.join(FORMATS)}")
    formatter = (
        {"()": JsonLines, "instance": instance}
        if log_format == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}
    loggers = ("uvicorn", "uvicorn.error", "uvicorn.access", "codecrack")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": {name: {"handlers": ["main"], "level": level.upper(), "propagate": False} for name in loggers},
    }
