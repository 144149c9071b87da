"""The leaderboards read an index of the listed ratings only (10 rated games or more: a partial
index, on SQLite and PostgreSQL), in the board's order (best first, then the older account), so
that the top 100 are the index's first entries of the board that played lately, not every rating
of the game read past the newcomers'. It replaces the index of every rating by game and mu, which
nothing else read.

Revision ID: 0025
Revises: 0024
"""

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

LISTED = sa.text("games >= 10")  # rating_routes.leaderboard states it literally, so the index is used


def upgrade() -> None:
    op.drop_index("ix_ratings_game_players_mu", "ratings")
    op.create_index(
        "ix_ratings_listed",
        "ratings",
        ["game", "players", sa.text("mu DESC"), "player_id"],
        postgresql_where=LISTED,
        sqlite_where=LISTED,
    )


def downgrade() -> None:
    op.drop_index("ix_ratings_listed", "ratings")
    op.create_index("ix_ratings_game_players_mu", "ratings", ["game", "players", "mu"])
