"""Alembic environment: runs the package's migrations on the connection given by ``migrate.upgrade``."""

from alembic import context

from codecrack.web.store import metadata


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:  # run by Alembic, not merely imported (e.g. by doctest collection)
    run_migrations()
