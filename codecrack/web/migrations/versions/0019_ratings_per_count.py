"""Ratings per player count: a game rated per count (``Game.rated_per_count``: Coda) keeps one
rating and one leaderboard for each; the others keep one for all counts (``players`` 0). Each rated
game stores its player count.

A rating made before this revision for a game now rated per count is kept whole under the count of
the player's latest rated game of it (its earlier games cannot be told apart again).

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

COLUMNS = "player_id, game, {players}mu, sigma, games, wins, played_at"


def ratings_table(name: str, per_count: bool) -> None:
    op.create_table(
        name,
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id", name="fk_ratings_player_id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        *([sa.Column("players", sa.Integer, primary_key=True, autoincrement=False)] if per_count else []),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
    )


def rated_per_count(game: str) -> bool:
    from codecrack.core.registry import GAMES, game_class

    return game in GAMES and game_class(game).rated_per_count


def upgrade() -> None:
    op.add_column("rated_games", sa.Column("players", sa.Integer, nullable=False, server_default="0"))
    op.execute(
        "UPDATE rated_games SET players = (SELECT tables.players FROM tables WHERE tables.code = rated_games.table_code)"
    )
    op.drop_index("ix_ratings_game_mu", "ratings")
    ratings_table("ratings_by_count", per_count=True)
    op.execute(
        f"INSERT INTO ratings_by_count ({COLUMNS.format(players='players, ')}) "
        f"SELECT {COLUMNS.format(players='0, ')} FROM ratings"
    )
    op.drop_table("ratings")
    op.rename_table("ratings_by_count", "ratings")
    op.create_index("ix_ratings_game_players_mu", "ratings", ["game", "players", "mu"])
    db = op.get_bind()
    for game in db.execute(sa.text("SELECT DISTINCT game FROM ratings")).scalars().all():
        if rated_per_count(game):
            db.execute(
                sa.text(
                    "UPDATE ratings SET players = (SELECT rated_games.players FROM rating_changes"
                    " JOIN rated_games ON rated_games.table_code = rating_changes.table_code"
                    " WHERE rating_changes.player_id = ratings.player_id AND rated_games.game = ratings.game"
                    " ORDER BY rated_games.rated_at DESC LIMIT 1) WHERE game = :game"
                ),
                {"game": game},
            )


def downgrade() -> None:
    op.drop_index("ix_ratings_game_players_mu", "ratings")
    ratings_table("ratings_whole", per_count=False)
    op.execute(  # each player's latest rating of a game
        f"INSERT INTO ratings_whole ({COLUMNS.format(players='')}) SELECT {COLUMNS.format(players='')} FROM ratings"
        " WHERE NOT EXISTS (SELECT 1 FROM ratings AS later WHERE later.player_id = ratings.player_id"
        " AND later.game = ratings.game AND (later.played_at > ratings.played_at"
        " OR (later.played_at = ratings.played_at AND later.players > ratings.players)))"
    )
    op.drop_table("ratings")
    op.rename_table("ratings_whole", "ratings")
    op.create_index("ix_ratings_game_mu", "ratings", ["game", "mu"])
    op.drop_column("rated_games", "players")
