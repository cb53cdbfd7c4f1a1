"""``laizi connect URL``: play a room of the hall at the terminal (extra ``server``).

* ``laizi connect http://HOST:PORT --new jingzhou --name 阿明`` creates a room (bots in
  the other seats), prints the link friends join with (the address the hall gives for
  sharing, ``GET /api/share``: its LAN address when you typed 127.0.0.1 and it listens on
  0.0.0.0), and starts when you press Enter;
* ``laizi connect 'http://HOST:PORT/r/123456?t=TOKEN'`` comes back to your seat (any
  device: the token is your seat);
* ``laizi connect http://HOST:PORT/r/123456 --name 小红`` joins a room as a player (or a
  spectator with ``--watch``).

The board is the terminal game's (docs/play.md); type the number of an action, ``q`` to
leave (your seat is played by a bot until you come back). Everybody's moves are printed as
they come, and every hand's end: who won how, the payments and each person's net. A claim
window in which your only answer is ``pass`` is answered by the server, as for the
browser: you are not asked. The server is authoritative: an action is shown only once the
server has accepted it. A lost connection (the network, or the room moving to another
server process) is opened again by itself, with the last version seen, for up to a
minute.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import IO, TYPE_CHECKING, Protocol, TypedDict
from urllib.parse import parse_qs, urlparse

from laizi.commands import Subparsers
from laizi.commands._frames import is_error, is_state
from laizi.ui.words import ME
from laizi.vocab import ClientOp, GameEventType, TableEventType

if TYPE_CHECKING:
    from rich.console import Console

    from laizi.commands._frames import Frame, StateFrame
    from laizi.engine.actions import Action
    from laizi.table.table import Entry
    from laizi.ui.player import Display

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "connect", help="play a room of the hall (laizi serve) at the terminal",
        description="Play a room of the hall at the terminal: create one (--new VARIANT), "
                    "come back with your link, or join with --name.")
    p.add_argument("url", metavar="URL", help="the hall (http://HOST:PORT) or a room link")
    p.add_argument("--new", metavar="VARIANT", default=None, help="create a room")
    p.add_argument("--name", default=None, help="your name (to create or join)")
    p.add_argument("--watch", action="store_true", help="join as a spectator")
    p.add_argument("--bots", default="greedy", help="bots' strength: greedy, search, random")
    p.add_argument("--hands", type=int, default=None, help="hands to play")
    p.add_argument("--clock", type=float, default=None,
                   help="seconds per decision (default: no clock)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option (repeatable)")
    p.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"laizi connect: {message}", file=sys.stderr)
    return 2


class _Joined(TypedDict, total=False):
    """The hall's answer to creating (``code``, ``token``, ``link``) or joining
    (``token``, ``role``, ``link``) a room."""

    code: str
    token: str
    role: str
    link: str


def _post(url: str, body: dict[str, object]) -> _Joined:
    import httpx

    r = httpx.post(url, json=body, timeout=30)
    data = r.json()
    if r.status_code >= 400:
        raise RuntimeError(data.get("error", {}).get("message", r.text))
    joined: _Joined = data
    return joined


def _share_base(base: str) -> str:
    """The address friends open the hall at (``GET /api/share``): a LAN address when
    ``base`` is this machine's loopback and the hall listens beyond it; ``base`` itself
    when the hall does not say (an older hall, an error)."""
    import httpx

    try:
        r = httpx.get(f"{base}/api/share", timeout=10)
        shared = r.json().get("base") if r.status_code == 200 else None
    except (httpx.HTTPError, ValueError, AttributeError):
        return base
    return shared.rstrip("/") if isinstance(shared, str) and shared.startswith("http") else base


def run(args: argparse.Namespace, stdin: IO[str] | None = None,
        stdout: IO[str] | None = None) -> int:
    try:
        import httpx
        from websockets.sync.client import connect
    except ImportError:
        return _fail("needs the server extra (pip install 'laizi[server]')")
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    parsed = urlparse(args.url)
    base = f"{parsed.scheme}://{parsed.netloc}"
    token = parse_qs(parsed.query).get("t", [None])[0]
    code = parsed.path.rstrip("/").rsplit("/", 1)[-1] if "/r/" in parsed.path else None
    host = False
    name: str | None = args.name.strip() if args.name else None
    try:
        if args.new:
            if not args.name:
                return _fail("--new needs --name")
            from laizi.variants.options import parse_option_values

            options = parse_option_values(args.new, args.option)
            made = _post(f"{base}/api/rooms", {"name": args.name, "settings": {
                "variant": args.new, "options": options, "bots": args.bots,
                "clock": args.clock, "hands": args.hands}})
            code, token, host = made["code"], made["token"], True
            shared = _share_base(base)
            print(f"room {code}: friends join with  laizi connect {shared}/r/{code} --name "
                  f"NAME (or open {shared}/r/{code} in a browser)\n"
                  f"your own link (keep it): {shared}/r/{code}?t={token}", file=out)
        elif token is None:
            if code is None or not args.name:
                return _fail("give a room link with its token, or a room and --name")
            joined = _post(f"{base}/api/rooms/{code}/join", {
                "name": args.name, "role": "spectator" if args.watch else "player"})
            token = joined["token"]
            print(f"joined room {code} as {joined['role']}; your link: {joined['link']}",
                  file=out)
        else:
            # Back by one's own link: the host may still have to start the match.
            r = httpx.get(f"{base}/api/rooms/{code}/me", headers={"X-Laizi-Token": token},
                          timeout=30)
            host = r.status_code == 200 and bool(r.json().get("host"))
            if r.status_code == 200:
                name = str(r.json().get("name") or "") or name
    except (RuntimeError, ValueError) as exc:
        return _fail(str(exc))
    except Exception as exc:
        return _fail(f"cannot reach the hall at {base}: {exc}")
    # The token goes in the first message, not the URL (a proxy's access log keeps URLs).
    ws_url = base.replace("http", "ws", 1) + f"/ws/{code}"
    link = _Link(ws_url, connect, token)
    try:
        link.open()
    except OSError as exc:
        return _fail(f"cannot reach the hall at {base}: {exc}")
    try:
        return _play(link, stdin, out, host, name)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        return _fail(f"connection lost: {exc}")
    finally:
        link.close()


RECONNECT_FOR = 60.0
"""Seconds ``laizi connect`` keeps trying to open a lost connection again."""
GONE = 4404
"""The hall's close code for an unknown room or token: never worth another try."""
KICKED = 4410
"""The hall's close code for a person the host removed (踢出): never worth another try."""


