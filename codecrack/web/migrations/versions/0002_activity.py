"""When each table last saw an action, so that a restart restores only recently active tables.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("active_at", sa.DateTime(timezone=True)))
    op.execute("UPDATE tables SET active_at = created_at")
    op.create_index("ix_tables_finished_active_at", "tables", ["finished", "active_at"])


def downgrade() -> None:
    op.drop_index("ix_tables_finished_active_at", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("active_at")
