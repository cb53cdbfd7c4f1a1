"""MCR hands in the Botzone match-log format, and Botzone match logs as laizi table logs.

Botzone's judge of "Chinese Standard Mahjong" (国标麻将) keeps a match as JSON (read from
the protocol's public description; docs/datasets.md marks what is our reading):

* ``initdata``: ``quan`` (the prevalent wind, 0-3) and ``walltiles`` (the wall, tile
  names separated by spaces; a fixed wall replays a deal);
* ``log``: the judge's turns and the players' turns, alternating. A judge turn is
  ``{"output": {"command": "request", "content": {"0": request, "1": …}}}`` — one request
  line per player id (the seat wind: 0 东 deals) — and the last one ``"command":
  "finish"`` with each player's score; a players' turn is ``{"0": {"verdict": "OK",
  "response": "PASS"}, …}``.

:func:`hand_logs` writes each finished hand of an MCR table log so: the requests and
responses are those the bridge (:class:`laizi.bots.botzone_protocol.Transcript`) tells a
Botzone bot, and ``walltiles`` is the hand's wall in laizi's order (the deal from its
front, draws from the front, replacements from the back). :func:`import_match` plays a
match log again at a laizi table whose first line gives that wall
(``Table(..., walls=[wall])``): every decision is read from the log's responses, and the
requests the table tells each seat must be the log's, so the table log it returns says
exactly the match (``laizi verify`` checks it again).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

from laizi import tiles as T
from laizi.bots.botzone_protocol import ProtocolError, Transcript, answer_action, tile_name
from laizi.core.jsondata import JSON
from laizi.engine.actions import DISCARD, Action
from laizi.errors import LogError
from laizi.table.decisions import decisions
from laizi.table.table import Table
from laizi.vocab import ActionType, GameEventType, Outcome, TableEventType

__all__ = ["GAME", "MATCH_FORMAT", "from_player_walls", "hand_logs", "import_match",
           "to_player_walls"]

GAME = "Chinese-Standard-Mahjong"
MATCH_FORMAT = 1
"""The version of our reading of the match log (``initdata.laizi_format``)."""
_WINDS = "ESWN"
_PLAYERS = 4
_BOTZONE_SET = [t for t in range(34) for _ in range(4)]


def _split_hands(events: Sequence[JSON], seat: int) -> list[Transcript]:
    """The transcripts of one person's stream, one per hand that ended."""
    out: list[Transcript] = []
    t = Transcript(seat)
    for e in events:
        if e.get("type") == GameEventType.START:
            t = Transcript(seat)
        t.feed(e)
        if e.get("type") == GameEventType.END:
            t.finish_opening()
            if t.responses and t.responses[-1] is None:
                t.responses[-1] = "PASS"
            out.append(t)
    return out


def _aligned(t: Transcript) -> tuple[list[str], list[str]]:
    """A seat's requests and responses as the judge sends them: every player reads one
    request a turn, so a player other than the dealer reads ``3 0 DRAW`` while the
    dealer reads its first draw."""
    requests = list(t.requests)
    responses = [_claim_text(q, r or "PASS") for q, r in zip(requests, t.responses,
                                                               strict=True)]
    if t.pid(t.seat) != 0:
        requests.insert(2, "3 0 DRAW")
        responses.insert(2, "PASS")
    return requests, responses


def _claim_text(request: str, response: str) -> str:
    """A chow or pung answer that a higher claim beat was never followed by a discard: it
    is written with the claimed tile as its discard (the protocol wants one)."""
    words = response.split()
    if words and (words[0], len(words)) in (("PENG", 1), ("CHI", 2)):
        return f"{response} {request.split()[-1]}"
    return response


def hand_logs(lines: Iterable[str | Mapping[str, object]], secret: bytes | None = None
              ) -> list[JSON]:
    """The Botzone match log of each finished hand of an MCR table log (checked by
    replaying it, as ``laizi verify`` does)."""
    walls: list[list[int]] = []
    table: Table | None = None
    for _, table in Table.replay(lines, secret=secret):
        game = table.game
        if game is not None and game.over and len(walls) < table.number:
            walls.append(list(game.log[0]["wall"]))  # the deal, before draws reorder it
    assert table is not None
    if table.variant.id != "mcr":
        raise ValueError(f"the Botzone format is MCR's, not {table.variant.id}'s")
    if table.streams:  # its draws do not follow the wall's order: no walltiles says them
        raise ValueError("a table dealt with per-seat streams (--streams) has no Botzone "
                         "wall; profile=botzone deals Botzone's per-seat walls")
    hands = [e for e in table.log if e["type"] == TableEventType.HAND]
    ends = [e for e in table.log if e["type"] == TableEventType.HAND_END]
    if not ends:
        return []
    seats = [str(p) for p in hands[0]["seats"]]  # MCR never reseats people
    by_seat = [_split_hands(table.events(person), s) for s, person in enumerate(seats)]
    out: list[JSON] = []
    for k, (hand, end) in enumerate(zip(hands, ends, strict=False)):
        dealer = int(hand["dealer"])
        turns = {(s - dealer) % _PLAYERS: _aligned(by_seat[s][k]) for s in range(_PLAYERS)}
        out.append(_match(hand, end, turns, seats, dealer, walls[k]))
    return out


