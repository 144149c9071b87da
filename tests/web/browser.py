"""Helpers for the browser tests: a real uvicorn server in a thread and headless Chromium."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn

from codecrack.core import registry
from codecrack.web.app import create_app
from codecrack.web.config import WebConfig

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(app) -> Iterator[tuple[uvicorn.Server, str]]:
    """Serve ``app`` on a free port in a background thread; yields the uvicorn server and the base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield server, f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def running_server(config: WebConfig):
    """Serve the app made with ``config`` on a free port in a background thread; yields the base URL."""
    with served(create_app(config)) as (_, url):
        yield url


@contextmanager
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def require_chromium() -> None:
    """Skip the test where Debian's chromium is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser at {CHROMIUM}: run `make browser` (Debian's chromium)")


@contextmanager
def browsing(config: WebConfig):
    """The app served with ``config``, and a Chromium: yields ``(url, browser)``."""
    require_chromium()
    with running_server(config) as url, chromium() as browser:
        yield url, browser


def site_fixture(*, host: str = "127.0.0.1", games: dict[str, str] | None = None, **settings):
    """A module's ``site`` fixture (``site = site_fixture(...)``): for the whole module, a server of
    ``WebConfig(**settings)`` on a SQLite file of its own and a Chromium, as ``(url, browser)``.
    ``host`` is the name the browser calls the server by (a passkey needs a domain: ``localhost``);
    ``games`` (name -> ``"module:Class"``) are registered before the app is made."""

    @pytest.fixture(scope="module")
    def site(tmp_path_factory):
        config = WebConfig(db_url=f"sqlite:///{tmp_path_factory.mktemp('site')}/web.db", **settings)
        with pytest.MonkeyPatch.context() as patch:
            for name, rules in (games or {}).items():
                patch.setitem(registry.GAMES, name, rules)
            with browsing(config) as (url, browser):
                yield url.replace("127.0.0.1", host), browser

    return site
