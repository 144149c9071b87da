"""JSON logs (issue 29 §3): a real server with ``CODECRACK_LOG_FORMAT=json`` plays whole games,
refuses bad requests and claims; every line it logged is one JSON object with the fields an operator
searches by, and no line holds a seat token, the database's password or a table's secret seed."""

from __future__ import annotations

import json
import logging
import logging.config
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

from codecrack.loadtest.target import codecrack_server
from codecrack.web.config import WebConfig
from codecrack.web.logs import FORMATS, log_config
from codecrack.web.migrate import upgrade
from codecrack.web.store import make_engine

from ..cluster.players import Player

HUMAN = {"kind": "human"}
RANDOM = {"kind": "ai", "agent": "random"}
PASSWORD = "pw-9f3c1e7a"  # PostgreSQL trusts the test's connections, so any password opens it
FIELDS = {"time", "level", "event", "logger", "instance", "table", "request_id"}


def with_password(url: str) -> str:
    return url.replace("postgres@", f"postgres:{PASSWORD}@")


def test_json_logs_of_whole_games_hold_no_secret(postgres_url):
    url = with_password(postgres_url)
    with codecrack_server(url, CODECRACK_LOG_FORMAT="json", CODECRACK_AI_PACE="0") as server:
        secrets, codes = [PASSWORD], []
        for seed in range(2):
            made = httpx.post(
                f"{server.url}/api/tables", json={"game": "coda", "seats": [HUMAN, HUMAN, RANDOM], "sit": 0}
            ).json()
            other = httpx.post(f"{server.url}/api/tables/{made['code']}/join", json={"seat": 1, "name": "bo"}).json()
            again = httpx.post(f"{server.url}/api/tables/{made['code']}/join", json={"seat": 1, "name": "cy"})
            assert again.status_code == 400
            players = [
                Player(server.url, made["code"], token, seed=seed * 2 + i)
                for i, token in enumerate([made["token"], other["token"]])
            ]
            for player in players:
                player.start()
            for player in players:
                player.finish()
            secrets += [made["token"], other["token"]]
            codes.append(made["code"])
        assert httpx.post(f"{server.url}/api/tables", content=b"{nonsense").status_code == 400
        answer = httpx.get(f"{server.url}/api/tables/{codes[0]}", headers={"x-request-id": "probe-42"})
        assert answer.headers["x-request-id"] == "probe-42"
        log = (Path(server._folder.name) / "server.log").read_text()
    engine = create_engine(postgres_url)
    with engine.connect() as db:
        secrets += [str(seed) for seed in db.execute(text("SELECT seed FROM tables")).scalars()]
    engine.dispose()

    lines = [json.loads(line) for line in log.splitlines() if line.strip()]  # every line is JSON
    assert all(FIELDS <= set(line) for line in lines)
    assert {line["level"] for line in lines} >= {"info"}
    assert any(line["table"] == codes[0] and line["request_id"] == "probe-42" for line in lines)
    assert any(line["table"] == codes[0] and "WebSocket" in line["event"] for line in lines)  # a game socket's
    assert any("codecrack on http://" in line["event"] for line in lines)
    for secret in secrets:
        assert secret not in log


def test_a_failed_statement_does_not_show_its_values(tmp_path):
    """A SQL error (which the writer and the storage-failure handler log) names the statement,
    never the values it carried: here a duplicate seat token."""
    engine = make_engine(f"sqlite:///{tmp_path}/t.db")
    upgrade(engine)
    token = "tok-5b0e2d9c"
    insert = text(
        "INSERT INTO tables (code, game, players, seed, options, seats, created_at, finished) VALUES ('ABCDE', 'coda', 2, 1, '{}', '[]', '2026-01-01', 0)"
    )
    add = text("INSERT INTO seat_tokens (token, table_code, seat, name) VALUES (:token, 'ABCDE', :seat, 'n')")
    with engine.begin() as db:
        db.execute(insert)
        db.execute(add, {"token": token, "seat": 0})
    with pytest.raises(IntegrityError) as raised, engine.begin() as db:
        db.execute(add, {"token": token, "seat": 1})
    assert token not in str(raised.value)
    engine.dispose()


def test_logs_are_text_unless_json_is_asked_for(monkeypatch):
    """A terminal gets text lines by default; ``json`` (the setting or ``--log-format``) gets JSON lines."""
    monkeypatch.delenv("CODECRACK_LOG_FORMAT", raising=False)
    assert WebConfig().log_format == "text"
    record = logging.LogRecord("codecrack.web", logging.INFO, __file__, 1, "hello", None, None)
    shown = {}
    for kind in FORMATS:
        config = log_config(kind, "one")
        formatter = logging.config.dictConfigClass(config).configure_formatter(config["formatters"]["main"])
        shown[kind] = formatter.format(record)
    assert not shown["text"].startswith("{") and shown["text"].endswith("codecrack.web: hello")
    assert json.loads(shown["json"])["event"] == "hello" and json.loads(shown["json"])["instance"] == "one"
    with pytest.raises(ValueError):
        log_config("xml", "one")
