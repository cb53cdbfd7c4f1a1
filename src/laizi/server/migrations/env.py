"""Alembic environment of the hall: runs on the connection the server hands over
(``config.attributes["connection"]``), or on ``sqlalchemy.url`` from the command line."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from laizi.server.storage import Base

config = context.config
target = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url")
    assert url, "no database URL"
    engine = create_engine(url.replace("+aiosqlite", "").replace("+asyncpg", "+psycopg"))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
