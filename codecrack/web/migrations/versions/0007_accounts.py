"""Accounts: a player's handle and password hash, and the failed sign-ins counted for throttling.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("handle", sa.String(64)))
        batch.add_column(sa.Column("handle_key", sa.String(64)))
        batch.add_column(sa.Column("password_hash", sa.String(200)))
        batch.create_unique_constraint("players_handle_key_key", ["handle_key"])
    op.create_table(
        "sign_in_failures",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sign_in_failures")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("players_handle_key_key")
        batch.drop_column("password_hash")
        batch.drop_column("handle_key")
        batch.drop_column("handle")
