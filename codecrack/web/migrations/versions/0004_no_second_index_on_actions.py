"""No index of its own on ``actions.table_code``: the unique (table, step) index starts with it and
serves every query by table, so every stored action updated two indexes by table where one does.

Revision ID: 0004
Revises: 0003
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_actions_table_code", "actions")


def downgrade() -> None:
    op.create_index("ix_actions_table_code", "actions", ["table_code"])
