"""Services shared by every test folder (see tests/services.py)."""

import pytest

from .services import PostgresServer


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``long`` go first; the rest keep their order (the sort is stable)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.fixture(scope="session")
def postgres():
    """One PostgreSQL cluster per test process (each xdist worker has its own port and folder)."""
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def postgres_url(postgres):
    """A ``postgresql+psycopg://`` URL to a new, empty database on the running test cluster."""
    if not postgres.running():  # a test that stopped it failed before starting it again
        postgres.start()
    return postgres.new_database()
