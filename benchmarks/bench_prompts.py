"""Prompts a person gets per 荆州 hand in the hall, by kind (issue 38: pass-only prompts).

    python benchmarks/bench_prompts.py --hands 20
    git archive c4eff3a src | tar -x -C /tmp/old
    python benchmarks/bench_prompts.py --hands 20 --src /tmp/old/src

Starts ``laizi serve`` on a free loopback port with a fresh SQLite file (the hall of this
checkout, or of the ``src`` directory given by ``--src``, put first on ``PYTHONPATH`` so
two versions of the hall are compared by the same client), creates a Jingzhou room of
``--hands`` hands with two bots (no clock, no pauses) and plays it over the websocket as a
person who answers every prompt at once: on a turn a win when there is one, else a
seeded random discard; in a claim window the first answer that is not 过 when there is
one, else 过. A prompt is a ``state`` frame with legal actions at a version not answered
yet. Each is counted as one of:

* ``turns`` — the person's own turns;
* ``real claims`` — a claim window with something besides 过 (胡, 碰, 杠, …);
* ``pass-only`` — a claim window in which 过 is the only answer (the hall of issue 38
  answers those itself and sends no prompt).

Prints each count and its mean per hand, the seconds the match took, and whether the
person was ever put on 托管. ``--json`` puts one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Hall:
    """``laizi serve`` in a subprocess, from ``src`` when given."""

    def __init__(self, workdir: Path, src: Path | None) -> None:
        self.port = free_port()
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if src is not None:
            self.env["PYTHONPATH"] = os.pathsep.join(
                [str(src), *filter(None, [os.environ.get("PYTHONPATH")])])
        self.db = f"sqlite+aiosqlite:///{(workdir / 'hall.db').resolve()}"
        self.err = workdir / "server.stderr"
        self.proc: subprocess.Popen[bytes] | None = None

    def code_path(self) -> str:
        """Where the server's ``laizi`` package comes from."""
        out = subprocess.run([sys.executable, "-c", "import laizi; print(laizi.__file__)"],
                             env=self.env, capture_output=True, text=True, check=True)
        return str(Path(out.stdout.strip()).parent)

    def start(self, timeout: float = 30.0) -> None:
        with open(self.err, "wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "laizi", "serve", "--port", str(self.port),
                 "--db", self.db], stdout=subprocess.DEVNULL, stderr=err, env=self.env,
                start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the hall did not start:\n{self.err.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise SystemExit(f"the hall did not answer in {timeout:.0f} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def kind_of(frame: dict[str, Any]) -> str:
    """``turns``, ``real claims`` or ``pass-only``: what a prompt asks."""
    if frame["view"].get("phase") == "turn":
        return "turns"
    if all(a["type"] == "pass" for a in frame["legal"]):
        return "pass-only"
    return "real claims"


def answer(frame: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The person's answer, at once: see the module's docstring."""
    legal: list[dict[str, Any]] = frame["legal"]
    wins = [a for a in legal if a["type"] == "win"]
    if wins:
        return wins[0]
    if frame["view"].get("phase") == "turn":
        discards = [a for a in legal if a["type"] == "discard"]
        return rng.choice(discards or legal)
    claims = [a for a in legal if a["type"] != "pass"]
    return claims[0] if claims else legal[0]


async def play(hall: Hall, hands: int, seed: int) -> dict[str, Any]:
    person = "阿明"
    r = httpx.post(f"{hall.http}/api/rooms", timeout=30, json={"name": person, "settings": {
        "variant": "jingzhou", "hands": hands, "bots": "greedy", "clock": None,
        "claim_min": 0, "bot_delay": 0, "between": 0, "grace": 600}})
    if r.status_code != 201:
        raise SystemExit(f"the room was refused: {r.text}")
    room = r.json()
    rng = random.Random(seed)
    counts = {"turns": 0, "real claims": 0, "pass-only": 0}
    seq = 0
    answered = -1
    auto_seen = False
    url = f"{hall.ws}/ws/{room['code']}?token={room['token']}"
    started = time.perf_counter()
    async with websockets.connect(url, max_size=2**23) as ws:
        seq += 1
        await ws.send(json.dumps({"op": "start", "seq": seq}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if frame.get("op") != "state":
                continue  # acks; a stale version's refusal is answered by the next frame
            info = frame["room"]
            auto_seen = auto_seen or person in info.get("auto", [])
            if info.get("over"):
                break
            if not frame["legal"] or frame["version"] == answered:
                continue
            answered = frame["version"]
            counts[kind_of(frame)] += 1
            seq += 1
            await ws.send(json.dumps({"op": "act", "seq": seq, "version": frame["version"],
                                      "action": answer(frame, rng)}))
    return {"hands": int(info["hands"]), "prompts": counts,
            "per_hand": {k: round(v / max(1, int(info["hands"])), 2)
                         for k, v in counts.items()},
            "seconds": round(time.perf_counter() - started, 2), "auto": auto_seen}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=20, help="hands to play (default 20)")
    p.add_argument("--src", type=Path, default=None,
                   help="the src directory of another checkout (put first on PYTHONPATH)")
    p.add_argument("--seed", type=int, default=1, help="the person's random discards")
    p.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = p.parse_args(argv)
    if args.src is not None and not (args.src / "laizi").is_dir():
        p.error(f"{args.src} has no laizi package")
    with tempfile.TemporaryDirectory(prefix="bench-prompts-") as tmp:
        hall = Hall(Path(tmp), args.src.resolve() if args.src else None)
        where = hall.code_path()
        hall.start()
        try:
            result = asyncio.run(play(hall, args.hands, args.seed))
        finally:
            hall.stop()
    result["code"] = where
    print(f"hall: {where}")
    print(f"{result['hands']} jingzhou hands against two bots in {result['seconds']} s; "
          f"托管 {'yes' if result['auto'] else 'never'}")
    for kind, n in result["prompts"].items():
        print(f"  {kind:<12} {n:>5}  {result['per_hand'][kind]:>6.2f} per hand")
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
