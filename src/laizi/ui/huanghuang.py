"""``laizi play huanghuang --people N``: a 晃晃 room at the terminal.

You are one of N people (4-8) in the room, with bots for the others. Four sit at the table,
the rest wait; after each hand 下桌 sends people to the back of the queue and brings
waiting people in. Everyone buys a horse (买马) every hand. While you wait, the bots play
the hand and you see its result: the table's payments, the horses, who leaves and who
enters, and everyone's running score. See ``docs/rooms.md``.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import IO

from rich.console import Console
from rich.table import Table

from laizi import tiles as T
from laizi.bots.base import Bot
from laizi.bots.simple import SimpleBot
from laizi.table.horses import horse_seat, horse_value
from laizi.table.room import MAX_PEOPLE, SEATS, Room, RoomError, new_room
from laizi.ui.terminal import settlement_table
from laizi.variants.huanghuang import VARIANT
from laizi.variants.huanghuang_session import RoomHand, new_hand, settle_room_hand

__all__ = ["ME", "hand_report", "play_room", "room_table"]

ME = "you"


def _fail(message: str) -> int:
    print(f"laizi play: {message}", file=sys.stderr)
    return 2


def room_table(room: Room) -> Table:
    """Seats, the queue and everyone's running score."""
    table = Table(title=f"Room after {room.hands} hand(s)")
    table.add_column("place")
    table.add_column("person")
    table.add_column("score", justify="right")
    for s, p in enumerate(room.seats):
        table.add_row(f"seat {s}" + (" (dealer)" if s == room.dealer else ""), p,
                      f"{room.ledger[p]:+d}")
    for i, p in enumerate(room.queue):
        table.add_row(f"waiting {i + 1}", p, f"{room.ledger[p]:+d}")
    for p, v in room.ledger.items():
        if p not in room.people:
            table.add_row("left the room", p, f"{v:+d}")
    return table


def hand_report(hand: RoomHand) -> list[str]:
    """Plain lines: the horses, the horse payments, who left and who entered."""
    lines = []
    for h in hand.horses:
        s = horse_seat(h.tile, hand.dealer)
        lines.append(f"horse of {h.person}: {T.name(h.tile)} = {horse_value(h.tile)} → "
                     f"seat {s} ({hand.seats[s]})")
    if not hand.horse_payments:
        lines.append("no horse settles" + (" (drawn hand)" if hand.outcome.winner is None
                                           else ""))
    for p in hand.horse_payments:
        lines.append(f"  {p.payer} pays {p.payee} {p.amount}  ({p.reasons[0]})")
    lines.append("hand result: " + "  ".join(f"{p} {v:+d}" for p, v in hand.net.items() if v))
    rot = hand.rotation
    if rot.left:
        lines.append("下桌 leaves: " + ", ".join(f"{p} (seat {s})" for s, p in rot.left))
        lines.append("enters: " + ", ".join(f"{p} (seat {s})" for s, p in rot.entered))
    else:
        lines.append("nobody leaves the table")
    return lines


def play_room(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    """The 晃晃 room session (registered as the ``laizi play huanghuang`` front end)."""
    from laizi.commands.play import _parse_options, _Quit, play_hand

    people = getattr(args, "people", None) or SEATS
    if not SEATS <= people <= MAX_PEOPLE:
        return _fail(f"--people must be {SEATS}-{MAX_PEOPLE} for huanghuang, got {people}")
    if args.hands < 1:
        return _fail("--hands must be at least 1")
    try:
        options = VARIANT.options_from_json(_parse_options(args.option))
    except (TypeError, ValueError) as exc:
        return _fail(str(exc))
    if options.horses:
        return _fail("option horses is set by the room (everyone buys a horse)")
    if not 0 <= args.seat < SEATS or not 0 <= args.dealer < SEATS:
        return _fail(f"--seat and --dealer must be 0-{SEATS - 1}")
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    names = [f"bot{i}" for i in range(1, people)]
    names.insert(args.seat, ME)
    try:
        room = new_room(names, dealer=args.dealer)
    except RoomError as exc:
        return _fail(str(exc))
    console = Console(file=stdout, width=110, highlight=False,
                      force_terminal=stdout.isatty() if hasattr(stdout, "isatty") else False)
    bots: dict[str, Bot] = {p: SimpleBot() for p in names}
    console.print(f"[bold]{VARIANT.name}[/bold] (huanghuang) · seed {seed} · {people} people "
                  f"· {args.hands} hand(s)")
    console.print(room_table(room))
    try:
        for k in range(args.hands):
            game, order = new_hand(room, seed + k, base=options.base)
            seats = room.seats
            console.rule(f"hand {k + 1} · seed {game.seed} · dealer {seats[room.dealer]}")
            me = room.seat_of(ME)
            if me is not None and not args.auto:
                seat_bots: list[Bot] = [bots[p] for p in seats]
                play_hand(game, me, seat_bots, list(seats), console, stdin, auto=False)
            else:
                if me is None:
                    console.print(f"You are waiting (place {room.queue.index(ME) + 1} in the "
                                  "queue); the bots play this hand.")
                while not game.over:
                    for s in game.to_act():
                        game.apply(bots[seats[s]].choose(game.view(s), game.legal_actions(s)))
            hand = settle_room_hand(room, game, order)
            console.print(settlement_table(game.log[-1], list(seats)))
            assert game.record is not None
            summary = VARIANT.describe(game.record)
            if summary:
                console.print(summary)
            for line in hand_report(hand):
                console.print(line)
            room = hand.rotation.room
            console.print(room_table(room))
            if k + 1 < args.hands and not args.auto:
                console.print("Enter for the next hand, q to leave: ", end="")
                line = stdin.readline()
                if not line or line.strip().lower() in ("q", "quit"):
                    raise _Quit
    except _Quit:
        console.print("\nYou leave the room.")
        console.print(room_table(room))
        return 0
    except KeyboardInterrupt:
        console.print("\nInterrupted: you leave the room.")
        return 130
    return 0


def _register() -> None:
    from laizi.commands.play import register_player

    register_player(VARIANT.id, play_room)


_register()
