"""Run the app under uvicorn: what ``callbreak serve`` does."""

from __future__ import annotations

import logging

from callbreak.server.config import ServerConfig

WS_MAX_BYTES = 64 * 1024
"""Frames above this are cut off by the WebSocket layer itself (the app refuses above 4 KiB)."""


def serve(
    config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info"
) -> None:
    """Serve ``config`` on host:port until interrupted."""
    import uvicorn

    from callbreak.server.app import create_app

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    if log_level.lower() != "debug":  # Alembic lists its plugins at INFO on every start
        logging.getLogger("alembic").setLevel(logging.WARNING)
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=WS_MAX_BYTES,
        ws_ping_interval=10.0,
        ws_ping_timeout=10.0,
        access_log=log_level == "debug",
        timeout_graceful_shutdown=3,
    )
