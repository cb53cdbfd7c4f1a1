"""``laizi play VARIANT``: play at the terminal against bots.

Every variant plays the same way: one :class:`~laizi.table.table.Table` driven by the one
loop :func:`laizi.table.driver.play`, with a
:class:`~laizi.ui.player.TerminalController` at your seat (``--seat``) and a
:class:`~laizi.table.driver.BotController` at every other. Each decision lists your legal
actions, numbered; type the number (``?`` for help, ``q`` to leave). ``--seed`` makes the
table deal from a public seed (the same deals again; for practice and tests), otherwise
the table draws a fresh secret and reveals it only when it closes. ``--hands`` plays
several hands with a running ledger, ``--auto`` lets a bot play your seat too (a
demonstration, and a way to test without a keyboard), ``--save LOG`` writes the closed
table's log for ``laizi verify``. End of input or Ctrl-C leaves the table cleanly with the
ledger shown. See ``docs/play.md``.

What a variant shows beyond the board (Taiwan's 圈 and 台, 晃晃's room and horses, the
81-fan rules) are display hooks (:func:`laizi.ui.player.display_for`), not other loops.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, Any

from rich.console import Console

from laizi.bots.simple import SimpleBot
from laizi.errors import LaiziError, OptionsError
from laizi.table.driver import BotController, Controller, play
from laizi.table.session import session_for
from laizi.table.table import Table
from laizi.ui.player import (
    Display,
    Quit,
    Screen,
    TerminalController,
    display_for,
    hands_played,
)
from laizi.variants import get, ids
from laizi.variants.options import parse_options

__all__ = ["bot_for", "register", "run"]

ME = "you"
"""The name of the person at the terminal."""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "play", help="play a variant at the terminal against bots",
        description="Play at the terminal against bots. Type the number of an action; "
                    "? for help, q to leave.")
    p.add_argument("variant", metavar="VARIANT", help="variant id, e.g. jingzhou")
    p.add_argument("--seed", type=int, default=None,
                   help="deal from this public seed (the same deals every time); without "
                        "it the table deals from a fresh secret")
    p.add_argument("--hands", type=int, default=None,
                   help="number of hands (default 1; taiwan: the whole 将)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--dealer", type=int, default=0, help="dealer of the first hand")
    p.add_argument("--auto", action="store_true", help="a bot plays your seat too")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option, e.g. --option cap=200 (repeatable)")
    p.add_argument("--people", type=int, default=None,
                   help="huanghuang: people in the room, 4-8 (the rest wait their turn)")
    p.add_argument("--save", metavar="LOG", default=None,
                   help="write the table log (JSON lines) to LOG when the table closes; "
                        "check it with `laizi verify LOG`")
    p.set_defaults(func=run)


def bot_for(variant_id: str) -> Any:
    """The bot that plays the other seats of ``variant_id``."""
    if variant_id == "taiwan":
        from laizi.variants.taiwan_bot import TaiwanBot

        return TaiwanBot()
    return SimpleBot()


class _UserError(Exception):
    """A mistake on the command line: one line on stderr, exit status 2."""


def _setup(args: argparse.Namespace) -> tuple[Table, Display, int | None]:
    try:
        variant = get(args.variant)
    except KeyError:
        raise _UserError(f"unknown variant {args.variant!r}; known: {', '.join(ids())}"
                         ) from None
    display = display_for(variant.id)
    n = variant.seats
    people = getattr(args, "people", None)
    if people is not None and not display.room:
        raise _UserError(f"--people is only for a room variant (huanghuang), not "
                         f"{variant.id}")
    for name in ("seat", "dealer"):
        if not 0 <= getattr(args, name) < n:
            raise _UserError(f"--{name} must be 0-{n - 1} for {variant.id}")
    save = getattr(args, "save", None)
    if save is not None and (Path(save).is_dir() or not Path(save).parent.is_dir()):
        raise _UserError(f"cannot write {save}: not a file in an existing directory")
    hands = args.hands if args.hands is not None else display.default_hands
    if hands is not None and hands < 1:
        raise _UserError("--hands must be at least 1")
    try:
        options = parse_options(variant, args.option)
    except OptionsError as exc:
        raise _UserError(exc.message) from None
    refused = display.check_options(options)
    if refused:
        raise _UserError(refused)
    if display.room:
        count = people if people is not None else n
        seats_max = session_for(variant).max_people
        if not n <= count <= seats_max:
            raise _UserError(f"--people must be {n}-{seats_max} for {variant.id}, got "
                             f"{count}")
        names = [f"bot{i}" for i in range(1, count)]
        names.insert(args.seat, ME)
    else:
        names = [ME if s == args.seat and not args.auto else f"bot {s}" for s in range(n)]
    try:
        table = Table(variant, options, names, seed=args.seed, dealer=args.dealer)
    except LaiziError as exc:
        raise _UserError(exc.message) from None
    return table, display, hands


def run(args: argparse.Namespace, stdin: IO[str] | None = None,
        stdout: IO[str] | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    try:
        table, display, hands = _setup(args)
    except _UserError as exc:
        print(f"laizi play: {exc}", file=sys.stderr)
        return 2
    console = Console(file=stdout, width=display.width, highlight=False,
                      force_terminal=stdout.isatty() if hasattr(stdout, "isatty") else False)
    me = table.person_at(args.seat)
    screen = Screen(table, me, display, console)
    person = None if args.auto else TerminalController(screen, stdin)
    controllers: dict[str, Controller] = {
        p: person if p == me and person is not None else BotController(bot_for(table.variant.id))
        for p in table.people}
    for item in display.header(table, me, hands):
        console.print(item)
    if person is not None:
        console.print("Type the number of an action and press Enter; ? for help, q to leave.")
    played = 0

    def after_hand(t: Table) -> None:
        nonlocal played
        played += 1
        screen.after_hand()
        if person is not None and not t.over and (hands is None or played < hands):
            person.next_hand()

    code = 0
    try:
        play(table, controllers, hands=hands, after_hand=after_hand)
        for line in display.farewell(table):
            console.print(line)
    except Quit:
        console.print(f"\n{display.leaving}")
        if table.in_hand:
            console.print(f"Hand {table.number} is abandoned (no settlement).")
        if hands_played(table):
            screen.show_standing()
    except KeyboardInterrupt:
        console.print(f"\nInterrupted: {display.leaving[0].lower()}{display.leaving[1:]}")
        if hands_played(table):
            screen.show_standing()
        code = 130
    table.close()
    return _save(table, getattr(args, "save", None), console) or code


def _save(table: Table, path: str | None, console: Console) -> int:
    if path is None:
        return 0
    try:
        Path(path).write_text(table.dumps(), encoding="utf-8")
    except OSError as exc:
        print(f"laizi play: cannot write {path}: {exc}", file=sys.stderr)
        return 2
    console.print(f"Table log written to {path} (check it: laizi verify {path}).")
    return 0

