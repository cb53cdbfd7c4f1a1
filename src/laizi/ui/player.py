"""The person at the terminal, and each variant's display hooks, on the one table loop.

``laizi play`` plays every variant the same way: a :class:`~laizi.table.table.Table`
driven by :func:`laizi.table.driver.play`, a :class:`TerminalController` at the person's
seat and :class:`~laizi.table.driver.BotController`\\ s elsewhere. What differs between
variants is only what is *drawn*: a :class:`Display` says what to print before the first
hand, when a hand is dealt, next to the board, for an action or an event, and after a
hand. A variant with more to show defines ``DISPLAY`` in ``laizi.ui.<variant id>``
(:func:`display_for`): Taiwan's 圈, winds, flowers and 台 (:mod:`laizi.ui.taiwan`), 晃晃's
room, horses and 下桌 (:mod:`laizi.ui.huanghuang`), the 81-fan rules (:mod:`laizi.ui.gb`).

A :class:`Screen` is what one person sees: it catches up with their own event stream
(:meth:`Table.events <laizi.table.table.Table.events>`), so it never shows more than the
person may know.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import IO, Any

from rich.console import Console, RenderableType

from laizi.engine.actions import Action
from laizi.table.driver import Decision
from laizi.table.table import Entry, Table
from laizi.ui.terminal import (
    action_label,
    event_line,
    ledger_table,
    settlement_table,
    tile_label,
    view_panel,
)

__all__ = ["Display", "Quit", "Screen", "TerminalController", "deal_text", "display_for",
           "hand_seats", "hands_played"]


class Quit(Exception):
    """The person left the table (``q``, or the end of input)."""


def hand_seats(table: Table) -> list[str]:
    """Who sat where in the current (or the last) hand; the seating before any hand."""
    for entry in reversed(table.log):
        if entry["type"] == "hand":
            return list(entry["seats"])
    return [p or "-" for p in table.seats]


def hands_played(table: Table) -> int:
    """Hands finished at the table (a hand in play is not counted)."""
    return table.number - (1 if table.in_hand else 0)


def deal_text(table: Table) -> str:
    """How the table deals: its public seed, or the start of its secret's commitment (the
    secret is revealed when the table closes; ``laizi verify`` checks it)."""
    if table.seed is not None:
        return f"seed {table.seed}"
    commitment = str(table.log[0].get("commitment", ""))
    return f"secret deals (commitment {commitment[:12]}…)"


class Display:
    """What the terminal shows for one variant; every hook has a plain default.

    Subclasses override only what their variant adds. ``names`` are the people of the
    hand by seat; ``me`` is the person at the terminal.
    """

    help = ("Type the number of an action and press Enter. 赖子 (laizi, marked *) stands "
            "for any tile; 中 and the laizi can only be played out as kongs (红中杠 / "
            "赖子杠). q leaves the table.")
    width = 110
    default_hands: int | None = 1
    """Hands played when ``--hands`` is not given (``None``: the whole session)."""
    room = False
    """Whether the variant has a room of more people than seats (``--people``)."""
    leaving = "You leave the table."

    def check_options(self, options: Any) -> str | None:
        """A reason to refuse the options at the command line, or ``None``."""
        return None

    def header(self, table: Table, me: str, hands: int | None) -> list[RenderableType]:
        """Printed once, before the first hand."""
        v = table.variant
        deal = deal_text(table)
        seat = table.seats.index(me) if me in table.seats else None
        where = f"you are seat {seat}" if seat is not None else "you are waiting"
        return [f"[bold]{v.name}[/bold] ({v.id}) · {deal} · {self.count(hands)} · {where}"]

    def count(self, hands: int | None) -> str:
        """How much is played, for the header."""
        return f"{hands} hand(s)" if hands is not None else "the whole session"

    def hand_title(self, hand: Entry) -> str:
        """The rule above a hand, from the table's ``hand`` entry."""
        seats = hand["seats"]
        return f"hand {hand['number'] + 1} · dealer {seats[hand['dealer']]}"

    def hand_note(self, hand: Entry, me: str) -> str | None:
        """A line under the rule for the person (e.g. that they wait this hand)."""
        return None

    def board(self, view: dict[str, Any], names: Sequence[str]) -> list[RenderableType]:
        """The table as the person sees it when they decide."""
        return [view_panel(view, names)]

    def notes(self, view: dict[str, Any], legal: Sequence[Action],
              names: Sequence[str]) -> list[str]:
        """What the decision is about (the discard to claim, the kong to rob)."""
        out = []
        if view.get("last_discard"):
            d = view["last_discard"]
            out.append(f"{names[d['seat']]} discarded {tile_label(d['tile'])}")
        if view.get("robbing"):
            r = view["robbing"]
            out.append(f"{names[r['seat']]} adds a kong of {tile_label(r['tile'])}: "
                       "rob it (抢杠)?")
        return out

    def action_label(self, action: Action, wildcard: int | None) -> str:
        return action_label(action, wildcard)

    def event(self, event: Entry, names: Sequence[str], me: int | None,
              wildcard: int | None) -> tuple[str, str] | None:
        """One line (text, style) for an event the person may see, or ``None``."""
        line = event_line(event, names, -1 if me is None else me, wildcard)
        return None if line is None else (line, "dim")

    def settlement(self, table: Table, end: Entry, names: Sequence[str]
                   ) -> list[RenderableType]:
        """After a hand: the payments and what the variant says about the hand."""
        out: list[RenderableType] = []
        game = table.game
        if game is not None and game.log and game.log[-1].get("type") == "end":
            out.append(settlement_table(game.log[-1], names))
        if game is not None and game.record is not None:
            summary = table.variant.describe(game.record)
            if summary:
                out.append(summary)
        return out

    def standing(self, table: Table) -> list[RenderableType]:
        """The running scores (after each hand, and when the person leaves)."""
        names = hand_seats(table)
        return [ledger_table([table.ledger.get(p, 0) for p in names], names,
                             hands_played(table))]

    def farewell(self, table: Table) -> list[str]:
        """Printed when the session has been played out."""
        return []


