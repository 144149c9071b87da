"""Seat invitations: a table made for friends keeps the secret of its link, without which its open
seats cannot be taken (null: open to anyone).

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("invite", sa.String(32)))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("invite")