def to_player_walls(wall: Sequence[int]) -> list[int]:
    """A ``botzone``-profile deal (laizi's order) as Botzone's ``walltiles``: player 0's
    34 tiles (13 dealt, then its draws: the 14th tile first), then player 1's, … (our
    reading of the judge's per-player walls)."""
    from laizi.variants.mcr import own_walls

    size = 13
    dealt = [list(wall[p * size:(p + 1) * size]) for p in range(_PLAYERS)]
    dealt[0].append(wall[_PLAYERS * size])
    draws = own_walls(wall[_PLAYERS * size + 1:], 0, _PLAYERS)
    return [t for p in range(_PLAYERS) for t in dealt[p] + draws[p]]


def from_player_walls(tiles: Sequence[int]) -> list[int]:
    """The inverse of :func:`to_player_walls`: laizi's wall of a Botzone deal."""
    size, block = 13, len(tiles) // _PLAYERS
    blocks = [list(tiles[p * block:(p + 1) * block]) for p in range(_PLAYERS)]
    head = [t for p in range(_PLAYERS) for t in blocks[p][:size]] + [blocks[0][size]]
    return head + blocks[0][size + 1:] + [t for p in range(1, _PLAYERS)
                                          for t in blocks[p][size:]]


def _match(hand: JSON, end: JSON, turns: Mapping[int, tuple[list[str], list[str]]],
           seats: Sequence[str], dealer: int, wall: Sequence[int]) -> JSON:
    count = {len(r) for r, _ in turns.values()}
    if len(count) != 1:
        raise ValueError(f"hand {hand['number']}: the players read different numbers of "
                         f"requests ({sorted(count)})")
    log: list[JSON] = []
    for i in range(count.pop()):
        log.append({"output": {"command": "request",
                               "content": {str(p): turns[p][0][i] for p in sorted(turns)}}})
        log.append({str(p): {"verdict": "OK", "response": turns[p][1][i]}
                    for p in sorted(turns)})
    log.append({"output": {"command": "finish",
                           "content": {str(p): int(end["net"][seats[(dealer + p) % _PLAYERS]])
                                       for p in range(_PLAYERS)},
                           "display": _display(end["record"], dealer)}})
    wind = hand["options"].get("prevalent_wind", "E")
    if hand["options"].get("profile") == "botzone":
        wall = to_player_walls(wall)
    return {"game": GAME,
            "players": [{"name": seats[(dealer + p) % _PLAYERS]} for p in range(_PLAYERS)],
            "initdata": {"quan": _WINDS.index(wind), "laizi_format": MATCH_FORMAT,
                         "walltiles": " ".join(tile_name(t) for t in wall)},
            "log": log}


def _display(record: JSON, dealer: int) -> JSON:
    """The finish's ``display``: ``HU`` and the winner, ``HUANG`` (drawn), or for a 错和
    ``WRONG_HU`` and its caller (**reading**: Botzone's own word for it is not public)."""
    if record.get("outcome") == Outcome.WRONG_WIN:
        return {"action": "WRONG_HU", "player": (int(record["from"]) - dealer) % _PLAYERS}
    winners = [(int(w) - dealer) % _PLAYERS for w in record.get("winners", [])]
    return {"action": "HU" if winners else "HUANG", "player": winners[0] if winners else -1}


