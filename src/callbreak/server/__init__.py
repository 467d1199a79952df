"""Online tables: Call Break with friends in the browser (``callbreak serve``).

A face over the engine, the bots and the record layer (docs/design.md): FastAPI
with WebSockets, SQLAlchemy (SQLite or PostgreSQL) with Alembic migrations,
and Redis pub/sub when several processes serve the same tables.  A client is
only ever sent what ``observe`` gives its seat (``table.LiveTable.state``).

Import ``callbreak.server.app.create_app`` for the ASGI app; this package
imports nothing heavy by itself so that ``import callbreak`` stays fast.
"""

from callbreak.server.config import ServerConfig, async_db_url

__all__ = ["ServerConfig", "async_db_url"]
