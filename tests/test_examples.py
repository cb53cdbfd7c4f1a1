"""Every example the docs give runs: the records of docs/examples, each ``laizi ...``
command of README.md, docs/*.md and ``laizi COMMAND --help``, and README's library
snippet.

A command is a line of a code block (fenced, or indented in README style) that starts
with ``laizi``, ``.venv/bin/laizi`` or ``$ laizi``, or pipes ``cat FILE`` / ``printf FMT``
into one. It must exit 0, unless the line ends with a comment ``# exits N``. A ``$``
line followed by other lines in its block shows its output: stdout must be exactly that.
The commands of one page run in order in one scratch directory (so ``--save LOG`` then
``laizi verify LOG`` works) where ``docs`` is the repository's, with empty stdin (a
``laizi play`` leaves at its first prompt). Two markers, an HTML comment on the line before
a block, say a block is not run: ``<!-- examples: synopsis -->`` (a usage line with
placeholders) and ``<!-- examples: not run (why) -->`` (its commands are parsed, not run).
``laizi serve`` and ``laizi connect`` are parsed, never run: a server runs until stopped,
and a client needs one.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from laizi.cli import COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "docs" / "rules").glob("*.md"))]
PARSED_ONLY = {"serve", "connect"}


def test_there_is_an_example_per_variant() -> None:
    names = {p.name.split("-")[0] for p in EXAMPLES}
    assert names == {"jingzhou", "huanghuang", "golden", "mcr", "taiwan"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_settles_to_zero(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["payments"], "a won hand has payments"
    assert sum(out["net"]) == 0
    assert all(p["amount"] > 0 and p["reasons"] for p in out["payments"])


# ---------------------------------------------------------------- finding the commands


@dataclass
class Example:
    where: str
    line: str
    argv: list[str]
    stdin: str = ""
    exit: int = 0
    run: bool = True
    output: list[str] | None = None
    """The output the page shows under a ``$`` line, or ``None``."""
    notes: list[str] = field(default_factory=list)


_EXITS = re.compile(r"#\s*exits\s+(\d+)")
_PROMPTS = ("$ laizi ", "laizi ", ".venv/bin/laizi ", "$ .venv/bin/laizi ")


def _printf(fmt: str) -> str:
    return fmt.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def parse_command(text: str, where: str) -> Example | None:
    """The example a code line holds, or ``None`` when it is not a ``laizi`` command."""
    line = text.strip()
    stdin = ""
    if " | " in line:
        left, _, right = line.partition(" | ")
        if not right.startswith(("laizi ", ".venv/bin/laizi ")):
            return None
        words = shlex.split(left)
        if words[:1] == ["cat"] and len(words) == 2:
            stdin = f"@{words[1]}"  # read when run, in the scratch directory
        elif words[:1] == ["printf"] and len(words) == 2:
            stdin = _printf(words[1])
        else:
            raise AssertionError(f"{where}: cannot run the pipeline {line!r}")
        line = right
    if not line.startswith(_PROMPTS):
        return None
    exits = _EXITS.search(line)
    words = shlex.split(line.removeprefix("$ "), comments=True)
    argv = words[1:]
    if not argv or not (argv[0] in COMMANDS or argv[0].startswith("--")):
        return None  # e.g. "laizi score_hand ..." in a table of timings
    return Example(where, text.strip(), argv, stdin, int(exits.group(1)) if exits else 0,
                   run=argv[0] not in PARSED_ONLY)


def blocks(text: str) -> Iterator[tuple[int, list[str], str]]:
    """(first line number, lines, marker) of each code block: fenced, or indented by four
    spaces after a blank line; ``marker`` is the HTML comment just before it, if any."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        before = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = before if before.startswith("<!-- examples:") else ""
        if line.lstrip().startswith("```"):
            indent = len(line) - len(line.lstrip())
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            yield i + 2, [x[indent:] for x in lines[i + 1:j]], marker
            i = j + 1
            continue
        if line.startswith("    ") and line.strip() and (i == 0 or not lines[i - 1].strip()):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            yield i + 1, [x[4:] for x in lines[i:j]], marker
            i = j
            continue
        i += 1