class _Socket(Protocol):
    """What the client uses of a websocket (``websockets.sync.client.ClientConnection``)."""

    @property
    def close_code(self) -> int | None: ...

    def send(self, message: str) -> None: ...

    def close(self) -> None: ...

    def __iter__(self) -> Iterator[str | bytes]: ...


Connect = Callable[..., AbstractContextManager[_Socket]]
"""Opens a websocket (``websockets.sync.client.connect``)."""


class _Link:
    """The websocket to the room, opened again with the last version seen when it is
    lost; frames go to one queue, ``("closed", code)`` when a connection ends."""

    def __init__(self, url: str, connect: Connect, token: str) -> None:
        self.url = url
        self.connect = connect
        self.token = token
        self.version = 0
        self.ws: _Socket | None = None
        self.frames: queue.Queue[Frame | tuple[str, int | None]] = queue.Queue()

    def open(self) -> None:
        # Entered as a context manager (websockets 15+ warns on anything else); closed
        # in close() or by the server.
        ws = self.connect(f"{self.url}?version={self.version}", max_size=2**23).__enter__()
        ws.send(json.dumps({"op": "hello", "token": self.token}))
        self.ws = ws
        threading.Thread(target=self._read, args=(ws,), daemon=True).start()

    def _read(self, ws: _Socket) -> None:
        try:
            for raw in ws:
                frame: Frame = json.loads(raw)
                if is_state(frame):
                    self.version = int(frame["version"])
                self.frames.put(frame)
        except Exception:
            pass
        self.frames.put(("closed", getattr(ws, "close_code", None)))

    def reopen(self) -> bool:
        """Try again with backoff; whether a connection is open."""
        deadline = time.monotonic() + RECONNECT_FOR
        wait = 0.3
        while time.monotonic() < deadline:
            try:
                self.open()
                return True
            except OSError:
                time.sleep(wait)
                wait = min(5.0, wait * 2)
            except Exception:  # refused handshake (a server starting): try again
                time.sleep(wait)
                wait = min(5.0, wait * 2)
        return False

    def send(self, text: str) -> None:
        # A send on a lost connection: the reader sees it end, and the state after the
        # reconnection is answered again.
        with contextlib.suppress(Exception):
            if self.ws is not None:
                self.ws.send(text)

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()


