"""Daily puzzles: the server's kept secrets, players' attempts, and the hard tier's count per day.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("day", sa.Date),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("puzzle", sa.Integer, nullable=False),
        sa.Column("moves", sa.JSON, nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game", "day", "player"),
    )
    op.create_index("ix_puzzle_attempts_player", "puzzle_attempts", ["player", "game", "day"])
    op.create_table(
        "daily_pars",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("turns", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("daily_pars")
    op.drop_index("ix_puzzle_attempts_player", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("server_secrets")
