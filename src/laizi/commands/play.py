"""``laizi play VARIANT``: play at the terminal against bots.

Every variant plays the same way: one :class:`~laizi.table.table.Table` driven by the one
loop :func:`laizi.table.driver.play`, with a
:class:`~laizi.ui.player.TerminalController` at your seat (``--seat``) and a
:class:`~laizi.table.driver.BotController` at every other (``--bots`` chooses them).
Each decision lists your legal actions, numbered; type the number or the tile (``?`` for
the variant's rules, ``q`` to leave). ``--seed`` makes the table deal from a public seed
(the same deals again; for practice and tests), otherwise the table draws a fresh secret
and reveals it only when it closes. ``--hands N`` plays N hands (one by default, in
every variant; ``all``: the variant's whole session) with a running ledger, ``--auto``
lets a bot play your seat too (a demonstration, paced by ``--delay``, and a way to test
without a keyboard), ``--save LOG`` writes the closed table's log for ``laizi verify``
and ``--replay LOG``, ``--records FILE`` its hand records for ``laizi score``. End of
input or Ctrl-C leaves the table cleanly with the ledger shown. See ``docs/play.md``.

What a variant shows beyond the board (Taiwan's 圈 and 台, 晃晃's room and horses, the
81-fan rules) are display hooks (:func:`laizi.ui.player.display_for`), not other loops.
The screen is as wide as the terminal (``COLUMNS`` when set).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from rich.console import Console

from laizi.bots.base import Bot
from laizi.bots.simple import SimpleBot
from laizi.commands import Subparsers
from laizi.errors import LaiziError, LogError, OptionsError
from laizi.table.driver import BotController, Controller, play
from laizi.table.session import Session, session_for
from laizi.table.table import Table
from laizi.ui.player import (
    Display,
    Keyboard,
    Quit,
    Screen,
    TerminalController,
    Watched,
    display_for,
    hands_played,
)
from laizi.ui.words import ME, plural
from laizi.variants import get, ids
from laizi.variants.options import parse_options
from laizi.vocab import TableEventType

__all__ = ["ME", "bot_for", "register", "run"]

AUTO_DELAY = 0.25
"""Seconds between two lines of a watched game (``--auto``) on a terminal."""


def _hands(text: str) -> int | None:
    if text.strip().lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of hands or 'all', got "
                                         f"{text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("--hands must be at least 1 (or 'all')")
    return value


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError("--delay must be 0-10 seconds")
    return value


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "play", help="play a variant at the terminal against bots",
        description="Play at the terminal against bots. Type the number of an action or "
                    "a tile (4z, 北); ? for the variant's rules, q to leave.")
    p.add_argument("variant", metavar="VARIANT", help="variant id, e.g. jingzhou")
    p.add_argument("--seed", type=int, default=None,
                   help="deal from this public seed (the same deals every time); without "
                        "it the table deals from a fresh secret")
    p.add_argument("--hands", type=_hands, default=1, metavar="N|all",
                   help="hands to play (default 1, in every variant); 'all': the whole "
                        "session (taiwan: a 将 of four 圈, golden / mcr: a match of 16 "
                        "hands, jingzhou / huanghuang: until you leave)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--dealer", type=int, default=0, help="dealer of the first hand")
    p.add_argument("--bots", default=None, metavar="SPEC[,SPEC...]",
                   help="the other players' bots in seat order after yours, e.g. "
                        "greedy,search (the last one fills the rest): random, simple, "
                        "greedy, search, with parameters as NAME:KEY=VALUE, and in mcr "
                        "botzone:keep=1:cmd=COMMAND, an outside Botzone-protocol program "
                        "(default: simple; taiwan: its own bot)")
    p.add_argument("--auto", action="store_true", help="a bot plays your seat too")
    p.add_argument("--delay", type=_delay, default=None, metavar="SECONDS",
                   help=f"pause after each move shown (default {AUTO_DELAY} with --auto on "
                        "a terminal, else 0)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option, e.g. --option cap=200 (repeatable)")
    p.add_argument("--people", type=int, default=None,
                   help="huanghuang: people in the room, 4-8 (the rest wait their turn)")
    p.add_argument("--save", metavar="LOG", default=None,
                   help="write the table log (JSON lines) to LOG when the table closes; "
                        "check it with `laizi verify LOG`, watch it with --replay LOG")
    p.add_argument("--records", metavar="FILE", default=None,
                   help="write the hand record of every finished hand to FILE (JSON lines, "
                        "docs/hand-record.md), to settle with `laizi score`")
    p.add_argument("--replay", metavar="LOG", default=None,
                   help="show a saved table (--save LOG) again, hand by hand, as the "
                        "person at --seat saw it, every hand shown at its end")
    p.set_defaults(func=run)


def bot_for(variant_id: str) -> Bot:
    """The bot that plays the other seats of ``variant_id`` when ``--bots`` is not given."""
    if variant_id == "taiwan":
        from laizi.variants.taiwan_bot import TaiwanBot

        return TaiwanBot()
    return SimpleBot()


class _UserError(Exception):
    """A mistake on the command line: one line on stderr, exit status 2."""


@dataclass
class _Setup:
    table: Table
    display: Display
    hands: int | None
    bots: dict[str, Bot]
    """The bot of each person other than you (by name)."""


def _bots(variant_id: str, text: str | None, names: list[str], seed: int | None
          ) -> dict[str, Bot]:
    """A bot for each name: the ``--bots`` specs in order (the last repeated), else the
    variant's default bot."""
    if text is None:
        return {p: bot_for(variant_id) for p in names}
    from laizi.bots.registry import BotSpecError, check_variant, make_bot

    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise _UserError("--bots: no bot given")
    if len(specs) > len(names):
        others = "1 other player" if len(names) == 1 else f"{len(names)} other players"
        raise _UserError(f"--bots: {len(specs)} bots for {others}")
    out = {}
    for i, p in enumerate(names):
        spec = specs[min(i, len(specs) - 1)]
        try:
            # Each bot its own seed, from the table's: the same seed plays the same game
            # (for a deterministic bot).
            out[p] = make_bot(spec, seed=(seed or 0) * 100 + i + 1)
            check_variant(spec, variant_id)
        except BotSpecError as exc:
            raise _UserError(f"--bots: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise _UserError(f"--bots: bad bot {spec!r}: {exc}") from None
    return out


def _setup(args: argparse.Namespace) -> _Setup:
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
    for flag in ("save", "records"):
        path = getattr(args, flag, None)
        if path is not None and (Path(path).is_dir() or not Path(path).parent.is_dir()):
            raise _UserError(f"cannot write {path}: not a file in an existing directory")
    hands = args.hands
    session = session_for(variant)
    endless = session.max_hands() is None and type(session).over is Session.over
    if hands is None and args.auto and endless:
        raise _UserError(f"--hands all with --auto would never end: {variant.id} plays "
                         "until you leave")
    try:
        options = parse_options(variant, args.option)
    except OptionsError as exc:
        raise _UserError(exc.message) from None
    refused = display.check_options(options)
    if refused:
        raise _UserError(refused)
    count = n
    if display.room:
        count = people if people is not None else n
        seats_max = session_for(variant).max_people
        if not n <= count <= seats_max:
            raise _UserError(f"--people must be {n}-{seats_max} for {variant.id}, got "
                             f"{count}")
    # One name per person: you, and the bots numbered in seat order after you.
    others = [f"bot {i}" for i in range(1, count)]
    names = [*others[:args.seat], ME, *others[args.seat:]]
    bots = _bots(variant.id, getattr(args, "bots", None), others, args.seed)
    try:
        table = Table(variant, options, names, seed=args.seed, dealer=args.dealer)
    except LaiziError as exc:
        raise _UserError(exc.message) from None
    return _Setup(table, display, hands, bots)


def _console(stdout: IO[str]) -> Console:
    tty = _is_tty(stdout)
    # On a terminal rich asks its width at every print (COLUMNS first), so the screen
    # follows a resized window; elsewhere COLUMNS, else 100.
    width = None if tty else max(20, shutil.get_terminal_size((100, 24)).columns)
    return Console(file=stdout, width=width, highlight=False, force_terminal=tty)


def _is_tty(stream: Keyboard | IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def run(args: argparse.Namespace, stdin: Keyboard | None = None,
        stdout: IO[str] | None = None) -> int:
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout or sys.stdout
    if getattr(args, "replay", None) is not None:
        return _replay(args, stdout)
    try:
        setup = _setup(args)
    except _UserError as exc:
        print(f"laizi play: {exc}", file=sys.stderr)
        return 2
    table, display, hands = setup.table, setup.display, setup.hands
    console = _console(stdout)
    delay = args.delay if getattr(args, "delay", None) is not None else (
        AUTO_DELAY if args.auto and _is_tty(stdout) else 0.0)
    me = ME
    screen = Screen(table, me, display, console, delay=delay)
    person = None if args.auto else TerminalController(screen, stdin,
                                                       echo=not _is_tty(stdin))
    controllers: dict[str, Controller] = {}
    for p in table.people:
        if p == me and person is not None:
            controllers[p] = person
            continue
        bot: Controller = BotController(setup.bots.get(p) or bot_for(table.variant.id))
        # A paced screen shows the game move by move: catch up before each bot move.
        controllers[p] = Watched(bot, screen) if delay > 0 else bot
    for item in display.header(table, me, hands):
        console.print(item)
    if person is not None:
        console.print("Type the number of an action or a tile (4z, 北) and press Enter; ? "
                      "for the rules, q to leave.")
    played = 0

    def after_hand(t: Table) -> None:
        nonlocal played
        played += 1
        screen.after_hand()
        if person is not None and not t.over and (hands is None or played < hands):
            person.next_hand()
            if display.buys_horses:
                person.ask_horse(t)

    code = 0
    try:
        if person is not None and display.buys_horses and not table.over:
            person.ask_horse(table)
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
    saved = _save(table, getattr(args, "save", None), console)
    kept = _records(table, getattr(args, "records", None), console)
    return saved or kept or code


def _save(table: Table, path: str | None, console: Console) -> int:
    if path is None:
        return 0
    try:
        Path(path).write_text(table.dumps(), encoding="utf-8")
    except OSError as exc:
        print(f"laizi play: cannot write {path}: {exc}", file=sys.stderr)
        return 2
    # A path is never read as markup (a [ or ] in it is the path's).
    console.print(f"Table log written to {path} (check it: laizi verify {path}; watch it "
                  f"again: laizi play {table.variant.id} --replay {path}).",
                  markup=False, highlight=False)
    return 0


def _records(table: Table, path: str | None, console: Console) -> int:
    """The hand record of every finished hand, one JSON object a line, as the table
    wrote it into its log (the format of docs/hand-record.md)."""
    if path is None:
        return 0
    lines = [json.dumps(e["record"], ensure_ascii=False, sort_keys=True)
             for e in table.log if e["type"] == TableEventType.HAND_END]
    try:
        Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    except OSError as exc:
        print(f"laizi play: cannot write {path}: {exc}", file=sys.stderr)
        return 2
    console.print(f"{plural(len(lines), 'hand record')} written to {path} (settle one: "
                  "laizi score RECORD.json).", markup=False, highlight=False)
    return 0


def _hands_in(lines: list[str]) -> int:
    """The hands a table log deals."""
    count = 0
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # Table.replay names the bad line
        count += isinstance(entry, dict) and entry.get("type") == TableEventType.HAND
    return count


def _replay(args: argparse.Namespace, stdout: IO[str]) -> int:
    """A saved table again, as the person at ``--seat`` saw it (``Table.replay`` checks
    every line on the way, as ``laizi verify`` does)."""
    path = Path(args.replay)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"laizi play: cannot read {path}: {getattr(exc, 'strerror', None) or exc}",
              file=sys.stderr)
        return 2
    try:
        head = json.loads(lines[0]) if lines else {}
    except json.JSONDecodeError:
        head = {}
    variant = head.get("variant") if isinstance(head, dict) else None
    if variant != args.variant:
        print(f"laizi play: {path} is not a {args.variant} table log (its variant: "
              f"{variant!r})", file=sys.stderr)
        return 2
    people = head.get("people") or []
    if not 0 <= args.seat < len(people):
        print(f"laizi play: --seat {args.seat}: the log has {len(people)} people",
              file=sys.stderr)
        return 2
    display = display_for(variant)
    console = _console(stdout)
    person = str(people[args.seat])
    delay = args.delay if getattr(args, "delay", None) is not None else (
        AUTO_DELAY if _is_tty(stdout) else 0.0)
    screen: Screen | None = None
    shown = 0
    try:
        for _, table in Table.replay(lines):
            if screen is None:
                screen = Screen(table, person, display, console, delay=delay)
                for item in display.header(table, person, _hands_in(lines)):
                    console.print(item)
                console.print(f"Replay of {path}, as {person} saw it.")
            screen.catch_up()
            done = sum(1 for e in table.log if e["type"] == TableEventType.HAND_END)
            if done > shown:
                shown = done
                screen.after_hand()
    except LogError as exc:
        print(f"laizi play: {path}: {exc.message}", file=sys.stderr)
        return 2
    return 0
