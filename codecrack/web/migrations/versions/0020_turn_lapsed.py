"""Turn-based tables: the seats the takeover AI plays since their time ran out (kept across restarts).

Revision ID: 0020
Revises: 0019
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("turn_lapsed", sa.JSON))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("turn_lapsed")
