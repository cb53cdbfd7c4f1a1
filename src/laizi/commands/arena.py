"""``laizi arena``: bots against each other, duplicate-style, with 95% intervals.

    laizi arena jingzhou --bots search,greedy,greedy --hands 2000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys

from laizi.commands import Subparsers
from laizi.sim.cli_common import add_run_arguments

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "arena", help="play bots against each other (every deal with the bots rotated)",
        description="Play every seed once per rotation of the bots through the seats "
                    "(duplicate style) and report points per hand per bot with a 95% "
                    "confidence interval over seeds.")
    p.add_argument("variant", help="variant id (jingzhou, huanghuang, golden, mcr, taiwan)")
    p.add_argument("--bots", default="greedy,random",
                   help="comma-separated bot specs, one per seat; a shorter list is padded "
                        "with its last entry (default: greedy,random); in mcr "
                        "'botzone:keep=1:cmd=COMMAND' seats an outside Botzone-protocol "
                        "program (docs/bots.md); 'model:PATH' a network trained by "
                        "'laizi train'")
    p.add_argument("--hands", type=int, default=300, help="hands to play (rounded up to a "
                   "multiple of the seats; default 300)")
    p.add_argument("--streams", action="store_true",
                   help="deal every hand with per-seat draw streams (分墙): a seat draws "
                        "the same tiles in every rotation, whatever the claims")
    add_run_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from laizi.sim.cli_common import UserError, check_common, progress_bar

    try:
        variant, bots, options = check_common(args)
        if args.hands < 1:
            raise UserError("--hands must be at least 1")
        from laizi.sim.arena import arena_summary, arena_tasks
        from laizi.sim.parallel import RayMissingError, run_tasks

        tasks = arena_tasks(variant, bots, args.hands, args.seed, options,
                            streams=args.streams)
        try:
            with progress_bar(len(tasks), f"arena {variant}", not args.no_progress) as tick:
                results = run_tasks(tasks, workers=args.workers, ray=args.ray, progress=tick)
        except RayMissingError as exc:
            raise UserError(str(exc)) from None
    except UserError as exc:
        print(f"laizi arena: {exc}", file=sys.stderr)
        return 2
    summary = arena_summary(variant, tasks, results)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
        return 0
    from rich.console import Console

    from laizi.sim.report import print_arena

    print_arena(summary, Console())
    return 0
