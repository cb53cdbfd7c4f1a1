"""``static/js/protocol.js`` is generated from the Python vocabulary
(``scripts/gen_protocol.py``) and committed: these tests fail when it is stale, and check
that what the generator writes is every word of every enum, spelt as the server spells it."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from laizi import vocab
from laizi.errors import ErrorCode

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gen_protocol.py"
PROTOCOL = ROOT / "src" / "laizi" / "server" / "static" / "js" / "protocol.js"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_protocol", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_protocol_js_is_what_the_script_writes() -> None:
    assert PROTOCOL.read_text(encoding="utf-8") == _generator().render(), (
        "static/js/protocol.js is stale: run python scripts/gen_protocol.py")


def test_check_mode_fails_on_a_stale_file(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    gen = _generator()
    stale = tmp_path / "protocol.js"
    stale.write_text(gen.render().replace('"discard"', '"discrad"'), encoding="utf-8")
    monkeypatch.setattr(gen, "OUT", stale)
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    assert gen.main(["--check"]) == 1
    assert gen.main([]) == 0  # writes it again
    assert gen.main(["--check"]) == 0


def test_the_script_runs_on_its_own() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], cwd=ROOT,
                          capture_output=True, text=True, check=False,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("enum", [vocab.Phase, vocab.TurnStart, vocab.ActionType,
                                  vocab.MeldKind, vocab.WinHow, vocab.HandEnd,
                                  vocab.GameEventType, vocab.TableEventType, vocab.ClientOp,
                                  vocab.ServerOp, vocab.QuickPhrase, ErrorCode])
def test_every_word_is_a_frozen_constant_and_in_its_union(enum: type) -> None:
    text = PROTOCOL.read_text(encoding="utf-8")
    block = re.search(rf"export const {enum.__name__} = Object\.freeze\(\{{\n(.*?)\n\}}\);",
                      text, re.S)
    assert block is not None, enum.__name__
    pairs = re.findall(r'^  (\w+): "([^"]*)",$', block.group(1), re.M)
    assert pairs == [(m.name, m.value) for m in enum]
    union = re.search(rf"@typedef \{{([^}}]*)\}} {enum.__name__}Word \*/", text)
    assert union is not None
    assert union.group(1).split(" | ") == [f'"{m.value}"' for m in enum]


def test_the_room_typedef_has_every_field_of_the_room_info() -> None:
    """RoomJSON is written in the generator: it must name exactly RoomInfo's fields, so
    a field added on the server is typed for the client too."""
    from typing import get_type_hints

    from laizi.server.room_state import RoomInfo

    gen = _generator()
    room = next(fields for name, _, fields in gen.FRAMES if name == "RoomJSON")
    assert [f[0] for f in room] == list(get_type_hints(RoomInfo))
