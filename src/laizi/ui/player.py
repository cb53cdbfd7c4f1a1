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
person may know — until a hand ends, when every hand is shown (the hand record, which the
table publishes to everyone, holds them all).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from rich.cells import cell_len
from rich.console import Console, RenderableType

from laizi import tiles as T
from laizi.analysis import DEFAULT_RULES, WinRules, is_win
from laizi.bots.view_types import SeatView, seat_view
from laizi.core.records import DISCARD_WIN, ROBBED_KONG, SELF_DRAW, WIN, HandRecord
from laizi.engine.actions import Action
from laizi.table.driver import Controller, Decision
from laizi.table.table import Entry, Table
from laizi.ui.terminal import (
    WIND_NAMES,
    Reveal,
    action_label,
    board,
    event_line,
    ledger_table,
    settlement_lines,
    tile_label,
)
from laizi.ui.words import ME, capitalise, name_seats, plural, says
from laizi.variants import get as get_variant
from laizi.vocab import ActionType, GameEventType, Phase, TableEventType

__all__ = ["TYPING_HELP", "Display", "Keyboard", "Quit", "Screen", "TerminalController", "Watched",
           "deal_text", "display_for", "hand_seats", "hands_played", "read_tile"]

TYPING_HELP = (
    "How to play: type the number of an action and press Enter, or type a tile to "
    "discard it (or to take the one action on it): 4z, 北, 北风, 五筒, 🀝 or W5 (MPSZ, "
    "Chinese, Unicode or PyMahjongGB). Numbers stay the same for the whole turn (after a "
    "kong too). ? shows this help, q leaves the table.")
"""How to answer a prompt, the same in every variant."""

_TABLE_ONLY = frozenset({TableEventType.TABLE, TableEventType.HAND_END, TableEventType.JOIN,
                         TableEventType.LEAVE, TableEventType.HORSE, TableEventType.ENTROPY,
                         TableEventType.CLOSE})
"""The table's own entries in a person's stream: the screen shows the hand's events only."""


class Keyboard(Protocol):
    """Where a person's answers come from: a line at a time (``sys.stdin``, a file, a
    script); ``isatty`` says whether the terminal echoes what is typed."""

    def readline(self) -> str: ...

    def isatty(self) -> bool: ...


class Quit(Exception):
    """The person left the table (``q``, or the end of input)."""


def hand_seats(table: Table) -> list[str]:
    """Who sat where in the current (or the last) hand; the seating before any hand."""
    for entry in reversed(table.log):
        if entry["type"] == TableEventType.HAND:
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
    return f"secret deals (commitment {commitment[:16]})"


def read_tile(text: str) -> int | None:
    """The tile a person typed, in any notation the library reads (``4z``, ``北``,
    ``🀃``, ``F4``), or ``None``."""
    text = text.strip()
    if not text:
        return None
    readings: tuple[tuple[T.Dialect, str], ...] = (
        ("mpsz", text.lower()), ("chinese", text), ("unicode", text), ("gb", text.upper()))
    for dialect, typed in readings:
        try:
            return T.parse_tile(typed, dialect)
        except ValueError:
            continue
    return None


def _wind_of(value: object) -> int:
    """A prevalent wind as a view gives it: 0-3, or a letter E S W N."""
    if isinstance(value, int):
        return value % 4
    return max(0, "ESWN".find(str(value)))


