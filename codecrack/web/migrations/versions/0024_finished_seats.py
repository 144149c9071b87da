"""A seat says when its table's game ended (``seat_tokens.finished_at``, set in the end's
transaction), indexed with its player: a profile's latest games and a history page read their own
rows in order instead of sorting all of the player's games; a rating's course reads its latest
changes by an index on the player and its rated-game count. Seats of games finished before this
revision get their table's last activity (its end).

Revision ID: 0024
Revises: 0023
"""

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_tokens") as table:
        table.add_column(sa.Column("finished_at", sa.DateTime(timezone=True)))
    op.execute(
        "UPDATE seat_tokens SET finished_at = (SELECT tables.active_at FROM tables"
        " WHERE tables.code = seat_tokens.table_code AND tables.finished)"
    )
    op.drop_index("ix_seat_tokens_player_id", "seat_tokens")
    op.create_index("ix_seat_tokens_player_finished", "seat_tokens", ["player_id", "finished_at", "table_code"])
    op.drop_index("ix_rating_changes_player_id", "rating_changes")
    op.create_index("ix_rating_changes_player_id_games", "rating_changes", ["player_id", "games"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player_id_games", "rating_changes")
    op.create_index("ix_rating_changes_player_id", "rating_changes", ["player_id"])
    op.drop_index("ix_seat_tokens_player_finished", "seat_tokens")
    op.create_index("ix_seat_tokens_player_id", "seat_tokens", ["player_id"])
    with op.batch_alter_table("seat_tokens") as table:
        table.drop_column("finished_at")
