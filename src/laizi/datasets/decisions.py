"""Decisions as a dataset: every decision of a table log as one JSON line (schema
``laizi.decisions``, version :data:`SCHEMA_VERSION`; docs/datasets.md).

A log is replayed line by line (:meth:`laizi.table.table.Table.replay`, the very check
``laizi verify`` makes), and before each ``action`` line the seat that acts is observed
as the environment observes it (:func:`laizi.env.encoding.encode_view`, and for
observation version 1 :func:`laizi.env.history.encode_history`), with its legal actions
(the indices of the action mask, :func:`laizi.env.encoding.action_mask`) and the index
of the action it took. When the hand ends, each of its decisions gets the hand's outcome
for its seat. Forced passes (``pass`` the only legal answer: nobody is asked, as in the
environments) are left out unless asked for.

Simulated matches are table logs too (:func:`simulated_logs`): bots play hands in the
public seed mode, exactly as ``laizi simulate`` deals them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from laizi.core.jsondata import JSON
from laizi.env.aec import PublicFeed
from laizi.env.encoding import NUM_ACTIONS, OBS_SHAPE, action_index, action_mask, encode_view
from laizi.env.history import HISTORY_SHAPE, encode_history
from laizi.errors import LogError
from laizi.table.decisions import pass_only
from laizi.table.events import read_line
from laizi.table.table import Table
from laizi.vocab import ActionType, Outcome, TableEventType, WinHow

__all__ = ["SCHEMA", "SCHEMA_VERSION", "Source", "backup_logs", "header", "log_decisions",
           "simulated_logs"]

SCHEMA = "laizi.decisions"
SCHEMA_VERSION = 1
"""Bumped whenever a field changes meaning or goes away (a new field does not)."""
_DIGITS = 6


@dataclass(frozen=True, slots=True)
class Source:
    """Where a log comes from, written in each of its decisions: a file (``file``) or a
    simulated hand (``seed``)."""

    match: int
    """The log's place in the export (0, 1, …)."""
    file: str | None = None
    seed: int | None = None


def header(variant: str, obs_version: int, forced: bool, source: JSON) -> JSON:
    """The first line of an export: the schema and what its decisions hold."""
    out: JSON = {"schema": SCHEMA, "version": SCHEMA_VERSION, "variant": variant,
                 "obs_version": obs_version, "obs_shape": list(OBS_SHAPE),
                 "num_actions": NUM_ACTIONS, "forced_passes": forced, "source": source}
    if obs_version >= 1:
        out["history_shape"] = list(HISTORY_SHAPE)
    return out


def _planes(array: object) -> list[object]:
    """A float array as nested lists, rounded (the planes are quarters, the scalars
    fractions: six digits keep every value the encoder makes apart)."""
    import numpy as np

    assert isinstance(array, np.ndarray)
    out: list[object] = np.round(array.astype(np.float64), _DIGITS).tolist()
    return out


def _outcome(end: Mapping[str, object], seats: Sequence[str], seat: int) -> JSON:
    record = end["record"]
    net = end["net"]
    assert isinstance(record, dict) and isinstance(net, dict)
    winners = [int(w) for w in record.get("winners", [])]
    source = record.get("from")
    dealt_in = source == seat and record.get("how") in (WinHow.DISCARD, WinHow.ROBBED_KONG)
    result = "win" if seat in winners else "draw" if not winners else \
        "dealt_in" if dealt_in else "lose"
    if record.get("outcome") == Outcome.WRONG_WIN:  # 错和: its caller pays, the others collect
        result = "wrong_win" if source == seat else "collect"
    return {"net": int(net[seats[seat]]), "result": result, "outcome": record.get("outcome"),
            "winners": winners, "how": record.get("how"), "from": source}


def log_decisions(lines: Iterable[str | Mapping[str, object]], source: Source, *,
                  variant: str | None = None, obs_version: int = 0,
                  forced: bool = False, secret: bytes | None = None) -> Iterator[JSON]:
    """The decisions of a table log, one JSON object each (docs/datasets.md). The log
    must replay exactly (:class:`~laizi.errors.LogError` otherwise); ``variant``, when
    given, must be the log's; ``secret`` opens the deals of a log not closed yet (a
    hall's stored room). A hand still in play at the end of the log is left out."""
    entries = [read_line(no, line) for no, line in enumerate(lines, 1)]
    if variant is not None and entries and entries[0].get("variant") != variant:
        raise LogError(f"the log is of {entries[0].get('variant')!r}, not {variant!r}")
    feed: PublicFeed | None = None
    hand: list[JSON] = []
    seats: list[str] = []
    for n, table in Table.replay(entries, secret=secret):
        if feed is None and obs_version >= 1:
            feed = PublicFeed(table)
        line = entries[n - 1]
        if line.get("type") == TableEventType.HAND:
            hand, seats = [], [str(p) for p in line["seats"]]
        elif line.get("type") == TableEventType.HAND_END:
            for step in hand:
                step["outcome"] = _outcome(line, seats, int(step["seat"]))
                yield step
            hand = []
        if n < len(entries) and entries[n].get("type") == TableEventType.ACTION:
            made = _decision(table, entries[n], len(hand), source, feed, forced)
            if made is not None:
                hand.append(made)


