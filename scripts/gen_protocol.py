"""Write the browser's copy of the game's vocabulary: ``static/js/protocol.js``.

    python scripts/gen_protocol.py            # write the file
    python scripts/gen_protocol.py --check    # exit 1 when the committed file differs

The constants come from the Python definitions (every ``laizi.vocab`` enum,
``laizi.errors.ErrorCode``),
each as a frozen object whose keys are the members' names (``ActionType.DISCARD ===
"discard"``), with a JSDoc union of its values (``ActionTypeWord``). The frames the client
reads (``state`` / ``ack`` / ``error``, the view, a legal action, an event, the room) are
JSDoc typedefs declared below, their vocabulary fields typed by those unions, so ``tsc
--checkJs`` (``jsconfig.json``) checks the client against them. The file is committed (the
hall has no build step); ``tests/test_protocol_js.py`` fails when it is stale.
"""

from __future__ import annotations

import pathlib
import sys
from enum import StrEnum

from laizi import vocab
from laizi.errors import ErrorCode

# generated.py is beside this file; a test loads this file without scripts/ on the path.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from generated import write_or_check

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "laizi" / "server" / "static" / "js" / "protocol.js"

ENUMS: tuple[type[StrEnum], ...] = (
    vocab.Phase, vocab.TurnStart, vocab.ActionType, vocab.MeldKind, vocab.WinHow,
    vocab.Outcome, vocab.HandEnd, vocab.GameEventType, vocab.TableEventType, vocab.ClientOp,
    vocab.ServerOp, vocab.QuickPhrase, ErrorCode)

# The frames, as the hall writes them (server/rooms.py, table/table.py, engine views):
# (name, what it is, [(field, JS type, optional)]). Vocabulary fields name the unions
# generated from ENUMS (``<Enum>Word``).
Field = tuple[str, str, bool]
FRAMES: tuple[tuple[str, str, tuple[Field, ...]], ...] = (
    ("ActionJSON", "An action (a legal one, or one sent with `act`).", (
        ("type", "ActionTypeWord", False), ("seat", "number", False),
        ("tile", "number", True), ("tiles", "number[]", True))),
    ("MeldJSON", "A meld in a view (副露 / 杠).", (
        ("kind", "MeldKindWord", False), ("tiles", "number[]", False),
        ("from", "number | null", True), ("claimed", "number | null", True))),
    ("ErrorJSON", "Why a message was refused (laizi.errors).", (
        ("code", "ErrorCodeWord | string", False), ("message", "string", False),
        ("seat", "number | null", True), ("phase", "string | null", True),
        ("refusal", "ReasonJSON", True))),
    ("ReasonJSON", "A settlement reason or a refusal, in both languages (laizi.reasons).", (
        ("code", "string", False), ("params", "Record<string, any>", True),
        ("zh", "string", True), ("en", "string", True),
        ("parts", "Array<string | {seat: number}>", True))),
    ("HandRecordJSON", "A hand record (docs/hand-record.md), tiles in MPSZ.", (
        ("variant", "string", False), ("outcome", "OutcomeWord", False),
        ("dealer", "number", False), ("seats", "Array<Record<string, any>>", False),
        ("winners", "number[]", True), ("how", "WinHowWord", True),
        ("from", "number", True), ("tile", "string", True), ("after_kong", "boolean", True),
        ("wildcard", "string", True), ("options", "Record<string, any>", True))),
    ("EventJSON", "An event of a person's stream: a hand's (GameEventType) or the "
     "table's (TableEventType); `v` its place in the stream.", (
        ("type", "GameEventTypeWord | TableEventTypeWord", False),
        ("v", "number", True), ("seat", "number", True), ("tile", "number | null", True),
        ("tiles", "number[]", True), ("wildcard", "number | null", True),
        ("replacement", "boolean", True), ("action", "ActionJSON", True),
        ("answer", "boolean", True), ("meld", "MeldJSON", True),
        ("actions", "ActionJSON[]", True), ("record", "HandRecordJSON", True),
        ("number", "number", True), ("dealer", "number", True),
        ("seats", "Array<string | null>", True), ("person", "string", True))),
    ("TableViewJSON", "The table around the hand (Table.table_view).", (
        ("variant", "string", False), ("options", "Record<string, any>", False),
        ("seats", "Array<string | null>", False), ("waiting", "string[]", False),
        ("dealer", "number", False), ("hands", "number", False),
        ("ledger", "Record<string, number>", False), ("over", "boolean", False),
        ("in_hand", "boolean", False), ("horses_off", "string[]", False),
        ("max_hands", "number | null", True))),
    ("ViewJSON", "What one person sees (Table.view_for): a seat's view, or the public one; "
     "`phase` is `waiting` between hands.", (
        ("variant", "string", False), ("options", "Record<string, any>", False),
        ("seat", "number | null", True), ("seats", "number", False),
        ("dealer", "number", False), ("phase", "PhaseWord | \"waiting\"", False),
        ("turn", "number", False), ("hand", "number[]", False),
        ("drawn", "number | null", True), ("melds", "MeldJSON[][]", False),
        ("discards", "number[][]", False), ("flowers", "number[][]", False),
        ("hand_sizes", "number[]", False), ("indicators", "number[]", False),
        ("wildcard", "number | null", False), ("wall", "number", False),
        ("last_discard", "{seat: number, tile: number} | null", False),
        ("robbing", "{seat: number, tile: number} | null", False),
        ("passed_win", "boolean", False), ("extra", "Record<string, any>", True),
        ("result", "{record: HandRecordJSON} | null", True),
        ("table", "TableViewJSON", False), ("version", "number", False))),
    ("RoomJSON", "The room as everybody may see it (Room.info).", (
        ("code", "string", False), ("settings", "Record<string, any>", False),
        ("host", "string | null", False), ("seats", "Array<string | null>", False),
        ("waiting", "string[]", False), ("ledger", "Record<string, number>", False),
        ("hands", "number", False), ("started", "boolean", False),
        ("paused", "boolean", False), ("over", "boolean", False),
        ("in_hand", "boolean", False), ("auto", "string[]", False),
        ("kicked", "string[]", False), ("online", "string[]", False),
        ("spectators", "string[]", False),
        ("vote", "{agree: string[], against: string[], seconds: number} | null", False),
        ("ready", "string[]", False), ("idle", "boolean", False),
        ("locked", "boolean", False))),
    ("StateFrame", "`state`: the person's view, legal actions and new events.", (
        ("op", "\"state\"", False), ("version", "number", False),
        ("snapshot", "boolean", False), ("events", "EventJSON[]", False),
        ("view", "ViewJSON", False), ("legal", "ActionJSON[]", False),
        ("deadline", "number | null", False), ("room", "RoomJSON", False))),
    ("WaitHintJSON", "One 听牌 wait (laizi.engine.hints.WaitHint): the tile, its copies "
     "unseen by this seat, the seat's gain by self-draw and the least / most on a discard "
     "(null: no win that way).", (
        ("tile", "number", False), ("unseen", "number", False),
        ("self_draw", "number | null", False), ("on_discard", "[number, number] | null", False))),
    ("HintsJSON", "A seat's 听牌 hints: each discard that leaves the hand ready (its waits "
     "null when the turn's budget left them out: ask with `hint_waits`), or its waits now "
     "(laizi.engine.hints.Hints).", (
        ("discards", "Array<{tile: number, waits: WaitHintJSON[] | null}>", False),
        ("waits", "WaitHintJSON[]", False))),
    ("HintsFrame", "`hints`: the seat's 听牌 hints for the version of its last state frame "
     "(only to that seat, during a hand, when the room has hints on; empty lists when no "
     "discard or wait makes the hand ready).", (
        ("op", "\"hints\"", False), ("version", "number", False),
        ("hints", "HintsJSON", False))),
    ("AckFrame", "`ack`: a message was applied (`waits`: the answer to `hint_waits`).", (
        ("op", "\"ack\"", False), ("seq", "number | null", False),
        ("version", "number", True), ("pong", "boolean", True),
        ("waits", "WaitHintJSON[]", True))),
    ("ErrorFrame", "`error`: a message was refused; nothing changed.", (
        ("op", "\"error\"", False), ("seq", "number | null", True),
        ("error", "ErrorJSON", False))),
    ("PhraseFrame", "`phrase`: somebody in the room sent a quick phrase (not a game action).", (
        ("op", "\"phrase\"", False), ("who", "string", False),
        ("id", "QuickPhraseWord", False))),
)
UNIONS = (
    ("ServerFrame", "Whatever the hall sends a websocket.",
     "StateFrame | HintsFrame | AckFrame | ErrorFrame | PhraseFrame"),
    ("Answer", "The answer to a client message.", "AckFrame | ErrorFrame"),
)