def page_examples(path: Path) -> list[Example]:
    out: list[Example] = []
    name = path.relative_to(ROOT).as_posix()
    for start, lines, marker in blocks(path.read_text("utf-8")):
        if marker.startswith("<!-- examples: synopsis"):
            continue
        current: Example | None = None
        for k, text in enumerate(lines):
            ex = parse_command(text, f"{name}:{start + k}")
            if ex is not None:
                if marker.startswith("<!-- examples: not run"):
                    ex.run = False
                out.append(ex)
                current = ex if text.lstrip().startswith("$ ") else None
                if current is not None:
                    current.output = []
            elif current is not None and current.output is not None:
                shown = current.output
                if text.lstrip().startswith("$ "):
                    current = None
                else:
                    shown.append(text)
    for ex in out:
        if ex.output is not None:
            while ex.output and not ex.output[-1].strip():
                ex.output.pop()
            if not ex.output:
                ex.output = None
    return out


def help_examples(command: str) -> list[Example]:
    parser = build_parser([command])
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub = action.choices[command]
    out = []
    for k, text in enumerate(sub.format_help().splitlines()):
        if text.startswith("  ") and ("laizi " in text):
            ex = parse_command(text, f"laizi {command} --help, line {k + 1}")
            if ex is not None:
                out.append(ex)
    return out


# ---------------------------------------------------------------- running them


@contextlib.contextmanager
def scratch(tmp: Path) -> Iterator[None]:
    (tmp / "docs").symlink_to(ROOT / "docs")
    old = os.getcwd()
    os.chdir(tmp)
    try:
        yield
    finally:
        os.chdir(old)


def run_example(ex: Example, monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str]) -> str | None:
    """What is wrong with the example when run, or ``None``."""
    if not ex.run:
        try:
            build_parser(ex.argv).parse_args(ex.argv)
        except SystemExit as stop:
            return f"{ex.where}: {ex.line!r} does not parse (exit {stop.code})"
        return None
    stdin = Path(ex.stdin[1:]).read_text("utf-8") if ex.stdin.startswith("@") else ex.stdin
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    capsys.readouterr()
    try:
        code = main(ex.argv)
    except SystemExit as stop:  # --help, --version, argparse errors
        code = stop.code if isinstance(stop.code, int) else 2
    out, err = capsys.readouterr()
    if code != ex.exit:
        tail = (err.strip().splitlines() or out.strip().splitlines() or [""])[-1]
        return f"{ex.where}: {ex.line!r} exited {code}, not {ex.exit}: {tail}"
    if ex.output is not None:
        got = [x.rstrip() for x in out.rstrip().splitlines()]
        want = [x.rstrip() for x in ex.output]
        if got != want:
            return f"{ex.where}: {ex.line!r} printed\n" + "\n".join(got) + \
                "\nbut the page shows\n" + "\n".join(want)
    return None


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_command_of_a_page_runs(page: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    examples = page_examples(page)
    with scratch(tmp_path):
        problems = [p for ex in examples if (p := run_example(ex, monkeypatch, capsys))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_of_a_help_text_runs(command: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    examples = help_examples(command)
    with scratch(tmp_path):
        problems = [p for ex in examples if (p := run_example(ex, monkeypatch, capsys))]
    assert not problems, "\n".join(problems)


def test_the_pages_and_help_texts_hold_examples() -> None:
    # The finder must find what is there: a broken finder would pass every page.
    readme = page_examples(ROOT / "README.md")
    assert {e.argv[0] for e in readme} >= {"analyze", "fan", "score", "simulate", "connect"}
    assert any(e.output for e in page_examples(ROOT / "docs" / "analysis.md"))
    for command in ("analyze", "fan", "score", "simulate"):
        assert help_examples(command), command
    fan = help_examples("fan")
    assert any(e.exit == 1 for e in fan)
    assert sum(len(page_examples(p)) for p in PAGES) >= 30


def test_a_failing_example_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # The fan example the README used to give: 13 concealed tiles beside a pung.
    ex = parse_command('laizi fan "123m456p789s1122z" --win-tile 2z --melds "pung:555z" '
                       '--self-drawn', "old README")
    assert ex is not None
    with scratch(tmp_path):
        problem = run_example(ex, monkeypatch, capsys)
    assert problem is not None and "make 16" in problem


def test_readme_library_snippet_prints_what_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "README.md").read_text("utf-8")
    code = re.search(r"## As a library\n\n```python\n(.*?)```", text, re.S)
    assert code is not None
    source = code.group(1)
    expected = re.findall(r"^# prints: (.*)$", source, re.M)
    assert len(expected) >= 2
    exec(compile(source, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed == expected
    assert "[]" not in printed[-1]
