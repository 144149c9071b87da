"""Ratings: one OpenSkill rating per account and game, the rated tables (each rated once) and
every seat's change.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id", name="fk_ratings_player_id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_game_mu", "ratings", ["game", "mu"])
    op.create_table(
        "rated_games",
        sa.Column(
            "table_code",
            sa.String(12),
            sa.ForeignKey("tables.code", name="fk_rated_games_table_code"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column(
            "table_code",
            sa.String(12),
            sa.ForeignKey("rated_games.table_code", name="fk_rating_changes_table_code"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id", name="fk_rating_changes_player_id")),
        sa.Column("agent", sa.String(32)),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_index("ix_rating_changes_player_id", "rating_changes", ["player_id"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("rated_games")
    op.drop_table("ratings")