def _enum(cls: type[StrEnum]) -> list[str]:
    doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
    return _constants(cls.__name__, doc, {m.name: m.value for m in cls})


def _constants(name: str, doc: str, members: dict[str, str]) -> list[str]:
    words = " | ".join(f'"{v}"' for v in members.values())
    lines = [f"/** @typedef {{{words}}} {name}Word */", f"/** {doc} */",
             f"export const {name} = Object.freeze({{"]
    lines += [f'  {k}: "{v}",' for k, v in members.items()]
    lines.append("});")
    return lines


def _frame(name: str, doc: str, fields: tuple[Field, ...]) -> list[str]:
    lines = ["/**", f" * {doc}", f" * @typedef {{object}} {name}"]
    for field, js, optional in fields:
        lines.append(f" * @property {{{js}}} {f'[{field}]' if optional else field}")
    lines.append(" */")
    return lines


def render() -> str:
    out = [
        "// GENERATED by scripts/gen_protocol.py from laizi.vocab and laizi.errors:",
        "// do not edit. Run `python scripts/gen_protocol.py` after changing them (a test fails",
        "// while this file is stale). The game's words for the browser, and the frames it",
        "// reads, as JSDoc types for `tsc --checkJs` (jsconfig.json).",
        "",
    ]
    for cls in ENUMS:
        out += _enum(cls)
        out.append("")
    for name, doc, fields in FRAMES:
        out += _frame(name, doc, fields)
        out.append("")
    for name, doc, union in UNIONS:
        out += [f"/** {doc} @typedef {{{union}}} {name} */", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check(argv, script=__file__, doc=__doc__, out=OUT, root=ROOT, render=render)

if __name__ == "__main__":
    raise SystemExit(main())
