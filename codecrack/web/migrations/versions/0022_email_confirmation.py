"""Notification e-mails go only to a confirmed address: when its owner followed the link of the
confirmation e-mail (null: not yet). Addresses stored before confirmation existed count as
confirmed, so their players keep their e-mails.

Revision ID: 0022
Revises: 0021
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("notify_emails") as table:
        table.add_column(sa.Column("confirmed_at", sa.DateTime(timezone=True)))
    op.execute("UPDATE notify_emails SET confirmed_at = consented_at")


def downgrade() -> None:
    with op.batch_alter_table("notify_emails") as table:
        table.drop_column("confirmed_at")
