"""What a generator of a committed file does with its text (``scripts/gen_hant.py``,
``scripts/gen_protocol.py``): write it, or with ``--check`` exit 1 while the committed file
differs (a test and CI run the check; the hall has no build step to write it)."""

from __future__ import annotations

import argparse
import pathlib
import sys
from collections.abc import Callable


def write_or_check(argv: list[str] | None, *, script: str, doc: str | None,
                   out: pathlib.Path, root: pathlib.Path, render: Callable[[], str]) -> int:
    """The command line of the generator ``script`` (its file; ``doc`` its docstring,
    whose first line is its help): ``out`` the file it writes (named under ``root`` when
    stale), ``render`` the text. The exit status."""
    path = pathlib.Path(script)
    parser = argparse.ArgumentParser(description=(doc or path.name).splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when the committed file differs from the output")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            print(f"{out.relative_to(root)} is stale: run python scripts/{path.name}",
                  file=sys.stderr)
            return 1
        return 0
    out.write_text(text, encoding="utf-8")
    return 0
