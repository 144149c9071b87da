"""Alembic environment: runs the package's migrations on the connection given by ``migrate.upgrade``."""

from alembic import context

from codecrack.web.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
