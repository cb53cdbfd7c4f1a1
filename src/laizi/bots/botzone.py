"""``botzone``: a Botzone-protocol program (国标麻将, "Chinese Standard Mahjong") seated
as a laizi bot, run as a subprocess.

    laizi arena mcr --bots "botzone:keep=1:cmd=python3 my_bot.py,greedy"

The spec is ``botzone:KEY=VALUE:...:cmd=COMMAND`` (docs/bots.md, "The Botzone bridge"):
``io`` ``simple`` (default) or ``json``, ``keep`` 1 for keep-running mode, ``timeout``
seconds an answer may take (default 5), ``startup`` seconds more for an answer that
starts the program (default 5). ``cmd`` comes last and takes the rest of the
spec, colons included; it is split like a shell's words (no shell runs it) and
percent-decoded, so ``%2C`` writes a comma (``--bots`` splits on commas) and ``%25`` a
percent sign. The program runs in the current directory with the user's rights: a spec
is the user's own command line, never something a hall room's host could type.

Without keep-running, every decision starts the program afresh with the whole history
of the hand (requests and responses); with ``keep=1`` the program starts once a hand,
reads every request as it comes and prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after
each answer. A program that crashes, times out, answers what the protocol cannot read
or what is not legal is counted (:meth:`BotzoneBot.stats`) and the table plays its
default action (:func:`laizi.table.decisions.resolve`). Only MCR is played.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
import time
import urllib.parse
import weakref
from collections import Counter
from collections.abc import Sequence
from typing import IO

from laizi.bots.botzone_protocol import ProtocolError, Transcript, answer_action
from laizi.core.jsondata import JSON
from laizi.engine.actions import DISCARD, WRONG_WIN, Action

__all__ = ["KEEP_RUNNING", "VARIANTS", "BotzoneBot", "ProtocolError", "split_params"]

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
VARIANTS = ("mcr",)
"""The variants the bridge plays: the protocol is MCR's (国标)."""


def split_params(rest: str) -> list[str]:
    """The ``KEY=VALUE`` parts of a spec after ``botzone:``: split on colons up to
    ``cmd=``, which takes the rest (a command may hold colons)."""
    parts: list[str] = []
    while rest:
        if rest.startswith("cmd="):
            parts.append(rest)
            break
        head, _, rest = rest.partition(":")
        parts.append(head)
    return parts


