"""``laizi export VARIANT``: the decisions of simulated or recorded matches as JSON lines.

Without ``LOG`` arguments, ``--hands`` hands are simulated by ``--bots`` (seeds ``--seed``,
``--seed`` + 1, …, as ``laizi simulate`` deals them); with them, each table log (a file
written by ``laizi play --save`` or downloaded from the hall, ``GET
/api/rooms/CODE/log``; a directory: every file in it, in name order) is replayed and
checked as ``laizi verify`` checks it. ``--format botzone`` writes MCR hands as Botzone
match logs instead (one JSON object a line, one a hand). Schemas: docs/datasets.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from laizi.commands import Subparsers

__all__ = ["log_files", "register", "run"]

EXAMPLES = """examples:
  laizi export mcr --hands 2 --bots greedy,random -o mcr.jsonl
  laizi export jingzhou --hands 2 --obs-version 1 --forced -o jingzhou.jsonl
  laizi export mcr --hands 1 --format botzone -o mcr.botzone.jsonl
"""


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "export", help="write the decisions of simulated or recorded matches as a dataset",
        description="Write every decision of simulated hands, or of recorded table logs, "
                    "as JSON lines: the seat's observation as the environments encode it, "
                    "the legal actions, the action taken and the hand's outcome for the "
                    "seat, after a header line naming the schema and its version.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant", help="variant id (jingzhou, huanghuang, golden, mcr, taiwan)")
    p.add_argument("logs", nargs="*", metavar="LOG",
                   help="table logs (files, or directories of them); none: simulate")
    p.add_argument("--bots", default="greedy", help="bot specs by seat (default greedy)")
    p.add_argument("--hands", type=int, default=10, help="hands to simulate (default 10)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option for simulated hands (repeatable)")
    p.add_argument("--obs-version", type=int, choices=(0, 1), default=0,
                   help="observation version: 1 adds the public discard history")
    p.add_argument("--forced", action="store_true",
                   help="also write forced passes (pass the only legal answer)")
    p.add_argument("--format", choices=("decisions", "botzone"), default="decisions",
                   help="decisions (default), or Botzone match logs (mcr only)")
    p.add_argument("-o", "--output", default="-", metavar="FILE",
                   help="where to write (default - for stdout)")
    p.set_defaults(func=run, workers=1, ray=None)


def log_files(paths: list[str]) -> list[Path]:
    """The files ``paths`` name: a directory gives its files (not hidden) in name order."""
    out: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            out.extend(sorted(f for f in path.iterdir()
                              if f.is_file() and not f.name.startswith(".")))
        elif path.is_file():
            out.append(path)
        else:
            raise FileNotFoundError(f"no file or directory {text!r}")
    return out


Log = tuple[str | None, int | None, list[str], bytes | None]
"""A log to export: its file (``FILE#ROOM`` for a room of a hall backup) or its seed,
its lines, and the secret of a log not closed yet (a backup's stored room)."""


def _logs(args: argparse.Namespace, variant: str, bots: list[str],
          options: dict[str, object]) -> Iterator[Log]:
    """Every log to export."""
    from laizi.datasets.decisions import backup_logs, is_backup, simulated_logs

    if not args.logs:
        for seed, text in simulated_logs(variant, bots, args.hands, args.seed, options):
            yield None, seed, text.splitlines(), None
        return
    for path in log_files(args.logs):
        lines = [line for line in path.read_text("utf-8").splitlines() if line.strip()]
        if lines and is_backup(lines[0]):
            for code, room, secret in backup_logs(lines, variant):
                yield f"{path}#{code}", None, room, secret
        else:
            yield str(path), None, lines, None


def _write(args: argparse.Namespace, out: TextIO, variant: str, bots: list[str],
           options: dict[str, object]) -> int:
    """Write the export; the number of lines after the header."""
    from laizi.datasets.decisions import Source, header, log_decisions

    count = 0
    if args.format == "decisions":
        source: dict[str, object] = {"logs": args.logs} if args.logs else {
            "bots": bots, "hands": args.hands, "seed": args.seed, "options": options}
        out.write(json.dumps(header(variant, args.obs_version, args.forced, source),
                             ensure_ascii=False) + "\n")
    for match, (file, seed, lines, secret) in enumerate(_logs(args, variant, bots, options)):
        if args.format == "botzone":
            from laizi.datasets.botzone_log import hand_logs

            for item in hand_logs(lines, secret):
                out.write(json.dumps(item, ensure_ascii=False) + "\n")
                count += 1
            continue
        for step in log_decisions(lines, Source(match, file, seed), variant=variant,
                                  obs_version=args.obs_version, forced=args.forced,
                                  secret=secret):
            out.write(json.dumps(step, ensure_ascii=False, separators=(",", ":")) + "\n")
            count += 1
    return count


def run(args: argparse.Namespace) -> int:
    from laizi.errors import LaiziError
    from laizi.sim.cli_common import UserError, check_common

    try:
        variant, bots, options = check_common(args)
        if args.hands < 1:
            raise UserError("--hands must be at least 1")
        if args.format == "botzone" and variant != "mcr":
            raise UserError("--format botzone is for mcr only (the protocol is MCR's)")
        out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")  # noqa: SIM115
        try:
            count = _write(args, out, variant, bots, options)
        finally:
            if out is not sys.stdout:
                out.close()
    except UserError as exc:
        print(f"laizi export: {exc}", file=sys.stderr)
        return 2
    except LaiziError as exc:  # (a ValueError too: first)
        print(f"laizi export: REJECTED: {exc.message}", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"laizi export: {exc}", file=sys.stderr)
        return 2
    what = "match logs" if args.format == "botzone" else "decisions"
    print(f"laizi export: {count} {what} written to {args.output}", file=sys.stderr)
    return 0
