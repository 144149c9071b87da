"""Run the package's Alembic migrations programmatically (no alembic.ini needed)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).with_name("migrations")


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database behind ``engine`` up to ``revision``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


@lru_cache(maxsize=1)
def head_revision() -> str:
    """The newest migration of this codecrack."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None, "codecrack ships its migrations"
    return head


def stored_revision(engine: Engine) -> str | None:
    """The migration the database behind ``engine`` is at (``None``: not migrated yet); a query, so
    it also shows that the database answers."""
    with engine.connect() as db:
        if not inspect(db).has_table("alembic_version"):
            return None
        return db.execute(text("SELECT version_num FROM alembic_version")).scalar()