class Display:
    """What the terminal shows for one variant; every hook has a plain default.

    Subclasses override only what their variant adds. ``names`` are the people of the
    hand by seat; ``me`` is the person at the terminal.
    """

    rules = ("荆州麻将 (Jingzhou, 3 players, 96 tiles: 筒 条 南西北 中发白). The tile after "
             "the indicator (赖子皮) is the 赖子 laizi, marked *: it stands for any tile in "
             "a winning hand. 中 and the laizi are never discarded: play them out as 红中杠 / "
             "赖子杠 (a replacement comes from the tail; each doubles your lines). You must "
             "open (开口: a chow, pung or 明杠) before you can win, except with 七对; no 中 "
             "may be in a winning hand. 屁胡 needs a pair of 2, 5 or 8, at most one laizi and "
             "some loser paying 8 or more; big hands (清一色, 碰碰胡, 七对, 将一色, 风一色, "
             "全求人, 杠开, 抢杠) pay 10 each. Both losers pay, doubled for the dealer, 开口, "
             "kongs, 点炮 and 自摸. The hand is drawn (黄庄) when 10 tiles are left. "
             "docs/rules/jingzhou.md has it all.")
    """The variant's rules in a few lines (``?``)."""
    draw_text = "黄庄 — the wall ran down to the reserve: no winner, no payments"
    """The one line announcing a drawn hand."""
    winds = False
    """Whether the board shows the seat winds and the prevalent wind."""
    shape_rules: WinRules = DEFAULT_RULES
    """The winning shapes, to tell a complete hand that may not win (:meth:`no_win`)."""
    buys_horses = False
    """Whether the person is asked before each hand to buy a horse (买马)."""
    session_name = "until you leave"
    """What ``--hands all`` plays (the variant's whole session)."""
    room = False
    """Whether the variant has a room of more people than seats (``--people``)."""
    leaving = "You leave the table."

    @property
    def help(self) -> str:
        """What ``?`` prints: the variant's rules, then how to answer."""
        return f"{self.rules}\n{TYPING_HELP}"

    def check_options(self, options: object) -> str | None:
        """A reason to refuse the options at the command line, or ``None``."""
        return None

    def header(self, table: Table, me: str, hands: int | None) -> list[RenderableType]:
        """Printed once, before the first hand."""
        v = table.variant
        deal = deal_text(table)
        seat = table.seats.index(me) if me in table.seats else None
        where = f"{says(me, 'sit')} at seat {seat}" if seat is not None else \
            f"{me} {'are' if me == ME else 'is'} waiting"
        return [f"[bold]{v.name}[/bold] ({v.id}) · {deal} · {self.count(hands)} · {where}"]

    def count(self, hands: int | None) -> str:
        """How much is played, for the header."""
        return plural(hands, "hand") if hands is not None else self.session_name

    def hand_title(self, hand: Entry) -> str:
        """The rule above a hand, from the table's ``hand`` entry."""
        seats = hand["seats"]
        return f"hand {hand['number'] + 1} · dealer {seats[hand['dealer']]}"

    def hand_note(self, hand: Entry, me: str) -> str | None:
        """A line under the rule for the person (e.g. that they wait this hand)."""
        return None

    def wind_tags(self, view: SeatView) -> tuple[list[str] | None, str]:
        """Per seat a tag after the name (its seat wind), and what the title adds (the
        prevalent wind); nothing unless :attr:`winds`."""
        if not self.winds:
            return None, ""
        dealer = view["dealer"]
        tags = [f"{WIND_NAMES[(s - dealer) % 4]}家" for s in range(view["seats"])]
        prevalent = _wind_of(view.get("options", {}).get("prevalent_wind", 0))
        return tags, f" · {WIND_NAMES[prevalent]}圈"

    def board(self, view: SeatView, names: Sequence[str],
              reveal: Mapping[int, Reveal] | None = None) -> list[RenderableType]:
        """The table as the person sees it when they decide (``reveal``: the hands shown
        at the end of a hand)."""
        tags, extra = self.wind_tags(view)
        return [board(view, names, reveal=reveal, tags=tags, title_extra=extra)]

    def notes(self, view: SeatView, legal: Sequence[Action],
              names: Sequence[str]) -> list[str]:
        """What the decision is about (the discard to claim, the kong to rob)."""
        out = []
        d = view.get("last_discard")
        if view["phase"] == Phase.CLAIM and d:
            out.append(f"{says(names[d['seat']], 'discard')} {tile_label(d['tile'])}")
        r = view.get("robbing")
        if r:
            out.append(f"{says(names[r['seat']], 'add')} a kong of {tile_label(r['tile'])}: "
                       "rob it (抢杠)?")
        return out

    def no_win(self, decision: Decision) -> str | None:
        """Why the person's hand, complete with the tile drawn, discarded or added to a
        kong, may not win (the minimum, 开口, 过水 …); ``None`` when it can win, or is not
        complete."""
        if any(a.type == ActionType.WIN for a in decision.legal):
            return None
        found = self._candidate(decision)
        if found is None:
            return None
        tile, how = found
        view = seat_view(decision.view())
        if how != SELF_DRAW and view.get("passed_win"):
            return ("过水: you passed a win since your last draw, so you may not win on a "
                    "discard until you draw again")
        game = decision.table.game
        if game is None:
            return None
        why = self.refusal(decision, tile, how)
        if why is not None and why.startswith("not "):
            # The variant finds no winning shape where the plain shapes see one: say
            # what the variant asks more, or nothing rather than a contradiction.
            why = self.shape_refusal(game.variant.id)
        return None if why is None else f"Your hand is complete but cannot win: {why}."

    def shape_refusal(self, variant_id: str) -> str | None:
        """What a hand complete in plain shapes lacks in this variant (``None``: nothing
        to say)."""
        if variant_id == "jingzhou":
            return ("屁胡 needs a pair of 2, 5 or 8; any pair wins only in a big hand "
                    "(清一色, 碰碰胡, 七对, 全求人 …)")
        return None

    def refusal(self, decision: Decision, tile: int, how: str) -> str | None:
        """The variant's reason (``win_refusal``) that the complete hand may not win."""
        game = decision.table.game
        assert game is not None
        return game.variant.win_refusal(game, decision.seat, tile, how)

    def _candidate(self, decision: Decision) -> tuple[int, str] | None:
        """The tile that would complete the hand now and how, if it does."""
        view = seat_view(decision.view())
        seat, phase = decision.seat, view["phase"]
        drawn, discard, robbing = view.get("drawn"), view.get("last_discard"), view.get("robbing")
        if phase == Phase.TURN and drawn is not None:
            tile, how = int(drawn), SELF_DRAW
        elif phase == Phase.CLAIM and discard and discard["seat"] != seat:
            tile, how = int(discard["tile"]), DISCARD_WIN
        elif phase == Phase.ROB and robbing and robbing["seat"] != seat:
            tile, how = int(robbing["tile"]), ROBBED_KONG
        else:
            return None
        counts = T.to_counts(view["hand"])
        if how != SELF_DRAW:
            counts[tile] += 1
        wildcard = view.get("wildcard")
        wilds = 0
        if wildcard is not None:
            wilds, counts[wildcard] = counts[wildcard], 0
        if sum(counts) + wilds not in (2, 5, 8, 11, 14, 17):
            return None
        return (tile, how) if is_win(counts, wilds, self.shape_rules) else None

    def action_label(self, action: Action, wildcard: int | None) -> str:
        return action_label(action, wildcard)

    def event(self, event: Entry, names: Sequence[str], me: int | None,
              wildcard: int | None) -> tuple[str, str] | None:
        """One line (text, style) for an event the person may see, or ``None``."""
        line = event_line(event, names, -1 if me is None else me, wildcard)
        return None if line is None else (line, "dim")

    def reveal(self, record: HandRecord) -> dict[int, Reveal]:
        """Every seat's concealed tiles at the end of the hand; the winners' winning tile
        apart (marked on the board)."""
        out = {}
        for s, seat in enumerate(record.seats):
            if seat.concealed is None:
                continue
            win = record.win_tile if record.outcome == WIN and s in record.winners else None
            out[s] = Reveal(tuple(sorted(seat.concealed)), win)
        return out

    def final_board(self, table: Table, person: str, names: Sequence[str]
                    ) -> list[RenderableType]:
        """The board at the end of the hand with every hand shown."""
        game = table.game
        if game is None or game.record is None:
            return []
        view = seat_view(table.view_for(person))
        return self.board(view, names, self.reveal(game.record))

    def settlement(self, table: Table, end: Entry, names: Sequence[str]
                   ) -> list[RenderableType]:
        """After a hand: the payments and what the variant says about the hand."""
        out: list[RenderableType] = []
        game = table.game
        if game is None or not game.log or game.log[-1].get("type") != GameEventType.END:
            return out
        # Who won how, the variant's account of the hand, then the payments.
        lines = settlement_lines(game.log[-1], names, draw=self.draw_text)
        out.append(lines[0])
        if game.record is not None and game.record.outcome == WIN:
            out.extend(self.summary(game.record, names))
        out.extend(lines[1:])
        return out

    def summary(self, record: HandRecord, names: Sequence[str]) -> list[RenderableType]:
        """The variant's own words on a win (``describe``), with the people's names."""
        text = get_variant(record.variant).describe(record)
        return [name_seats(text, names)] if text else []

    def standing(self, table: Table) -> list[RenderableType]:
        """The running scores (after each hand, and when the person leaves)."""
        names = hand_seats(table)
        return [ledger_table([table.ledger.get(p, 0) for p in names], names,
                             hands_played(table))]

    def farewell(self, table: Table) -> list[str]:
        """Printed when the session has been played out."""
        return []


