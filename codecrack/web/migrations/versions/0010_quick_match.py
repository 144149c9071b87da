"""Quick match: the players waiting for a table, and the seat each was given.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_queue",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_code", sa.String(12), sa.ForeignKey("tables.code")),
        sa.Column("seat", sa.Integer),
        sa.Column("token", sa.String(64)),
    )
    op.create_index("ix_match_queue_waiting", "match_queue", ["game", "players", "table_code", "joined_at"])


def downgrade() -> None:
    op.drop_index("ix_match_queue_waiting", "match_queue")
    op.drop_table("match_queue")
