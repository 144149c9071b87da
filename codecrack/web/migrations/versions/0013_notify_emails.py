"""Notifications by e-mail: each opted-in player's address (with its language and when it
consented), and the server's own keys (the unsubscribe links' signing key).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notify_emails",
        sa.Column(
            "player_id", sa.Integer, sa.ForeignKey("players.id", name="fk_notify_emails_player_id"), primary_key=True
        ),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("consented_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_table("notify_emails")
