"""Web Push: the language each browser subscribed in (its notifications are written in it).

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("push_subscriptions") as table:
        table.add_column(sa.Column("language", sa.String(16), nullable=False, server_default="en"))


def downgrade() -> None:
    with op.batch_alter_table("push_subscriptions") as table:
        table.drop_column("language")
