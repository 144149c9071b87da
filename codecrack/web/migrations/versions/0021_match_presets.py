"""Quick match: a queue per game, preset and player count.

Revision ID: 0021
Revises: 0020
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_match_queue_waiting", "match_queue")
    with op.batch_alter_table("match_queue") as batch:
        batch.add_column(sa.Column("preset", sa.String(32), nullable=False, server_default=""))
    op.create_index("ix_match_queue_waiting", "match_queue", ["game", "preset", "players", "table_code", "joined_at"])


def downgrade() -> None:
    op.drop_index("ix_match_queue_waiting", "match_queue")
    with op.batch_alter_table("match_queue") as batch:
        batch.drop_column("preset")
    op.create_index("ix_match_queue_waiting", "match_queue", ["game", "players", "table_code", "joined_at"])
