import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from codecrack.core import registry
from codecrack.web.app import create_app
from codecrack.web.bots import Bots
from codecrack.web.config import WebConfig
from codecrack.web.players import accounts

from .sandbox_work import Go, Waiting


@pytest.fixture(scope="session", autouse=True)
def real_passwords():
    """In this process, passwords are hashed with argon2id's cheapest parameters (the real ones
    cost a fifth of a second of CPU a hash); yields the real ``(hasher, UNKNOWN_HASH)``, which
    test_accounts checks."""
    quick = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    real = accounts.hasher, accounts.UNKNOWN_HASH
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(accounts, "hasher", quick)
        patch.setattr(accounts, "UNKNOWN_HASH", quick.hash("an unknown handle is checked against this"))
        yield real


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "tests.core.toy_game:ToyGame")


def fast_config(path, **changes) -> WebConfig:
    """A server on a SQLite file in ``path`` whose bots and clocks do not wait."""
    settings = dict(db_url=f"sqlite:///{path}/web.db", ai_pace=0.0, disconnect_timeout=0.05, table_info_interval=0.0)
    return WebConfig(**{**settings, **changes})


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(fast_config(tmp_path))) as test_client:
        yield test_client


@pytest.fixture
def bots_wait(monkeypatch, tmp_path):
    """The bots decide only once the test sets this event (so that the test has done what must come first)."""
    go = Go(tmp_path / "bots may decide")
    make = Bots.agent
    monkeypatch.setattr(Bots, "agent", lambda self, table, seat, tier: Waiting(make(self, table, seat, tier), go))
    yield go
    go.set()
