"""Services shared by every test folder (see tests/services.py)."""

import pytest

from .services import PostgresServer


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