def _decision(table: Table, entry: Mapping[str, object], step: int, source: Source,
              feed: PublicFeed | None, forced: bool) -> JSON | None:
    """The decision the next ``action`` line answers, seen before it is played."""
    action = entry["action"]
    assert isinstance(action, dict)
    seat = int(action["seat"])
    if action.get("type") == ActionType.WRONG_WIN:
        return None  # 错和: no legal action, so no index in the space; the outcome says it
    legal = table.legal_actions(seat)
    if not forced and pass_only(legal):
        return None
    chosen = next((a for a in legal if a.to_json() == action), None)
    if chosen is None:  # Table.replay refuses it next; say so here first
        raise LogError(f"hand {table.number - 1}: seat {seat} plays {action}, not legal")
    view = table.view(seat)
    mask = action_mask(legal)
    out: JSON = {"match": source.match, "hand": table.number - 1, "step": step,
                 "seat": seat, "phase": str(view["phase"]),
                 "obs": _planes(encode_view(view)),
                 "legal": [int(i) for i in mask.nonzero()[0]],
                 "action": action_index(chosen), "action_json": dict(action)}
    if feed is not None:
        out["history"] = _planes(encode_history(feed.history(), seat))
    if source.file is not None:
        out["file"] = source.file
    if source.seed is not None:
        out["seed"] = source.seed
    return out


def simulated_logs(variant: str, bots: Sequence[str], hands: int, seed: int,
                   options: Mapping[str, object] | None = None) -> Iterator[tuple[int, str]]:
    """``(seed, log)`` of ``hands`` hands played by ``bots`` (specs by seat), each the
    first hand of its own table in the public seed mode (seeds ``seed``, ``seed + 1``,
    …; the dealer moves round), as ``laizi simulate`` plays them."""
    from laizi.bots.registry import make_bot
    from laizi.sim.arena import fill_bots
    from laizi.sim.hands import HandTask, bot_seed, hand_table
    from laizi.table.driver import BotController, play_hand
    from laizi.variants import get as get_variant

    seats = get_variant(variant).seats
    specs = tuple(fill_bots(list(bots), seats))  # a shorter list: its last bot fills up
    opts = tuple(sorted((options or {}).items()))
    for i in range(hands):
        task = HandTask(variant, seed + i, specs, opts, dealer=i % seats)
        table = hand_table(task)
        controllers = [BotController(make_bot(spec, bot_seed(task.seed, s)))
                       for s, spec in enumerate(task.bots)]
        table.start_hand()
        try:
            play_hand(table, controllers)
        finally:
            for c in controllers:
                close = getattr(c.bot, "close", None)
                if close is not None:
                    close()
        table.close()
        yield task.seed, table.dumps()


def backup_logs(lines: Sequence[str], variant: str) -> Iterator[tuple[str, list[str], bytes]]:
    """``(room code, log lines, secret)`` of every room of ``variant`` in a hall's backup
    (``laizi backup``: a ``laizi_backup`` line, then ``{"t": TABLE, "r": ROW}`` lines):
    the hall's stored logs, each with the room's secret."""
    import json

    from laizi.table import deals

    rooms: dict[str, str] = {}
    logs: dict[str, list[tuple[int, str]]] = {}
    for text in lines[1:]:
        item = json.loads(text)
        row = item.get("r") if isinstance(item, dict) else None
        if not isinstance(row, dict):
            continue
        if item.get("t") == "rooms" and row.get("variant") == variant:
            rooms[str(row["code"])] = str(row["secret"])
        elif item.get("t") == "log_lines":
            logs.setdefault(str(row["room"]), []).append((int(row["n"]), str(row["line"])))
    for code in sorted(rooms):
        if code in logs:
            ordered = [line for _, line in sorted(logs[code])]
            yield code, ordered, deals.parse_secret(rooms[code])


def is_backup(first_line: str) -> bool:
    """Whether a file whose first line is this is a hall backup (``laizi backup``)."""
    return first_line.startswith('{"laizi_backup"')
