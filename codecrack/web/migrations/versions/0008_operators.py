"""What an operator decides (``codecrack admin``): a table closed, with the reason its players were
told, and the names nobody may take.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("closed", sa.String(200)))
    op.create_table(
        "blocked_names",
        sa.Column("name", sa.String(40), primary_key=True),  # case-folded
        sa.Column("blocked_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("blocked_names")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("closed")