def _turns(data: Mapping[str, object]) -> tuple[list[list[str]], list[list[str]]]:
    """Each player's requests and responses, from the match's alternating turns."""
    log = data.get("log")
    if not isinstance(log, list):
        raise LogError("a Botzone match log has a 'log' list")
    requests: list[list[str]] = [[] for _ in range(_PLAYERS)]
    responses: list[list[str]] = [[] for _ in range(_PLAYERS)]
    for i, turn in enumerate(log):
        if not isinstance(turn, dict):
            raise LogError(f"log[{i}]: not an object")
        output = turn.get("output")
        if isinstance(output, dict):
            if output.get("command") != "request":
                continue
            content = output.get("content")
            if not isinstance(content, dict):
                raise LogError(f"log[{i}]: a request without content")
            for p in range(_PLAYERS):
                requests[p].append(str(content.get(str(p), "")))
            continue
        for p in range(_PLAYERS):
            said = turn.get(str(p))
            answer = said.get("response") if isinstance(said, dict) else None
            responses[p].append(answer if isinstance(answer, str) else "PASS")
    return requests, responses


def _initdata(data: Mapping[str, object]) -> tuple[int, list[int]]:
    init = data.get("initdata")
    if isinstance(init, str):  # Botzone may keep it as a JSON text
        try:
            init = json.loads(init)
        except ValueError:
            raise LogError("initdata is not JSON") from None
    if not isinstance(init, dict) or not isinstance(init.get("walltiles"), str):
        raise LogError("initdata.walltiles (the wall) is needed to replay the deal")
    quan = init.get("quan", 0)
    if not isinstance(quan, int) or not 0 <= quan < _PLAYERS:
        raise LogError(f"initdata.quan must be 0-3, got {quan!r}")
    try:
        wall = [T.parse_tile(w, "gb") for w in init["walltiles"].split()]
    except ValueError as exc:
        raise LogError(f"initdata.walltiles: {exc}") from None
    return quan, wall


def import_match(data: Mapping[str, object]) -> Table:
    """The closed laizi table (public mode, the wall given) that plays the Botzone match
    log ``data`` again; :class:`~laizi.errors.LogError` names the first turn that laizi
    cannot play as the log says."""
    quan, wall = _initdata(data)
    requests, responses = _turns(data)
    for p in range(1, _PLAYERS):  # the judge's "3 0 DRAW": the bridge does not say it
        if len(requests[p]) > 2 and requests[p][2] == "3 0 DRAW":
            del requests[p][2], responses[p][2]
    players = data.get("players")
    names = [f"p{p}" for p in range(_PLAYERS)]
    if isinstance(players, list) and len(players) == _PLAYERS:
        got = [str(x.get("name", "")) if isinstance(x, dict) else "" for x in players]
        if all(got) and len(set(got)) == _PLAYERS:
            names = got
    options: JSON = {"prevalent_wind": _WINDS[quan]}
    if len(wall) == len(_BOTZONE_SET):  # no flowers: Botzone's own game
        options["profile"] = "botzone"
        wall = from_player_walls(wall)
    try:
        table = Table("mcr", options, names, seed=0, walls=[wall])
        table.start_hand()
    except Exception as exc:
        raise LogError(f"the match cannot be dealt: {exc}") from None
    _play(table, names, requests, responses)
    if table.in_hand:
        raise LogError("the log ends before the hand does")
    table.close()
    return table


def _play(table: Table, names: Sequence[str], requests: Sequence[Sequence[str]],
          responses: Sequence[Sequence[str]]) -> None:
    """Answer every decision of the hand from the log's responses."""
    talks = [Transcript(s) for s in range(_PLAYERS)]
    seen = [0] * _PLAYERS
    announced: list[int | None] = [None] * _PLAYERS
    game = table.game
    # A wrong HU is read as the 错和 it is where the table settles one (profile=botzone).
    wrong_win = game is not None and ActionType.WRONG_WIN in game.action_types()
    for d in decisions(table):
        s, t = d.seat, talks[d.seat]
        events = table.events(names[s], seen[s])
        seen[s] += len(events)
        for e in events:
            t.feed(e)
        t.finish_opening()
        i = len(t.requests) - 1
        if t.requests != list(requests[s][:i + 1]):
            raise LogError(f"player {s}, request {i}: laizi tells "
                           f"{t.requests[-1]!r}, the log {_at(requests[s], i)!r}")
        try:
            if t.after_my_claim:
                action = _discard(d.legal, announced[s])
            else:
                action, announced[s] = answer_action(_at(responses[s], i) or "PASS",
                                                     d.legal, wrong_win=wrong_win)
        except ProtocolError as exc:
            raise LogError(f"player {s}, request {i} ({t.requests[-1]!r}): {exc}") from None
        table.act(action)


def _at(items: Sequence[str], i: int) -> str | None:
    return items[i] if i < len(items) else None


def _discard(legal: Sequence[Action], tile: int | None) -> Action:
    for a in legal:
        if a.type == DISCARD and a.tile == tile:
            return a
    raise ProtocolError("illegal", "the discard announced with the claim is not legal")
