"""The ``laizi`` command line.

Each sub-command lives in its own module under :mod:`laizi.commands` and exposes
``register(subparsers)``. Only the module of the command that runs is imported: the
others are listed in ``--help`` from :data:`COMMANDS` alone, because importing them all
(the engine, the bots, rich, the hall) costs several times what ``laizi analyze`` itself
takes. A new command adds its line to :data:`COMMANDS` (``tests/test_cli_startup.py``
checks the table against the modules).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["COMMANDS", "build_parser", "main", "version"]

COMMANDS: dict[str, str] = {
    "analyze": "is a hand complete, how far from ready, what does it wait on",
    "arena": "play bots against each other (every deal with the bots rotated)",
    "backup": "write the hall's stored rooms and logs to a file (JSON lines)",
    "connect": "play a room of the hall (laizi serve) at the terminal",
    "export": "write the decisions of simulated or recorded matches as a dataset",
    "fan": "count the MCR fans (国标番) of a hand",
    "import-botzone": "read Botzone match logs (MCR) into table logs",
    "play": "play a variant at the terminal against bots",
    "restore": "restore a `laizi backup` file into a fresh database",
    "score": "settle hands from their hand records (JSON), with a running ledger",
    "serve": "run the hall: rooms, bots and play over websockets",
    "simulate": "simulate many hands with bots and summarise them",
    "train": "train a policy network on exported decisions (numpy, CPU)",
    "verify": "check a table log: the secret, every deal and every action",
    "verify-ledger": "check a club's exported ledger against its match logs",
}
"""Sub-command → the one-line help ``laizi --help`` shows (the module's own ``register``
gives the same line)."""


def version() -> str:
    """The installed distribution's version, else the source tree's ``__version__``."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("laizi")
    except PackageNotFoundError:
        from laizi import __version__

        return __version__


class _VersionAction(argparse.Action):
    """``--version``, reading the metadata only when asked (it costs ~10 ms to import)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"laizi {version()}")
        parser.exit()


def _chosen(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` names: its first word that is not an option (the global
    options take no value)."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with ``argv`` only the command it names is imported and registered in
    full (the others are listed by name and help), without it every command is."""
    parser = argparse.ArgumentParser(
        prog="laizi",
        description="Mahjong of Jingzhou (荆州), Taiwan 16-tile and Chinese Official (MCR).",
        epilog="Run `laizi COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action=_VersionAction,
                        help="print the version of laizi and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    full = set(COMMANDS) if argv is None else {_chosen(argv)}
    for name, help_text in COMMANDS.items():
        if name in full:
            module = importlib.import_module(f"laizi.commands.{name.replace('-', '_')}")
            module.register(subparsers)
        else:
            subparsers.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
