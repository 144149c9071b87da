"""Players and their browser sessions; each claimed seat remembers the player who took it.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_sessions_player_id", "player_sessions", ["player_id"])
    with op.batch_alter_table("seat_tokens") as batch:
        batch.add_column(
            sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id", name="fk_seat_tokens_player_id"))
        )
        batch.create_index("ix_seat_tokens_player_id", ["player_id"])


def downgrade() -> None:
    with op.batch_alter_table("seat_tokens") as batch:
        batch.drop_index("ix_seat_tokens_player_id")
        batch.drop_column("player_id")
    op.drop_index("ix_player_sessions_player_id", "player_sessions")
    op.drop_table("player_sessions")
    op.drop_table("players")
