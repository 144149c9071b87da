"""The first schema: tables, their accepted actions, and seat tokens.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("code", sa.String(12), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("takeover", sa.String(32)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("result", sa.JSON),
        sa.Column("rematch", sa.String(12)),
    )
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_code", sa.String(12), sa.ForeignKey("tables.code"), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.UniqueConstraint("table_code", "step"),
    )
    op.create_index("ix_actions_table_code", "actions", ["table_code"])
    op.create_table(
        "seat_tokens",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("table_code", sa.String(12), sa.ForeignKey("tables.code"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seat_tokens")
    op.drop_index("ix_actions_table_code", "actions")
    op.drop_table("actions")
    op.drop_table("tables")
