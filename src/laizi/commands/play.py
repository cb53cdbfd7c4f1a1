"""``laizi play VARIANT``: play at the terminal against bots.

You sit at seat 0 (``--seat``) against :class:`~laizi.bots.simple.SimpleBot` players. Each
decision lists your legal actions, numbered; type the number (``?`` for help, ``q`` to
leave). ``--seed`` deals a known hand again (hand k of a session uses seed + k),
``--hands`` plays several hands with a running ledger, ``--auto`` lets a bot play your seat
too (a demonstration, and a way to test without a keyboard). End of input or Ctrl-C leaves
the table cleanly with the ledger shown. See ``docs/play.md``.

Variants play through one generic loop; a variant that needs its own front end registers
it with :func:`register_player`.
"""

from __future__ import annotations

import argparse
import importlib
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from rich.console import Console

from laizi.bots.base import Bot
from laizi.bots.simple import SimpleBot
from laizi.engine.actions import Action
from laizi.engine.game import Game
from laizi.engine.log import redact
from laizi.table.match import Match
from laizi.ui.terminal import (
    action_label,
    event_line,
    ledger_table,
    settlement_table,
    tile_label,
    view_panel,
)
from laizi.variants import get, ids

__all__ = ["PLAYERS", "register", "register_player", "run", "session"]

Player = Callable[[argparse.Namespace, IO[str], IO[str]], int]
PLAYERS: dict[str, Player] = {}
"""Variant id → a custom front end; variants not listed use :func:`session`."""


def register_player(variant_id: str, player: Player) -> None:
    PLAYERS[variant_id] = player


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "play", help="play a variant at the terminal against bots",
        description="Play at the terminal against bots. Type the number of an action; "
                    "? for help, q to leave.")
    p.add_argument("variant", metavar="VARIANT", help="variant id, e.g. jingzhou")
    p.add_argument("--seed", type=int, default=None,
                   help="deal from this seed (hand k of the session uses SEED + k)")
    p.add_argument("--hands", type=int, default=1, help="number of hands (default 1)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--dealer", type=int, default=0, help="dealer of the first hand")
    p.add_argument("--auto", action="store_true", help="a bot plays your seat too")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option, e.g. --option cap=200 (repeatable)")
    p.add_argument("--people", type=int, default=None,
                   help="huanghuang: people in the room, 4-8 (the rest wait their turn)")
    p.set_defaults(func=run)


class _Quit(Exception):
    """The player left the table (q, end of input)."""


def _parse_options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--option {pair!r}: expected NAME=VALUE")
        low = value.strip().lower()
        if low in ("true", "yes", "on"):
            out[name.strip()] = True
        elif low in ("false", "no", "off"):
            out[name.strip()] = False
        else:
            try:
                out[name.strip()] = int(value)
            except ValueError:
                out[name.strip()] = value
    return out


