"""Table chat: what was said at each table, and the chat's switches off and on.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_code", sa.String(12), sa.ForeignKey("tables.code"), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("body", sa.String(500), nullable=False),
    )
    op.create_index("ix_chat_lines_table_code_id", "chat_lines", ["table_code", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_lines_table_code_id", "chat_lines")
    op.drop_table("chat_lines")