def _kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class _Program:
    """One run of the program: its stdin, and its stdout read line by line by a thread
    (so that a read can time out)."""

    def __init__(self, argv: list[str]) -> None:
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as exc:
            raise ProtocolError("crash", f"cannot start {argv[0]!r}: {exc}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        out = self.proc.stdout
        assert out is not None
        threading.Thread(target=self._read, args=(out,), daemon=True).start()
        self._finalizer = weakref.finalize(self, _kill, self.proc)

    def _read(self, out: IO[str]) -> None:
        try:
            for line in out:
                self.lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def send(self, text: str) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(text)
            stdin.flush()
        except (OSError, ValueError):
            raise ProtocolError("crash", "the program closed its input") from None

    def line(self, deadline: float) -> str:
        """The next line the program prints, by ``deadline`` (``time.monotonic()``)."""
        try:
            got = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise ProtocolError("timeout", "no answer in time") from None
        if got is None:
            raise ProtocolError("crash", f"the program ended (exit status "
                                         f"{self.proc.wait()})")
        return got

    def close(self) -> None:
        self._finalizer()


class BotzoneBot:
    """A Botzone-protocol program at a seat (see the module docstring)."""

    name = "botzone"

    def __init__(self, seed: int = 0, *, cmd: str = "", io: str = "simple",
                 keep: bool = False, timeout: float = 5.0, startup: float = 5.0) -> None:
        if io not in ("simple", "json"):
            raise ValueError(f"io must be simple or json, not {io!r}")
        if timeout <= 0 or startup < 0:
            raise ValueError(f"timeout must be positive and startup not negative, not "
                             f"{timeout!r} and {startup!r}")
        try:
            self.argv = shlex.split(urllib.parse.unquote(cmd))
        except ValueError as exc:
            raise ValueError(f"cmd: {exc}") from None
        if not self.argv:
            raise ValueError("cmd= names no program")
        self.io, self.keep, self.timeout, self.startup = io, keep, timeout, startup
        self.transcript: Transcript | None = None
        self.program: _Program | None = None
        self.sent = 0
        """How many requests the running program has read (keep-running)."""
        self.discard: int | None = None
        """The discard the last ``PENG`` / ``CHI`` answer announced."""
        self.requests = 0
        self.fallbacks = 0
        self.errors: Counter[str] = Counter()
        self.latency_ms: list[float] = []

    # ------------------------------------------------------------------ the hand's events

    def observe(self, seat: int, events: Sequence[JSON]) -> None:
        """The events of the table the seat has not been shown yet (the driver's bot
        controller passes them before each question)."""
        for e in events:
            if e.get("type") == "start":
                self.close()  # a new hand: Botzone plays one hand a game
                self.transcript, self.sent, self.discard = Transcript(seat), 0, None
            if self.transcript is not None:
                self.transcript.feed(e)

    # ------------------------------------------------------------------ talking to it

    def _full_input(self, upto: int) -> str:
        """The whole history for request ``upto`` (its index), as a fresh run reads it."""
        t = self.transcript
        assert t is not None
        requests = t.requests[:upto + 1]
        responses = [r or "PASS" for r in t.responses[:upto]]
        if self.io == "json":
            return json.dumps({"requests": requests, "responses": responses},
                              ensure_ascii=False) + "\n"
        lines = [str(len(requests))]
        for i, req in enumerate(requests):
            lines.append(req)
            if i < len(responses):
                lines.append(responses[i])
        return "\n".join(lines) + "\n"

    def _read_answer(self, program: _Program, deadline: float) -> str:
        line = program.line(deadline)
        while not line.strip():
            line = program.line(deadline)
        if self.io == "simple":
            return line.strip()
        try:
            data = json.loads(line)
        except ValueError:
            raise ProtocolError("unparsable", f"not JSON: {line[:80]!r}") from None
        answer = data.get("response") if isinstance(data, dict) else None
        if not isinstance(answer, str):
            raise ProtocolError("unparsable", f"no response in {line[:80]!r}")
        return answer.strip()

    def _exchange(self, index: int) -> str:
        """Send request ``index`` and return the answer line (timed, counted)."""
        t = self.transcript
        assert t is not None
        start = time.monotonic()
        deadline = start + self.timeout
        self.requests += 1
        try:
            if self.keep and self.program is not None and self.sent == index:
                req = t.requests[index]
                self.program.send((json.dumps(req, ensure_ascii=False) if self.io == "json"
                                   else req) + "\n")
            else:
                self.close()
                # A fresh run may take its start-up time besides (an interpreter, a model
                # to load), as Botzone allows a longer first turn.
                deadline += self.startup
                self.program = _Program(self.argv)
                self.program.send(self._full_input(index))
            program = self.program
            answer = self._read_answer(program, deadline)
            if self.keep:
                self._await_marker(program, deadline)
                self.sent = index + 1
            else:
                self.close()
        except ProtocolError as exc:
            self.close()  # a keep-running program is started again with the history
            self.sent = index + 1
            self.errors[exc.kind] += 1
            raise
        finally:
            self.latency_ms.append((time.monotonic() - start) * 1000)
        return answer

    def _await_marker(self, program: _Program, deadline: float) -> None:
        """Keep-running: the marker after the answer (debug or data lines may come
        first). A program that does not print it is not keep-running: its answer
        stands, the error is counted and the next request starts it afresh with the
        whole history, as Botzone would."""
        try:
            while program.line(deadline).strip() != KEEP_RUNNING:
                pass
        except ProtocolError:
            self.errors["marker"] += 1
            self.close()

    def _catch_up(self, upto: int) -> None:
        """Keep-running: the program reads every request, each answered ``PASS`` unless
        it was a draw (laizi did not ask: ``pass`` was the only legal answer)."""
        t = self.transcript
        assert t is not None
        while self.sent < upto:
            index = self.sent
            try:
                answer = self._exchange(index)
            except ProtocolError:
                continue  # counted; the next request restarts it with the history
            if answer != "PASS" and not t.requests[index].startswith("2 "):
                self.errors["illegal"] += 1

    # ------------------------------------------------------------------ the bot

    def choose(self, view: JSON, legal_actions: Sequence[Action]) -> Action:
        if view.get("variant") not in VARIANTS:
            raise ValueError(f"the botzone bridge plays only {', '.join(VARIANTS)}, "
                             f"not {view.get('variant')!r}")
        t = self.transcript
        if t is None:
            raise ProtocolError("crash", "no events seen (the controller does not pass "
                                         "them: BotController.observe)")
        t.finish_opening()
        if t.after_my_claim:
            return self._claim_discard(legal_actions)
        if self.keep:
            self._catch_up(len(t.requests) - 1)
        answer = ""
        # MCR profile=botzone settles a wrong HU as Botzone does (错和, the hand over);
        # elsewhere it is refused and the default action played.
        options = view.get("options")
        settled = isinstance(options, dict) and options.get("profile") == "botzone"
        try:
            answer = self._exchange(len(t.requests) - 1)
            action, self.discard = answer_action(answer, legal_actions, wrong_win=settled)
        except ProtocolError as exc:
            if exc.kind in ("unparsable", "illegal"):
                # A 胡 that is not a win is Botzone's 错和 (−30 / +10 there): its own kind.
                wrong_win = exc.kind == "illegal" and answer.strip() == "HU"
                self.errors["wrong_win" if wrong_win else exc.kind] += 1
            self.fallbacks += 1
            raise
        if action.type == WRONG_WIN:
            self.errors["wrong_win"] += 1  # played and settled: no fallback
        t.record(answer)
        return action

    def _claim_discard(self, legal: Sequence[Action]) -> Action:
        """The turn after a chow or pung: the discard the claim's answer announced."""
        tile, self.discard = self.discard, None
        for a in legal:
            if a.type == DISCARD and a.tile == tile:
                return a
        self.errors["illegal"] += 1
        self.fallbacks += 1
        raise ProtocolError("illegal", "the discard announced with the claim is not legal")

    def close(self) -> None:
        """Stop the program (the end of a hand, or of its run)."""
        if self.program is not None:
            self.program.close()
            self.program = None

    def stats(self) -> JSON:
        """Requests sent, protocol errors by kind, fallbacks (default actions played for
        it) and the latency of each request in milliseconds."""
        return {"requests": self.requests, "errors": dict(self.errors),
                "fallbacks": self.fallbacks, "latency_ms": list(self.latency_ms)}
