"""The hall: ``laizi serve`` — rooms, people and bots playing tables over websockets.

Never imported by the core (tiles, analysis, scoring, engine, variants, table); needs the
``server`` extra (Starlette, uvicorn, SQLAlchemy, Alembic, aiosqlite / asyncpg).
"""
