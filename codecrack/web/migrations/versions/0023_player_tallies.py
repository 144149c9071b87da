"""Each player's finished games counted as each one ends (``player_tallies``: per game, played and
won, in all and against each AI tier met), so that a profile reads its tallies, not every game.
The games finished before this revision are counted here.

Revision ID: 0023
Revises: 0022
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

BATCH = 5_000  # tallies per insert

tables = sa.table(
    "tables", sa.column("code"), sa.column("game"), sa.column("seats", sa.JSON), sa.column("result", sa.JSON),
    sa.column("finished"),
)  # fmt: skip
seat_tokens = sa.table("seat_tokens", sa.column("table_code"), sa.column("seat"), sa.column("player_id"))


def upgrade() -> None:
    from codecrack.web.store import tallies

    tallied = op.create_table(
        "player_tallies",
        sa.Column(
            "player_id", sa.Integer, sa.ForeignKey("players.id", name="fk_player_tallies_player_id"), primary_key=True
        ),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("tier", sa.String(32), primary_key=True),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
    )
    seats = op.get_bind().execute(
        sa.select(seat_tokens.c.player_id, seat_tokens.c.seat, tables.c.game, tables.c.seats, tables.c.result)
        .join(tables, tables.c.code == seat_tokens.c.table_code)
        .where(seat_tokens.c.player_id.is_not(None), tables.c.finished.is_(True)),
        execution_options={"yield_per": BATCH},  # read a batch at a time
    )
    counted = [
        {"player_id": player_id, "game": game, "tier": tier, "played": played, "won": won}
        for (player_id, game, tier), (played, won) in sorted(tallies(seats).items())
    ]
    for first in range(0, len(counted), BATCH):
        op.get_bind().execute(sa.insert(tallied), counted[first : first + BATCH])


def downgrade() -> None:
    op.drop_table("player_tallies")
