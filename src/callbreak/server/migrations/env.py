"""Alembic environment for the online tables' database.

The server runs migrations itself on start (``Store.migrate``), on a connection
it already holds, so this environment only accepts that connection: there is
no alembic.ini and no second way to reach the database.  Imported outside
Alembic (by pytest's doctest collection, say) it does nothing.
"""

from __future__ import annotations

from typing import Any

from alembic import context

from callbreak.server.store import metadata


def run(config: Any) -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through callbreak.server.store.Store.migrate()")
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


_config = getattr(context, "config", None)
if _config is not None:
    run(_config)
