"""Services shared by every test folder (see tests/services.py)."""

import pytest

from .services import PostgresServer


def long_first(items: list[pytest.Item]) -> None:
    """The files that hold a test marked ``long`` go first, each file's tests kept together (a
    module's fixtures are set up once: a long test moved away from its file's other tests would set
    them up twice); the rest keep their order (the sort is stable)."""
    files = {item.path for item in items if item.get_closest_marker("long") is not None}
    items.sort(key=lambda item: item.path not in files)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    long_first(items)


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
