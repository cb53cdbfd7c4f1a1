"""The code's shape, counted by an AST pass over ``src/laizi`` (issue 39's measures).

    python scripts/code_metrics.py            # the figures
    python scripts/code_metrics.py -v         # ... and where each one is
    python scripts/code_metrics.py --check    # exit 1 while a target is not met

Counted: the name ``Any`` (annotations included) and ``dict[str, Any]``; comparisons of a
word of the vocabulary (an attribute, key or name ``phase``, ``type``, ``kind``, ``how``,
``op``, ``turn_kind``, ``outcome``) with a string literal, where a ``laizi.vocab`` member
belongs; import circles among the modules (every import counts: inside functions and under
``TYPE_CHECKING`` too, since an import moved into a function still ties the two modules);
files over 600 lines; functions over 80 lines; fixed-time sleeps in the hall's tests: a
``sleep(...)`` or a browser test's ``wait_for_timeout(...)`` of a number of seconds or
milliseconds written out (a loop looking again at a condition waits the named
``POLL`` / ``POLL_MS`` of tests/conditions.py, counted apart as ``polls``).
"""

from __future__ import annotations

import ast
import pathlib
import re
import sys
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "laizi"
VOCAB = {"phase", "type", "kind", "how", "op", "turn_kind", "outcome"}
GENERATED = {"src/laizi/scoring/mcr/tables.py"}  # generated data (scripts/gen_tables.py)
LONG_FUNCTIONS_ALLOWED = {
    "src/laizi/analysis/_group.py:compute_need",  # the analysis DP
    "src/laizi/scoring/mcr/golden.py:score_golden",  # the golden branch-and-bound
}
HALL_TESTS = ("test_cluster", "test_server", "test_room", "test_bus", "test_connect",
              "server_helpers", "browser_helpers", "test_limits", "test_share",
              "test_browser", "test_client_", "test_table_page", "test_settlement_words",
              "test_operator")
# A wait of a fixed time: sleep(0) only yields to the event loop (it waits for nothing).
FIXED_WAIT = re.compile(r"\b(?:sleep|wait_for_timeout)\(\s*(?!0\s*\))[0-9._]+\s*\)")
POLL_WAIT = re.compile(r"\b(?:sleep|wait_for_timeout)\(\s*POLL(?:_MS)?\s*\)")
TARGETS = {"any": 150, "literal": 10}


def _module(path: pathlib.Path) -> str:
    mod = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
    return mod.removesuffix(".__init__")


def _vocab(e: ast.expr) -> bool:
    if isinstance(e, ast.Attribute):
        return e.attr in VOCAB
    if isinstance(e, ast.Name):
        return e.id in VOCAB
    if isinstance(e, ast.Subscript):
        return isinstance(e.slice, ast.Constant) and e.slice.value in VOCAB
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "get":
        return bool(e.args) and isinstance(e.args[0], ast.Constant) and e.args[0].value in VOCAB
    return False


def _literal(e: ast.expr) -> bool:
    if isinstance(e, ast.Constant):
        return isinstance(e.value, str)
    if isinstance(e, (ast.Tuple, ast.Set, ast.List)):
        return bool(e.elts) and all(isinstance(x, ast.Constant) and isinstance(x.value, str)
                                    for x in e.elts)
    return False


def _targets(node: ast.ImportFrom | ast.Import, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    return [target] + [f"{target}.{a.name}" for a in node.names]


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def measure() -> dict[str, list[str]]:
    files = {_module(p): p for p in sorted(SRC.rglob("*.py"))}
    out: dict[str, list[str]] = defaultdict(list)
    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        rel = str(path.relative_to(ROOT))
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        lines = len(text.splitlines())
        if lines > 600 and rel not in GENERATED:
            out["long_files"].append(f"{rel} ({lines} lines)")
        out["dict_any"] += [rel] * len(re.findall(r"dict\[str, Any\]", text))
        out["type_ignore"] += [rel] * text.count("type: ignore")
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "Any":
                out["any"].append(f"{rel}:{node.lineno}")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                where = f"{rel}:{node.name}"
                if size > 80 and where not in LONG_FUNCTIONS_ALLOWED:
                    out["long_functions"].append(f"{where} ({size} lines)")
            elif isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(map(_vocab, sides)) and any(map(_literal, sides)):
                    out["literal"].append(f"{rel}:{node.lineno}")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(node, package):
                    if target in files and target != mod:
                        graph[mod].add(target)
    out["cycles"] = [" ↔ ".join(c) for c in _cycles(graph)]
    for path in sorted((ROOT / "tests").glob("*.py")):
        if path.stem.startswith(HALL_TESTS):
            text = path.read_text(encoding="utf-8")
            for no, line in enumerate(text.splitlines(), 1):
                if FIXED_WAIT.search(line):
                    out["fixed_sleeps"].append(f"{path.relative_to(ROOT)}:{no}")
                elif POLL_WAIT.search(line):
                    out["polls"].append(f"{path.relative_to(ROOT)}:{no}")
    return out


def main(argv: list[str]) -> int:
    found = measure()
    names = ["any", "dict_any", "type_ignore", "literal", "cycles", "long_files",
             "long_functions", "fixed_sleeps", "polls"]
    failed = []
    for name in names:
        items = found.get(name, [])
        target = TARGETS.get(name, 1 if name in ("cycles", "long_files", "long_functions",
                                                 "fixed_sleeps") else None)
        mark = ""
        if target is not None:
            ok = len(items) < target
            mark = f"   (target: under {target}) {'ok' if ok else 'NOT MET'}"
            if not ok:
                failed.append(name)
        print(f"{name:15} {len(items):5}{mark}")
        if "-v" in argv or (name in ("cycles", "long_files", "long_functions") and items):
            for item in items:
                print(f"    {item}")
    return 1 if failed and "--check" in argv else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