class Screen:
    """The terminal output of one person: their events, the board, the settlements."""

    def __init__(self, table: Table, person: str, display: Display, console: Console
                 ) -> None:
        self.table = table
        self.person = person
        self.display = display
        self.console = console
        self.seen = 0
        """The version of the person's stream already shown."""
        self.names: list[str] = hand_seats(table)
        self.titled = -1
        """The number of the last hand whose rule was printed."""

    def catch_up(self) -> None:
        """Print what happened since the person last looked (their own view of it)."""
        events = self.table.events(self.person, self.seen)
        game = self.table.game
        wildcard = game.wildcard if game is not None else None
        for ev in events:
            self.seen = ev["v"]
            kind = ev.get("type")
            if kind == "hand":
                self.names = list(ev["seats"])
                self.title(ev)
                continue
            if kind in ("table", "hand_end", "join", "leave", "horse", "entropy", "close"):
                continue
            me = self.names.index(self.person) if self.person in self.names else None
            if me is None:
                continue  # waiting: the bots play this hand
            line = self.display.event(ev, self.names, me, wildcard)
            if line is not None:
                self.console.print(line[0], style=line[1])

    def title(self, hand: Entry) -> None:
        if hand["number"] <= self.titled:
            return
        self.titled = hand["number"]
        self.console.rule(self.display.hand_title(hand))
        note = self.display.hand_note(hand, self.person)
        if note:
            self.console.print(note)

    def after_hand(self) -> None:
        """The end of a hand: the last events, the settlement and the running scores."""
        self.catch_up()
        end = next(e for e in reversed(self.table.log) if e["type"] == "hand_end")
        names = hand_seats(self.table)
        for item in self.display.settlement(self.table, end, names):
            self.console.print(item)
        self.show_standing()

    def show_standing(self) -> None:
        for item in self.display.standing(self.table):
            self.console.print(item)


class TerminalController:
    """A person at the terminal: shows the board, lists the legal actions numbered and
    reads the choice (``?`` help, ``q`` leaves: :class:`Quit`). A claim window in which
    the only legal action is ``pass`` is answered without asking (nothing to decide)."""

    def __init__(self, screen: Screen, stdin: IO[str]) -> None:
        self.screen = screen
        self.stdin = stdin

    def decide(self, decision: Decision) -> Action | None:
        legal = decision.legal
        if len(legal) == 1 and legal[0].type == "pass":
            return legal[0]
        screen = self.screen
        screen.catch_up()
        view = decision.view()
        names = [p or "-" for p in decision.table.seats]
        display, console = screen.display, screen.console
        for item in display.board(view, names):
            console.print(item)
        for line in display.notes(view, legal, names):
            console.print(line)
        wildcard = view.get("wildcard")
        for i, a in enumerate(legal, 1):
            console.print(f"  {i:>2}) {display.action_label(a, wildcard)}")
        while True:
            text = self._read("your choice: ")
            if text in ("?", "h", "help"):
                console.print(display.help)
                continue
            if text.isdigit() and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            console.print(f"Please type a number from 1 to {len(legal)} (? for help, q to "
                          "leave).")

    def next_hand(self) -> None:
        """Between hands: Enter goes on, ``q`` leaves."""
        self._read("Enter for the next hand, q to leave: ")

    def _read(self, prompt: str) -> str:
        self.screen.console.print(prompt, end="")
        line = self.stdin.readline()
        if not line:
            raise Quit
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            raise Quit
        return text


def display_for(variant_id: str) -> Display:
    """The display hooks of a variant: ``DISPLAY`` in ``laizi.ui.<variant_id>`` if that
    module exists, else the plain :class:`Display`."""
    try:
        module = importlib.import_module(f"laizi.ui.{variant_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"laizi.ui.{variant_id}":
            raise
        return Display()
    display = getattr(module, "DISPLAY", None)
    return display if isinstance(display, Display) else Display()