class _Story:
    """Prints what happens at the table as the events come: everybody's moves (the
    variant's words, the people's names, ``you`` for oneself) and each hand's end — who
    won how, the payments and everyone's net (晃晃: horses and 下桌 too)."""

    def __init__(self, console: Console, name: str | None) -> None:
        self.console = console
        self.name = name
        self.hand: Entry | None = None
        self.display: Display | None = None

    def names(self, seats: list[str]) -> list[str]:
        return [ME if p == self.name else p for p in seats]

    def person(self, p: str) -> str:
        return ME if p == self.name else p

    def show(self, frame: StateFrame) -> None:
        from laizi.ui.player import display_for

        view = frame["view"]
        if self.display is None:
            self.display = display_for(frame["room"]["settings"]["variant"])
        if frame["snapshot"] and view.get("phase") not in (None, "waiting"):
            # Back after a long gap: the hand on the board is the one to tell.
            table = view["table"]
            self.hand = {"number": table["hands"] - 1, "seats": table["seats"],
                         "waiting": table["waiting"], "dealer": view.get("dealer")}
        for e in frame["events"]:
            self.event(e, view.get("wildcard"))

    def event(self, e: Entry, wildcard: int | None) -> None:
        from laizi.ui.player import display_for
        from laizi.ui.words import capitalise

        kind = e.get("type")
        if kind == TableEventType.TABLE:
            self.display = display_for(e["variant"])
            return
        if kind == TableEventType.HAND:
            self.hand = e
            self.console.rule(f"hand {e['number'] + 1}")
            return
        if self.hand is None or self.display is None:
            return
        names = self.names(list(self.hand["seats"]))
        me = names.index(ME) if ME in names else None
        if kind == GameEventType.END:
            self.ending(e, names)
        elif kind == TableEventType.HAND_END:
            self.booking(e)
        else:
            line = self.display.event(e, names, me, wildcard)
            if line is not None:
                self.console.print(capitalise(line[0]), style=line[1])

    def ending(self, end: Entry, names: list[str]) -> None:
        """The engine's ``end``: who won how (the variant's account), the payments."""
        from laizi.core.records import WIN
        from laizi.records import record_from_json
        from laizi.ui.terminal import settlement_lines

        assert self.display is not None  # event() tells an end only with a display
        lines = settlement_lines(end, names, draw=self.display.draw_text)
        if lines:
            self.console.print(lines[0])
        if end["record"].get("outcome") == WIN:
            try:
                for item in self.display.summary(record_from_json(end["record"]), names):
                    self.console.print(item)
            except Exception:  # the account is a nicety: the payments still follow
                pass
        for line in lines[1:]:
            self.console.print(line)

    def booking(self, end: Entry) -> None:
        """The table's ``hand_end``: each person's net (晃晃: horses and 下桌)."""
        from laizi.ui.huanghuang import hand_report

        if self.hand is not None and getattr(self.display, "room", False):
            hand = {**self.hand, "seats": self.names(list(self.hand["seats"])),
                    "waiting": self.names(list(self.hand["waiting"]))}
            named = self.person
            report = hand_report(hand, {
                **end,
                "horses": [{**h, "person": named(h["person"])} for h in end["horses"]],
                "payments": [{**p, "from": named(p["from"]), "to": named(p["to"])}
                             for p in end["payments"]],
                "net": {named(p): v for p, v in end["net"].items()},
                "left": [[s, named(p)] for s, p in end["left"]],
                "entered": [[s, named(p)] for s, p in end["entered"]]})
            for line in report:
                self.console.print(line)
        nets = " · ".join(f"{self.person(p)} {v:+d}" for p, v in end["net"].items())
        self.console.print(f"hand {end['number'] + 1} over: {nets}", style="bold")


