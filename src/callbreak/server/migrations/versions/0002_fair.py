"""Fair tables: the secret seed and salt, the practice flag, and each seat's contribution.

Tables from before have no secret: they deal from their stored seed as before.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("cb_tables", sa.Column("secret", sa.String(64)))
    op.add_column("cb_tables", sa.Column("salt", sa.String(64)))
    op.add_column(
        "cb_tables",
        sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("cb_seats", sa.Column("contribution", sa.String(64)))


def downgrade() -> None:
    with op.batch_alter_table("cb_seats") as batch:
        batch.drop_column("contribution")
    with op.batch_alter_table("cb_tables") as batch:
        batch.drop_column("practice")
        batch.drop_column("salt")
        batch.drop_column("secret")
