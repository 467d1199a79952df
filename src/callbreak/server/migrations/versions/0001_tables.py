"""Online tables: tables, seats and the action log.

Revision ID: 0001
Revises:
Create Date: 2025-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cb_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("level", sa.String(64), nullable=False),
        sa.Column("host_seat", sa.Integer, nullable=False),
        sa.Column("grace_s", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float),
        sa.Column("finished_at", sa.Float),
        sa.Column("record", sa.Text),
    )
    op.create_index("ix_cb_tables_status_finished", "cb_tables", ["status", "finished_at"])
    op.create_table(
        "cb_seats",
        sa.Column("table_code", sa.String(16), sa.ForeignKey("cb_tables.code"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64)),
        sa.PrimaryKeyConstraint("table_code", "seat"),
    )
    op.create_table(
        "cb_actions",
        sa.Column("table_code", sa.String(16), sa.ForeignKey("cb_tables.code"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_code", "seq"),
    )


def downgrade() -> None:
    op.drop_table("cb_actions")
    op.drop_table("cb_seats")
    op.drop_index("ix_cb_tables_status_finished", table_name="cb_tables")
    op.drop_table("cb_tables")