def run(args: argparse.Namespace, stdin: IO[str] | None = None,
        stdout: IO[str] | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    try:
        variant = get(args.variant)
    except KeyError:
        print(f"laizi play: unknown variant {args.variant!r}; known: {', '.join(ids())}",
              file=sys.stderr)
        return 2
    _load_front_end(variant.id)
    if getattr(args, "people", None) is not None and variant.id not in PLAYERS:
        print(f"laizi play: --people is only for a room variant (huanghuang), not {variant.id}",
              file=sys.stderr)
        return 2
    player = PLAYERS.get(variant.id, session)
    return player(args, stdin, stdout)


def _load_front_end(variant_id: str) -> None:
    """Import ``laizi.ui.<variant_id>`` if it exists: it registers its own front end."""
    try:
        importlib.import_module(f"laizi.ui.{variant_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"laizi.ui.{variant_id}":
            raise


def session(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    """The generic terminal session: one human seat, bots elsewhere, a running ledger."""
    variant = get(args.variant)
    try:
        options = variant.options_from_json(_parse_options(args.option))
    except (TypeError, ValueError) as exc:
        print(f"laizi play: {exc}", file=sys.stderr)
        return 2
    n = variant.seats
    for name in ("seat", "dealer"):
        if not 0 <= getattr(args, name) < n:
            print(f"laizi play: --{name} must be 0-{n - 1} for {variant.id}", file=sys.stderr)
            return 2
    if args.hands < 1:
        print("laizi play: --hands must be at least 1", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    console = Console(file=stdout, width=110, highlight=False,
                      force_terminal=stdout.isatty() if hasattr(stdout, "isatty") else False)
    me = args.seat
    names = ["you" if s == me and not args.auto else f"bot {s}" for s in range(n)]
    bots: list[Bot] = [SimpleBot() for _ in range(n)]
    match = Match(variant, options, seed=seed, dealer=args.dealer)
    console.print(f"[bold]{variant.name}[/bold] ({variant.id}) · seed {seed} · "
                  f"{args.hands} hand(s) · you are seat {me}")
    if not args.auto:
        console.print("Type the number of an action and press Enter; ? for help, q to leave.")
    try:
        for k in range(args.hands):
            game = match.new_hand()
            console.rule(f"hand {k + 1} · seed {game.seed}")
            play_hand(game, me, bots, names, console, stdin, auto=args.auto)
            match.finish_hand(game)
            console.print(settlement_table(game.log[-1], names))
            summary = variant.describe(game.record) if game.record else ""
            if summary:
                console.print(summary)
            console.print(ledger_table(match.ledger, names, len(match.hands)))
            if k + 1 < args.hands and not args.auto:
                console.print("Enter for the next hand, q to leave: ", end="")
                line = stdin.readline()
                if not line or line.strip().lower() in ("q", "quit"):
                    raise _Quit
    except _Quit:
        console.print("\nYou leave the table.")
        if match.hands:
            console.print(ledger_table(match.ledger, names, len(match.hands)))
        return 0
    except KeyboardInterrupt:
        console.print("\nInterrupted: you leave the table.")
        if match.hands:
            console.print(ledger_table(match.ledger, names, len(match.hands)))
        return 130
    return 0


ShowEvents = Callable[[Game, int, list[str], Console, int], int]
AskAction = Callable[[Game, int, list[str], Console, IO[str]], Action]


def play_hand(game: Game, me: int, bots: Sequence[Bot], names: list[str], console: Console,
              stdin: IO[str], *, auto: bool, show: ShowEvents | None = None,
              ask: AskAction | None = None) -> None:
    """Play one hand to its end: the person at seat ``me`` answers at the terminal (unless
    ``auto``), bots answer for the other seats. A variant's front end passes its own
    ``show`` (event lines) and ``ask`` (the numbered prompt)."""
    show = show or _show_events
    ask = ask or _ask
    shown = 0
    while not game.over:
        for seat in game.to_act():
            if seat == me and not auto:
                shown = show(game, me, names, console, shown)
                game.apply(ask(game, me, names, console, stdin))
            else:
                game.apply(bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    show(game, me, names, console, shown)


def _show_events(game: Game, me: int, names: list[str], console: Console, start: int) -> int:
    for event in game.log[start:]:
        seen = redact(event, me)
        if seen is None:
            continue
        line = event_line(seen, names, me, game.wildcard)
        if line:
            console.print(line, style="dim")
    return len(game.log)


_HELP = ("Type the number of an action and press Enter. 赖子 (laizi, marked *) stands for "
         "any tile; 中 and the laizi can only be played out as kongs (红中杠 / 赖子杠). "
         "q leaves the table.")


def _ask(game: Game, me: int, names: list[str], console: Console, stdin: IO[str]) -> Action:
    view = game.view(me)
    acts = game.legal_actions(me)
    console.print(view_panel(view, names))
    if view["last_discard"]:
        d = view["last_discard"]
        console.print(f"{names[d['seat']]} discarded {tile_label(d['tile'])}")
    if view["robbing"]:
        r = view["robbing"]
        console.print(f"{names[r['seat']]} adds a kong of {tile_label(r['tile'])}: rob it (抢杠)?")
    wildcard = view.get("wildcard")
    for i, a in enumerate(acts, 1):
        console.print(f"  {i:>2}) {action_label(a, wildcard)}")
    while True:
        console.print("your choice: ", end="")
        line = stdin.readline()
        if not line:
            raise _Quit
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            raise _Quit
        if text in ("?", "h", "help"):
            console.print(_HELP)
            continue
        if text.isdigit() and 1 <= int(text) <= len(acts):
            return acts[int(text) - 1]
        console.print(f"Please type a number from 1 to {len(acts)} (? for help, q to leave).")
