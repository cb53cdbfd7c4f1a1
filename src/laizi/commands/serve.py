"""``laizi serve``: run the hall (extra ``server``) and print its URL.

``--db`` is a SQLAlchemy async URL: a SQLite file by default (``laizi-hall.db`` in the
current directory, nothing to install), or ``postgresql+asyncpg://user@host/db``. The
schema is migrated with Alembic on start; rooms in progress resume where they were.

``--redis redis://…`` makes this process one of several sharing the rooms (on one machine
with ``--workers N``, or on several machines): docs/deploy.md.

Every flag may come from the environment instead: ``LAIZI_`` and the flag's name in
capitals with ``_`` for ``-`` (``--db`` → ``LAIZI_DB``, ``--bot-processes`` →
``LAIZI_BOT_PROCESSES``); a flag on the command line wins over its variable
(:func:`env_defaults`). A repeatable flag's variable is comma-separated, and the flags'
values add to it (as ``LAIZI_ALLOW_ORIGINS`` and ``--allow-origin`` always have).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping

from laizi.commands import Subparsers
from laizi.core.jsondata import JSON

__all__ = ["ENV_PREFIX", "banner", "env_defaults", "env_name", "register", "run",
           "workers_note"]

ENV_PREFIX = "LAIZI_"
_NO_ENV = {"help"}
_ENV_ALIASES = {"allow_origin": "LAIZI_ALLOW_ORIGINS",
                "trusted_proxy": "LAIZI_TRUSTED_PROXIES"}
"""Flags whose variable has another name (kept from before every flag had one)."""


def env_name(dest: str) -> str:
    """The environment variable of the flag whose ``dest`` is ``dest``."""
    return _ENV_ALIASES.get(dest, ENV_PREFIX + dest.upper())


def env_defaults(parser: argparse.ArgumentParser,
                 environ: Mapping[str, str] | None = None) -> None:
    """Each option of ``parser`` takes its default from its ``LAIZI_…`` variable when
    that is set: argparse converts a string default with the option's ``type``, and a
    value given on the command line replaces the default, so the flag wins. Every
    option added before this call is covered (flags added later by other code too, as
    long as this runs last in :func:`register`)."""
    env = os.environ if environ is None else environ
    for action in parser._actions:
        if not action.option_strings or action.dest in _NO_ENV:
            continue
        if action.dest in _ENV_ALIASES:
            continue  # read where it is used (headers.allowed_from_env,
            # proxies.trusted_from_env), added to the flags
        action.help = (action.help or "") + f" [env {env_name(action.dest)}]"
        raw = env.get(env_name(action.dest))
        if raw is None or raw == "":
            continue
        yes = raw.strip().lower() in ("1", "true", "yes", "on")
        if isinstance(action, argparse._StoreTrueAction | argparse.BooleanOptionalAction):
            action.default = yes
        elif isinstance(action, argparse._StoreFalseAction):
            action.default = not yes
        elif isinstance(action, argparse._CountAction):
            action.default = int(raw) if raw.strip().isdigit() else 0
        elif isinstance(action, argparse._AppendAction):
            conv = action.type if callable(action.type) else str
            action.default = [conv(v.strip()) for v in raw.split(",") if v.strip()]
        else:
            action.default = raw


def banner(host: str, port: int, where: str,
           found: list[tuple[str, str]] | None = None) -> list[str]:
    """The lines ``laizi serve`` prints: the URL for a browser on this machine, then the
    URLs a phone on the same network opens (every LAN address when listening on
    0.0.0.0), or how to let other machines in."""
    from laizi.server.lan import bases, is_loopback

    local = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in local:
        local = f"[{local}]"
    lines = [f"laizi hall: http://{local}:{port}/  ({where})"]
    if is_loopback(host):
        lines.append("  only this machine can open it; for phones on the same wifi: "
                     "laizi serve --host 0.0.0.0")
        return lines
    reach = bases(host, port, found)
    if not reach:
        lines.append("  no network address found: phones open http://<this machine's "
                     f"address>:{port}/")
    for name, base in reach:
        if base != f"http://{local}:{port}":
            lines.append(f"  on this network: {base}/" + (f"  ({name})" if name else ""))
    return lines


def workers_note(workers: int) -> list[str]:
    """What ``laizi serve --workers N`` says at start: its workers are not room-affine
    (docs/deploy.md, "Why --workers is not room-affine")."""
    if workers <= 1:
        return []
    return [f"  --workers {workers}: not room-affine (the kernel gives each connection to "
            "a worker whatever its room, so most of a room's messages cross Redis); for "
            "room affinity run one laizi serve per port with LAIZI_HALL_AFFINE=1 behind "
            "a proxy that hashes the room code (docs/deploy.md, \"Room affinity\")"]


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="run the hall: rooms, bots and play over websockets",
        description="Run the hall (play online with friends and bots). Prints the URL to "
                    "open; see docs/hall.md.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--db", default=None,
                   help="SQLAlchemy URL (default: sqlite+aiosqlite:///./laizi-hall.db)")
    p.add_argument("--bot-processes", type=int, default=None,
                   help="processes for search bots (default: up to 2)")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="Redis URL (redis://host:port/0): share the rooms with the other "
                        "processes on the same Redis and database (docs/deploy.md)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="server processes on this port (needs --redis; default 1)")
    p.add_argument("--admin-token", default=None, metavar="TOKEN",
                   help="a secret that opens the admin page (/admin) and its API; "
                        "without one there are no admin routes")
    p.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                   help="a site (https://host[:port]) whose pages may call the hall "
                        "besides its own address; repeatable; also LAIZI_ALLOW_ORIGINS "
                        "(comma-separated)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                   help="a reverse proxy (an address or a network, 10.0.0.0/8) whose "
                        "X-Forwarded-For / X-Forwarded-Proto the hall believes; repeatable; "
                        "also LAIZI_TRUSTED_PROXIES (comma-separated); default: none (a "
                        "proxy on this machine: 127.0.0.1; docs/deploy.md)")
    # ---- limits (laizi.server.ratelimit; docs/hall.md, "Limits") ----
    for kind, what in (("create", "rooms created"), ("join", "joins"),
                       ("guess", "room codes that are not rooms"),
                       ("identity", "identities created"),
                       ("recover", "recovery codes and device links tried")):
        p.add_argument(f"--rate-{kind}", default=None, metavar="RATE",
                       help=f"{what} per address (and per name) allowed, e.g. 10/minute or "
                            f"100/hour;10/minute, or off; also LAIZI_RATE_{kind.upper()}")
    p.add_argument("--max-connections", type=int, default=None, metavar="N",
                   help="connections (HTTP and websockets) served at once; more get 503 "
                        "(default 4000; also LAIZI_MAX_CONNECTIONS)")
    p.add_argument("--keep-alive", type=float, default=None, metavar="SECONDS",
                   help="an idle HTTP keep-alive connection is closed after this "
                        "(default 5; also LAIZI_KEEP_ALIVE)")
    p.set_defaults(func=run)
    # Every flag above (whoever adds one) also from its LAIZI_ variable; runs last.
    env_defaults(p)


def limit_settings(args: argparse.Namespace) -> JSON:
    """uvicorn's connection settings, and the request limits put in the environment so
    that every ``--workers`` process builds the same (laizi.server.ratelimit)."""
    import os

    from laizi.server.ratelimit import ENV as RATE_ENV

    for kind, name in RATE_ENV.items():
        value = getattr(args, f"rate_{kind}")
        if value is not None:
            os.environ[name] = value
    from laizi.server.limits import HallH11Protocol, hello_timeout, sockets_per_address

    sockets_per_address()  # LAIZI_WS_PER_ADDRESS and LAIZI_HELLO_TIMEOUT checked at start
    hello_timeout()
    most = args.max_connections or int(os.environ.get("LAIZI_MAX_CONNECTIONS") or 4000)
    keep = args.keep_alive or float(os.environ.get("LAIZI_KEEP_ALIVE") or 5)
    return {"limit_concurrency": most, "timeout_keep_alive": keep, "http": HallH11Protocol,
            "h11_max_incomplete_event_size": 16 * 1024}  # a request head's most bytes


def _run_workers(args: argparse.Namespace, url: str, origins: list[str],
                 proxies: list[str], common: JSON) -> int:
    """``laizi serve --workers N``: uvicorn's N worker processes on one port."""
    import shutil
    import tempfile

    import uvicorn

    from laizi.server.headers import ENV
    from laizi.server.metrics import MULTIPROC_ENV
    from laizi.server.proxies import ENV as PROXIES_ENV

    # Each worker process builds its own hall (app_from_env) from these.
    # The workers' metrics go to files summed by whichever one answers a scrape
    # (prometheus-client's multiprocess mode): a fresh directory for each start.
    metrics_dir = tempfile.mkdtemp(prefix="laizi-metrics-")
    os.environ[MULTIPROC_ENV] = metrics_dir
    os.environ["LAIZI_HALL_DB"] = url
    os.environ["LAIZI_HALL_HOST"] = args.host
    os.environ["LAIZI_HALL_REDIS"] = args.redis
    os.environ[ENV] = ",".join(origins)
    os.environ[PROXIES_ENV] = ",".join(proxies)
    if args.bot_processes is not None:
        os.environ["LAIZI_HALL_BOT_PROCESSES"] = str(args.bot_processes)
    if args.admin_token:
        os.environ["LAIZI_ADMIN_TOKEN"] = args.admin_token
    try:
        uvicorn.run("laizi.server.app:app_from_env", factory=True,
                    workers=args.workers, **common)
    finally:
        shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from laizi.server.app import create_app
        from laizi.server.headers import ENV, allowed_from_env, normalize_origin
        from laizi.server.limits import MAX_FRAME
        from laizi.server.storage import default_url
        from laizi.server.websocket import HallWebSocketProtocol
    except ImportError as exc:
        print(f"laizi serve needs the server extra (pip install 'laizi[server]'): {exc}",
              file=sys.stderr)
        return 2
    url = args.db or default_url("laizi-hall.db")
    try:
        origins = [*allowed_from_env(), *(normalize_origin(o) for o in args.allow_origin)]
    except ValueError as exc:
        print(f"laizi serve: --allow-origin / {ENV}: {exc}", file=sys.stderr)
        return 2
    from laizi.server.proxies import ENV as PROXIES_ENV
    from laizi.server.proxies import trusted_from_env

    try:
        proxies = trusted_from_env(args.trusted_proxy)
    except ValueError as exc:
        print(f"laizi serve: --trusted-proxy / {PROXIES_ENV}: {exc}", file=sys.stderr)
        return 2
    try:
        from laizi.server.ratelimit import RateLimits, rates_from_env

        limits = limit_settings(args)
        RateLimits(rates_from_env())  # a bad rate stops the hall here, not in a worker
    except ValueError as exc:
        print(f"laizi serve: {exc}", file=sys.stderr)
        return 2
    if args.workers < 1 or (args.workers > 1 and not args.redis):
        print("laizi serve: --workers N (N > 1) needs --redis URL: the processes share "
              "the rooms through Redis", file=sys.stderr)
        return 2
    if args.redis:
        try:
            import redis  # noqa: F401
        except ImportError as exc:
            print(f"laizi serve --redis needs the server extra (pip install "
                  f"'laizi[server]'): {exc}", file=sys.stderr)
            return 2
    common: JSON = {"host": args.host, "port": args.port,
                              "ws": HallWebSocketProtocol, "ws_per_message_deflate": False,
                              # a longer frame closes the socket (1009) from its header
                              "ws_max_size": MAX_FRAME,
                              "log_level": "warning", "lifespan": "on",
                              # the app believes X-Forwarded-* of --trusted-proxy only
                              "proxy_headers": False, **limits}
    where = f"database {url}" + (f", redis {args.redis}" if args.redis else "") + \
        (f", {args.workers} processes" if args.workers > 1 else "")
    print("\n".join([*banner(args.host, args.port, where), *workers_note(args.workers)]),
          flush=True)
    if args.workers > 1:
        return _run_workers(args, url, origins, proxies, common)
    app = create_app(url, bot_processes=args.bot_processes, redis_url=args.redis,
                     listen_host=args.host, allowed_origins=origins,
                     admin_token=args.admin_token or None, trusted_proxies=proxies)
    uvicorn.Server(uvicorn.Config(app, **common)).run()
    return 0
