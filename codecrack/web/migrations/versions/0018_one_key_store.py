"""One store of server secrets: the unsubscribe links' signing key moves from ``server_keys`` into
``server_secrets`` (the daily puzzles' and Web Push's), under the same name, so that the links of
e-mails already sent stay valid.

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "INSERT INTO server_secrets (name, value) SELECT name, value FROM server_keys"
        " WHERE name NOT IN (SELECT name FROM server_secrets)"
    )
    op.drop_table("server_keys")


def downgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.execute(
        "INSERT INTO server_keys (name, value) SELECT name, value FROM server_secrets WHERE name = 'unsubscribe'"
    )
