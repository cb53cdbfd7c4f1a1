"""Argument checks and the progress bar shared by ``laizi arena`` and ``laizi simulate``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["UserError", "check_common", "progress_bar"]


class UserError(Exception):
    """A mistake in the command line: printed as one line, exit status 2."""


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """The options ``arena`` and ``simulate`` share: where and how the hands run."""
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--ray", nargs="?", const=True, default=None, metavar="ADDRESS",
                   help="spread hands over a Ray cluster (local by default; extra 'cluster')")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option, e.g. --option cap=200 (repeatable)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def check_common(args: argparse.Namespace) -> tuple[str, list[str], dict[str, object]]:
    """(variant id, bot specs padded to the seats, options) or :class:`UserError`."""
    from laizi.bots.registry import BotSpecError, check_variant, make_bot
    from laizi.errors import OptionsError
    from laizi.sim.arena import fill_bots
    from laizi.variants import get as get_variant
    from laizi.variants.options import parse_option_values

    try:
        v = get_variant(args.variant)
    except KeyError as exc:
        raise UserError(str(exc.args[0])) from None
    specs = [s.strip() for s in str(args.bots).split(",") if s.strip()]
    for s in specs:
        try:
            # Built once here, not only parsed: a value the bot refuses (budget_ms=-1)
            # must be named now, not raised by every worker.
            make_bot(s)
            check_variant(s, v.id)
        except BotSpecError as exc:
            raise UserError(str(exc)) from None
    try:
        bots = fill_bots(specs, v.seats)
    except ValueError as exc:
        raise UserError(f"--bots: {exc}") from None
    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    try:
        options = parse_option_values(v, args.option)
    except OptionsError as exc:
        raise UserError(exc.message) from None
    if args.ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            raise UserError("--ray needs Ray: pip install 'laizi[cluster]'") from None
    return v.id, bots, options


@contextmanager
def progress_bar(total: int, label: str, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr; yields ``tick(k)``."""
    if not enabled:
        yield lambda k: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(),
                  console=Console(file=sys.stderr), transient=False) as prog:
        task = prog.add_task(label, total=total)
        yield lambda k: prog.advance(task, k)