class Screen:
    """The terminal output of one person: their events, the board, the settlements.

    ``delay`` seconds pass after each line of play (``--auto`` is paced so that it can
    be watched)."""

    def __init__(self, table: Table, person: str, display: Display, console: Console, *,
                 delay: float = 0.0, sleep: Callable[[float], None] | None = None) -> None:
        self.table = table
        self.person = person
        self.display = display
        self.console = console
        self.delay = delay
        self.sleep = sleep if sleep is not None else time.sleep
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
            if kind == TableEventType.HAND:
                self.names = list(ev["seats"])
                self.title(ev)
                continue
            if kind in _TABLE_ONLY:
                continue
            if self.person not in self.names:
                continue  # waiting: the bots play this hand, the person sees its result
            me = self.names.index(self.person)
            line = self.display.event(ev, self.names, me, wildcard)
            if line is not None:
                self.console.print(capitalise(line[0]), style=line[1])
                if self.delay > 0:
                    self.sleep(self.delay)

    def title(self, hand: Entry) -> None:
        if hand["number"] <= self.titled:
            return
        self.titled = hand["number"]
        title = self.display.hand_title(hand)
        if cell_len(title) + 6 <= self.console.width:
            self.console.rule(title)
        else:  # a rule would cut a long title short
            self.console.print(title, style="bold")
        note = self.display.hand_note(hand, self.person)
        if note:
            self.console.print(note)

    def after_hand(self) -> None:
        """The end of a hand: the last events, the final board with every hand, the
        settlement and the running scores."""
        self.catch_up()
        end = next(e for e in reversed(self.table.log) if e["type"] == TableEventType.HAND_END)
        names = hand_seats(self.table)
        for item in self.display.final_board(self.table, self.person, names):
            self.console.print(item)
        for item in self.display.settlement(self.table, end, names):
            self.console.print(item)
        self.show_standing()

    def show_standing(self) -> None:
        for item in self.display.standing(self.table):
            self.console.print(item)