def _play(link: _Link, stdin: IO[str], out: IO[str], host: bool,
          name: str | None = None) -> int:
    from rich.console import Console

    from laizi.engine.actions import Action

    console = Console(file=out, highlight=False)
    story = _Story(console, name)
    seq = 0

    def send(msg: dict[str, object]) -> None:
        nonlocal seq
        seq += 1
        link.send(json.dumps({**msg, "seq": seq}))

    started = False
    answered: int | None = None
    while True:
        got = _take(link, console)
        if isinstance(got, int):
            return got
        states, void = got
        if void:
            answered = None
        if not states:
            continue
        for f in states:  # every move as it comes, not only at one's own turn
            story.show(f)
        frame = states[-1]
        room = frame["room"]
        if room["over"]:
            console.print(f"the match is over. ledger: {room['ledger']}")
            return 0
        if host and not room["started"] and not started:
            console.print("Press Enter to start (friends can still join later, between "
                          "hands).", end="")
            if not stdin.readline():
                return 0
            send({"op": ClientOp.START})
            started = True
            continue
        legal = [Action.from_json(a) for a in frame["legal"]]
        if not legal or answered == frame["version"]:
            continue
        choice = _ask(console, stdin, frame, legal)
        if choice is None:
            console.print("you left; a bot plays your seat until you come back")
            return 0
        send({"op": ClientOp.ACT, "action": choice.to_json(), "version": frame["version"]})
        answered = frame["version"]


def _take(link: _Link, console: Console) -> tuple[list[StateFrame], bool] | int:
    """The ``state`` frames waiting (the newest last) and whether the last answer is void
    (refused, or the connection opened again); the exit status when the client stops."""
    frames = link.frames
    batch = [frames.get()]
    while not frames.empty():  # act on the newest state only
        batch.append(frames.get())
    closed = [f for f in batch if isinstance(f, tuple)]
    replies = [f for f in batch if isinstance(f, dict)]
    void = False
    for f in replies:
        if is_error(f):
            console.print(f"[red]refused: {f['error']['message']}[/red]")
            void = True
            if f["error"].get("code") in ("unknown_room", "unknown_token", "kicked"):
                return 1
    if closed:
        if closed[-1][1] == GONE:
            console.print("the room is gone")
            return 1
        if closed[-1][1] == KICKED:
            console.print("the host removed you from the room")
            return 1
        console.print("the connection was lost; connecting again…")
        if not link.reopen():
            console.print(f"could not connect again in {RECONNECT_FOR:.0f} s")
            return 1
        return [], True
    return [f for f in replies if is_state(f)], void


def _ask(console: Console, stdin: IO[str], frame: StateFrame, legal: list[Action]
         ) -> Action | None:
    """The board, the numbered actions and the person's pick (``None``: they left)."""
    from laizi.bots.view_types import seat_view
    from laizi.ui.terminal import action_label, view_panel

    view = frame["view"]
    names = [p or "-" for p in frame["room"]["seats"]]
    console.print(view_panel(seat_view(view), names))
    wildcard = view.get("wildcard")
    for i, a in enumerate(legal, 1):
        console.print(f"  {i:>2}) {action_label(a, wildcard)}")
    while True:
        console.print("your choice: ", end="")
        line = stdin.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            return None
        text = line.strip()
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        console.print(f"Please type a number from 1 to {len(legal)} (q to leave).")
