"""One seat token per seat: a unique (table, seat), so that a seat is claimed once even when several
server instances take claims at the same moment.

A database written by two processes at once (the split state this prevents) may hold two tokens
for one seat; the first token in sort order is kept.

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "DELETE FROM seat_tokens WHERE EXISTS (SELECT 1 FROM seat_tokens AS other "
        "WHERE other.table_code = seat_tokens.table_code AND other.seat = seat_tokens.seat "
        "AND other.token < seat_tokens.token)"
    )
    op.create_index("uq_seat_tokens_table_code_seat", "seat_tokens", ["table_code", "seat"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_seat_tokens_table_code_seat", "seat_tokens")
