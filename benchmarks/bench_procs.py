"""The processes of ``bench_server.py``: servers and a private Redis started and
stopped, their CPU, context switches and memory read from /proc, Redis asked over a
socket."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _switches(pids: list[int]) -> int:
    """Context switches so far of every process of the trees of ``pids`` (voluntary: it
    waited for something; not: the scheduler took the core). On a machine of two cores
    shared with the clients, Redis and PostgreSQL, server CPU per action follows them
    more closely than it follows the Python the servers run (docs/deploy.md)."""
    total = 0
    for root in pids:
        for p in _tree(root):
            with contextlib.suppress(OSError, ValueError):
                for line in Path(f"/proc/{p}/status").read_text().splitlines():
                    if "ctxt_switches:" in line:
                        total += int(line.split()[1])
    return total


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _tree(pid: int) -> list[int]:
    """``pid`` and every process under it (uvicorn's workers, the search bots' pool)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        with contextlib.suppress(OSError):
            todo += [int(c) for c in
                     Path(f"/proc/{p}/task/{p}/children").read_text().split()]
    return out


def _tree_cpu(pids: list[int]) -> dict[int, float]:
    """CPU seconds of every process of the trees of ``pids``, by process id."""
    out = {}
    for root in pids:
        for p in _tree(root):
            with contextlib.suppress(OSError, IndexError, ValueError):
                out[p] = _cpu_seconds(p)
    return out


def _cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU used between two :func:`_tree_cpu` readings (processes that started meanwhile
    count in full; one that ended meanwhile is not counted)."""
    return sum(t - before.get(p, 0.0) for p, t in after.items())


def _redis_command(url: str, *args: str) -> str:
    """One Redis command over a socket (RESP); a bulk or simple string answer."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379),
                                  timeout=5) as sock:
        lines = []
        if parts.password:
            auth = ["AUTH", *([parts.username] if parts.username else []), parts.password]
            lines.append(auth)
        lines.append(list(args))
        sock.sendall(b"".join(
            b"*%d\r\n" % len(cmd) + b"".join(b"$%d\r\n%s\r\n" % (len(a.encode()), a.encode())
                                            for a in cmd) for cmd in lines))
        reader = sock.makefile("rb")
        answer = ""
        for _ in lines:
            head = reader.readline().decode().rstrip("\r\n")
            if head.startswith("-"):
                raise RuntimeError(f"redis: {head}")
            if head.startswith("$"):
                size = int(head[1:])
                answer = "" if size < 0 else reader.read(size + 2)[:-2].decode()
            else:
                answer = head[1:]
        return answer


def _rss(pids: list[int]) -> int:
    """Resident bytes of ``pids`` and their children (``VmRSS``, /proc)."""
    total = 0
    for pid in (p for top in pids for p in _tree(top)):
        with contextlib.suppress(OSError, ValueError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def _redis_commands(url: str | None) -> int | None:
    """Commands Redis has processed since it started (``INFO stats``)."""
    if url is None:
        return None
    with contextlib.suppress(OSError, ValueError):
        for line in _redis_command(url, "INFO", "stats").splitlines():
            if line.startswith("total_commands_processed:"):
                return int(line.split(":")[1])
    return None


def _redis_cpu(url: str | None) -> float | None:
    """Redis's own CPU seconds so far (``INFO cpu``: used_cpu_sys + used_cpu_user)."""
    if url is None:
        return None
    try:
        info = _redis_command(url, "INFO", "cpu")
    except (OSError, RuntimeError):
        return None
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    return float(fields.get("used_cpu_sys", 0)) + float(fields.get("used_cpu_user", 0))

def _laizi() -> Path:
    return Path(sys.executable).with_name("laizi")


def _wait_healthy(url: str, proc: subprocess.Popen[str], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"laizi serve exited ({proc.returncode})")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer in {timeout} s")


@contextlib.contextmanager
def _private_redis() -> Iterator[tuple[str, int]]:
    """A ``redis-server`` of our own on a free port, no persistence; (URL, pid)."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        raise SystemExit("several processes need Redis: --redis URL, or install "
                         "redis-server")
    port = _free_port()
    directory = tempfile.mkdtemp()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", directory],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        for _ in range(100):
            with contextlib.suppress(OSError, RuntimeError):
                if _redis_command(url, "PING") == "PONG":
                    break
            time.sleep(0.05)
        yield url, proc.pid
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def _servers(db: str, processes: int, workers: int, redis_url: str | None,
             affine: bool = False) -> Iterator[tuple[list[str], list[int]]]:
    """``processes`` ``laizi serve`` (each ``--workers workers`` when > 1) on free ports:
    their URLs and pids. The first migrates the database before the others start."""
    procs: list[subprocess.Popen[str]] = []
    urls: list[str] = []
    logs = Path(tempfile.mkdtemp(prefix="bench-server-"))
    try:
        for _ in range(processes):
            port = _free_port()
            cmd = [str(_laizi()), "serve", "--port", str(port), "--db", db]
            if redis_url is not None:
                cmd += ["--redis", redis_url]
            if workers > 1:
                cmd += ["--workers", str(workers)]
            env = os.environ | ({"LAIZI_HALL_AFFINE": "1"} if affine else {})
            with open(logs / f"serve-{port}.stderr", "wb") as err:
                proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True,
                                        start_new_session=True, env=env)
            procs.append(proc)
            assert proc.stdout is not None
            proc.stdout.readline()
            urls.append(f"http://127.0.0.1:{port}")
            if len(procs) == 1:
                _wait_healthy(urls[0], proc)
        for url, proc in zip(urls, procs, strict=True):
            _wait_healthy(url, proc)
        yield urls, [p.pid for p in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()  # a graceful stop (uvicorn stops its workers)
        for proc in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(20)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # anything left of its group
            proc.wait(10)
        if any(p.stat().st_size for p in logs.iterdir()):
            print(f"bench_server: the servers' stderr is in {logs}", file=sys.stderr)
        else:
            shutil.rmtree(logs, ignore_errors=True)