class Watched:
    """A controller whose screen catches up before each of its decisions, so that a
    watched table (``--auto``) is shown move by move, at the screen's pace."""

    forced_shortcut = True

    def __init__(self, inner: Controller, screen: Screen) -> None:
        self.inner = inner
        self.screen = screen

    def decide(self, decision: Decision) -> Action | None:
        self.screen.catch_up()
        return self.inner.decide(decision)


Choice = Action | str
"""What a person's answer picks: an action, or why it picks none."""


def pick_by_tile(legal: Sequence[Action], tile: int) -> Choice:
    """The action a typed tile means: its discard, else the one action on that tile."""
    for a in legal:
        if a.type == ActionType.DISCARD and a.tile == tile:
            return a
    on = [a for a in legal if a.tile == tile and a.type != ActionType.PASS]
    if len(on) == 1:
        return on[0]
    if on:
        return f"{len(on)} of your actions are on {tile_label(tile)}: type its number"
    return f"{tile_label(tile)} is not in your choices"


class TerminalController:
    """A person at the terminal: shows the board, lists the legal actions numbered and
    reads the choice — a number, or a tile (``?`` help, ``q`` leaves: :class:`Quit`). A
    claim window in which the only legal action is ``pass`` is never asked: the driver
    plays that forced pass (:func:`laizi.table.decisions.decisions`).

    An action keeps its number for the whole turn: after a kong, the tiles still in the
    hand keep theirs and a new action (the replacement's discard, a win) takes a free
    number. ``echo`` repeats each answer (when the input is not a terminal, which would
    have echoed it), so a transcript reads as the screen did."""

    def __init__(self, screen: Screen, stdin: Keyboard, *, echo: bool = False) -> None:
        self.screen = screen
        self.stdin = stdin
        self.echo = echo
        self._turn: tuple[object, ...] | None = None
        self._numbers: dict[Action, int] = {}

    def numbered(self, decision: Decision) -> list[tuple[int, Action]]:
        """The legal actions with their numbers, in number order."""
        view = seat_view(decision.view())
        # One turn: the same hand, phase and seat to move, and no discard since (a
        # kong's replacement draw is in the same turn; a claim window is not).
        turn = (decision.table.number, view["phase"], view["turn"],
                sum(len(d) for d in view["discards"]), decision.seat)
        if turn != self._turn:
            self._turn = turn
            self._numbers = {}
        kept = {a: n for a, n in self._numbers.items() if a in decision.legal}
        used = set(kept.values())
        free = (n for n in range(1, len(decision.legal) + len(used) + 1) if n not in used)
        for a in decision.legal:
            if a not in kept:
                kept[a] = next(free)
        self._numbers = kept
        return sorted(((n, a) for a, n in kept.items()), key=lambda x: x[0])

    def decide(self, decision: Decision) -> Action | None:
        legal = decision.legal
        screen = self.screen
        screen.catch_up()
        view = seat_view(decision.view())
        names = [p or "-" for p in decision.table.seats]
        display, console = screen.display, screen.console
        for item in display.board(view, names):
            console.print(item)
        for line in display.notes(view, legal, names):
            console.print(capitalise(line))
        why = display.no_win(decision)
        if why:
            console.print(why, style="yellow")
        wildcard = view.get("wildcard")
        numbered = self.numbered(decision)
        by_number = dict(numbered)
        for i, a in numbered:
            console.print(f"  {i:>2}) {display.action_label(a, wildcard)}")
        while True:
            raw = self._read("your choice: ")
            text = raw.lower()
            if text in ("?", "h", "help"):
                console.print(display.help)
                continue
            if text.isdigit() and int(text) in by_number:
                return by_number[int(text)]
            tile = None if text.isdigit() else read_tile(raw)
            if tile is not None:
                choice = pick_by_tile(legal, tile)
                if isinstance(choice, Action):
                    return choice
                console.print(f"{choice}.")
                continue
            numbers = _spans([n for n, _ in numbered])
            console.print(f"Please type a number ({numbers}) or a tile (? for help, q to "
                          "leave).")

    def ask_horse(self, table: Table) -> None:
        """Before a 晃晃 hand: whether the person buys a horse (买马) in it."""
        console = self.screen.console
        person = self.screen.person
        buying = person not in table.no_horse
        console.print("Buy a horse this hand (买马: a tile from the tail names a seat; your "
                      "horse is paid and pays as that seat does)?")
        console.print("   1) 买马 buy a horse" + (" (as last hand)" if buying else ""))
        console.print("   2) 不买 no horse" + ("" if buying else " (as last hand)"))
        while True:
            text = self._read("your choice (Enter: as last hand): ").lower()
            if text in ("", "1", "2", "y", "yes", "n", "no"):
                break
            if text in ("?", "h", "help"):
                console.print(self.screen.display.help)
                continue
            console.print("Please type 1 (buy a horse) or 2 (no horse).")
        buy = buying if text == "" else text in ("1", "y", "yes")
        if buy != buying:
            table.buy_horse(person, buy)

    def next_hand(self) -> None:
        """Between hands: Enter goes on, ``q`` leaves."""
        self._read("Enter for the next hand, q to leave: ")

    def _read(self, prompt: str) -> str:
        console = self.screen.console
        console.print(prompt, end="")
        line = self.stdin.readline()
        if not line:
            console.print()
            raise Quit
        text = line.strip()
        if self.echo:
            console.print(text, highlight=False, markup=False)
        if text.lower() in ("q", "quit", "exit"):
            raise Quit
        return text


def _spans(numbers: Sequence[int]) -> str:
    """``1-4, 6``: the numbers on offer, runs written as ranges."""
    out: list[str] = []
    start = prev = None
    for n in [*sorted(numbers), None]:
        if start is not None and (n is None or prev is None or n != prev + 1):
            out.append(str(start) if start == prev else f"{start}-{prev}")
            start = None
        if n is not None and start is None:
            start = n
        prev = n
    return ", ".join(out)


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
