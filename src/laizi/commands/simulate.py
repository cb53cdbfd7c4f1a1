"""``laizi simulate``: many hands with bots, in parallel, and their statistics.

``--plot`` is checked (a writable file in an existing directory, matplotlib installed)
before the first hand is dealt: a long run must not end in an error it could have named
at once.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from laizi.commands import Subparsers
from laizi.sim.cli_common import add_run_arguments

__all__ = ["check_plot_path", "register", "run"]

EXAMPLES = """examples:
  laizi simulate jingzhou --hands 40 --bots greedy,greedy,random --no-progress
  laizi simulate golden --hands 8 --bots greedy --workers 2 --json --no-progress
  laizi simulate taiwan --hands 8 --bots greedy,random --rotate --plot taiwan.png
"""


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "simulate", help="simulate many hands with bots and summarise them",
        description="Play hands with seeds SEED, SEED+1, … and print win and draw rates, "
                    "points per seat and per bot, hand-type frequencies and hand lengths.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant", help="variant id (jingzhou, huanghuang, golden, mcr, taiwan)")
    p.add_argument("--hands", type=int, default=1000, help="hands to play (default 1000)")
    p.add_argument("--bots", default="greedy",
                   help="comma-separated bot specs for seats 0, 1, …; a shorter list is "
                        "padded with its last entry (default: greedy); in mcr "
                        "'botzone:keep=1:cmd=COMMAND' seats an outside Botzone-protocol "
                        "program (docs/bots.md)")
    p.add_argument("--rotate", action="store_true",
                   help="rotate the bots through the seats hand by hand")
    p.add_argument("--plot", metavar="FILE.png", help="write a figure (needs matplotlib)")
    add_run_arguments(p)
    p.set_defaults(func=run)


def check_plot_path(path: str) -> str | None:
    """Why the figure cannot be written to ``path`` (``None`` when it can)."""
    target = Path(path)
    if target.is_dir():
        return f"--plot {path}: is a directory, not a file"
    parent = target.parent
    if not parent.is_dir():
        return f"--plot {path}: no directory {str(parent)!r}"
    if target.suffix.lower() not in (".png", ".svg", ".pdf", ".jpg", ".jpeg"):
        return f"--plot {path}: expected a .png (or .svg, .pdf, .jpg) file name"
    import os

    if not os.access(parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return f"--plot {path}: not writable"
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        return "--plot needs matplotlib: pip install 'laizi[plot]'"
    return None


def run(args: argparse.Namespace) -> int:
    from laizi.sim.cli_common import UserError, check_common, progress_bar

    try:
        variant, bots, options = check_common(args)
        if args.hands < 1:
            raise UserError("--hands must be at least 1")
        if args.plot:
            why = check_plot_path(args.plot)
            if why is not None:
                raise UserError(why)
        from laizi.sim.simulate import simulate_tasks

        tasks = simulate_tasks(variant, bots, args.hands, args.seed, options, args.rotate)
        from laizi.sim.parallel import RayMissingError, run_tasks
        from laizi.sim.stats import summarise

        try:
            with progress_bar(len(tasks), f"simulate {variant}", not args.no_progress) as tick:
                results = run_tasks(tasks, workers=args.workers, ray=args.ray, progress=tick)
        except RayMissingError as exc:
            raise UserError(str(exc)) from None
        summary = summarise(results)
        summary["variant"] = variant
        summary["bots"] = list(tasks[0].bots)
        if args.plot:
            from laizi.sim.report import plot_summary

            try:
                plot_summary(summary, results, args.plot)
            except (RuntimeError, OSError) as exc:
                raise UserError(str(exc)) from None
    except UserError as exc:
        print(f"laizi simulate: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
        return 0
    from rich.console import Console

    from laizi.sim.report import print_summary

    console = Console()
    print_summary(summary, console)
    if args.plot:
        console.print(f"figure written to {args.plot}", markup=False, highlight=False)
    return 0
