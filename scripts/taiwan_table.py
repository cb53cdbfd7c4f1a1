"""Print the Taiwan 台 table (seed 004, items 1-36) from the code's data, as Markdown.

    .venv/bin/python scripts/taiwan_table.py            # the seed's values
    .venv/bin/python scripts/taiwan_table.py --preset common

docs/rules/taiwan.md embeds its output between the ``table`` markers; ``--check`` fails if
the doc is out of date, ``--write`` rewrites that part of the doc.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from laizi.scoring.taiwan import ITEMS, PRESETS
from laizi.scoring.taiwan.items import BY_ID, default_value

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules" / "taiwan.md"
BEGIN, END = "<!-- table:begin (scripts/taiwan_table.py) -->", "<!-- table:end -->"


def table(preset: str = "seed") -> str:
    overrides = PRESETS[preset].overrides

    def value(key: str) -> int:
        return overrides.get(key, default_value(key))

    lines = [
        "| # | 名堂 | name | id | 台 | not counted with it (不计) | rule |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for d in ITEMS:
        tai = str(value(d.id))
        if d.extra:
            tai += " (" + ", ".join(f"{sub} {value(f'{d.id}.{sub}')}" for sub, _ in d.extra) + ")"
        if d.kind == "dealer":
            tai += " dealer"
        excl = ", ".join(BY_ID[x].zh for x in d.excludes)
        lines.append(f"| {d.number} | {d.zh} | {d.en} | `{d.id}` | {tai} | {excl} | {d.note} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", choices=sorted(PRESETS), default="seed")
    ap.add_argument("--check", action="store_true", help="fail if docs/rules/taiwan.md is stale")
    ap.add_argument("--write", action="store_true", help="rewrite the table in the doc")
    args = ap.parse_args(argv)
    text = table(args.preset)
    if not (args.check or args.write):
        sys.stdout.write(text)
        return 0
    doc = DOC.read_text(encoding="utf-8")
    head, _, rest = doc.partition(BEGIN)
    _, _, tail = rest.partition(END)
    fresh = f"{head}{BEGIN}\n{table('seed')}{END}{tail}"
    if args.write:
        DOC.write_text(fresh, encoding="utf-8")
        return 0
    if fresh != doc:
        print("docs/rules/taiwan.md is stale: run scripts/taiwan_table.py --write",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
