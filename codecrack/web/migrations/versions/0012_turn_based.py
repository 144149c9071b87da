"""Turn-based tables: hours per move, what a lapse does, and the running deadline (kept across
restarts).

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("turn_hours", sa.Integer))
        batch.add_column(sa.Column("on_lapse", sa.String(8)))
        batch.add_column(sa.Column("turn_step", sa.Integer))
        batch.add_column(sa.Column("turn_deadline", sa.DateTime(timezone=True)))
        batch.add_column(sa.Column("turn_seats", sa.JSON))
    op.create_index("ix_tables_turn_deadline", "tables", ["turn_deadline"])


def downgrade() -> None:
    op.drop_index("ix_tables_turn_deadline", "tables")
    with op.batch_alter_table("tables") as batch:
        for column in ("turn_seats", "turn_deadline", "turn_step", "on_lapse", "turn_hours"):
            batch.drop_column(column)
