"""The one table: sessions of every variant, its log and restore, versions, hidden
information, the boundary and verifiable deals."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from laizi import tiles as T
from laizi.engine import Action, Game
from laizi.engine.actions import DISCARD, PASS, SPECIAL_KONG
from laizi.engine.log import redact
from laizi.errors import ErrorCode, LaiziError, LogError, StaleVersionError, TableError
from laizi.table import deals
from laizi.table.driver import Decision, play, play_hand
from laizi.table.events import canonical
from laizi.table.table import Table

VARIANTS = ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"]


class RandomController:
    """A fast seeded stand-in: wins when it can, often claims, else random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: Decision) -> Action | None:
        legal = decision.legal
        for a in legal:
            if a.type == "win":
                return a
        claims = [a for a in legal if a.type in ("pung", "kong", "concealed_kong",
                                                 "added_kong", "special_kong")]
        if claims and self.rng.random() < 0.6:
            return self.rng.choice(claims)
        if self.rng.random() < 0.05:
            return None  # 托管: the table's default action
        return self.rng.choice(legal)


def _people(variant: str) -> list[str] | None:
    return [f"p{i}" for i in range(8)] if variant == "huanghuang" else None


def _controllers(seed: int) -> Any:
    made: dict[str, RandomController] = {}

    def get(person: str) -> RandomController:
        if person not in made:
            made[person] = RandomController(seed * 1000 + len(made))
        return made[person]

    return get


def _play_long(variant: str, hands: int, seed: int, sample: float = 0.01
               ) -> tuple[Table, dict[int, str]]:
    """A table of ``hands`` hands; snapshots (log length → canonical state) at every
    hand boundary and at a sample of points inside hands."""
    rng = random.Random(seed)
    table = Table(variant, people=_people(variant), seed=seed, max_hands=hands)
    controllers = _controllers(seed)
    snaps: dict[int, str] = {len(table.log): canonical(table.to_json())}
    table.add_entropy(table.people[0], f"entropy-{seed}")
    while not table.over:
        if variant == "huanghuang" and table.number % 7 == 3:
            # people come and go between hands
            if len(table.people) == 8:
                table.leave(table.waiting[-1] if table.waiting else table.people[0])
            else:
                table.join(f"q{table.number}")
            if table.number % 2:
                table.buy_horse(table.people[1], table.number % 4 == 1)
        table.start_hand()
        snaps[len(table.log)] = canonical(table.to_json())
        while table.in_hand:
            for seat in table.to_act():
                if not table.in_hand:
                    break
                legal = table.legal_actions(seat)
                c = controllers(table.person_at(seat))
                answer = c.decide(Decision(table, seat, table.person_at(seat), legal))
                table.act(answer if answer is not None else table.default_action(seat))
                if rng.random() < sample:
                    snaps[len(table.log)] = canonical(table.to_json())
        snaps[len(table.log)] = canonical(table.to_json())
    table.close()
    snaps[len(table.log)] = canonical(table.to_json())
    return table, snaps


@pytest.fixture(scope="module", params=VARIANTS)
def long_table(request: pytest.FixtureRequest) -> tuple[str, Table, dict[int, str]]:
    variant = request.param
    hands = 200
    table, snaps = _play_long(variant, hands, seed=VARIANTS.index(variant) + 1)
    return variant, table, snaps


def test_long_tables_rebuild_at_every_boundary(long_table: Any) -> None:
    variant, table, snaps = long_table
    assert table.number == 200
    lines = table.dumps().splitlines()
    # One pass of the replay gives the table after every line: exactly what from_log of
    # the log cut there builds (from_log is this replay run to its end).
    seen = 0
    for n, rebuilt in Table.replay(lines):
        if n in snaps:
            assert canonical(rebuilt.to_json()) == snaps[n], f"{variant}: cut at line {n}"
            seen += 1
    assert seen == len(snaps)
    # from_log itself, on a few cuts and on the whole log
    for n in [*sorted(snaps)[len(snaps) // 3::len(snaps) // 3], len(lines)]:
        rebuilt = Table.from_log(lines[:n])
        assert canonical(rebuilt.to_json()) == snaps[n]
        assert rebuilt.dumps() == "".join(line + "\n" for line in lines[:n]) or \
            rebuilt.log[n - 1]["type"] == "action"  # a hand_end the table writes itself
    again = Table.from_log(lines)
    assert again.dumps() == table.dumps()


def test_long_tables_ledgers_and_people(long_table: Any) -> None:
    variant, table, _ = long_table
    assert sum(table.ledger.values()) == 0
    ends = [e for e in table.log if e["type"] == "hand_end"]
    assert len(ends) == table.number
    for e in ends:
        assert sum(e["net"].values()) == 0
        assert sum(e["ledger"].values()) == 0
    if variant == "huanghuang":
        hands = [e for e in table.log if e["type"] == "hand"]
        assert any(e["left"] for e in ends), "下桌 never happened"
        assert any(e["horses"] and any(h["person"] in hd["waiting"] for h in e["horses"])
                   for e, hd in zip(ends, hands, strict=True)), "no bystander bought a horse"
        for hd in hands:
            assert len(set(hd["seats"] + hd["waiting"])) == len(hd["seats"] + hd["waiting"])


def _walk(x: Any) -> Any:
    if isinstance(x, dict):
        for k, v in x.items():
            yield k, v
            yield from _walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from _walk(v)


def test_long_tables_keep_secrets(long_table: Any) -> None:
    """No event a person or a spectator sees holds a seed, the secret, a wall or another
    seat's concealed tiles (before the table closes and reveals its secret)."""
    _variant, table, _ = long_table
    for person in [*table.ledger, None]:
        events = table.events(person)
        assert [e["v"] for e in events] == list(range(1, len(events) + 1))
        assert events[-1]["type"] == "close"
        seats: list[str] = []
        for e in events[:-1]:
            for k, v in _walk(e):
                assert k not in ("seed", "secret", "wall") or (k == "wall" and
                                                              isinstance(v, int)), (k, e)
            if e["type"] == "hand":
                seats = e["seats"]
            me = seats.index(person) if person in seats else None
            if e["type"] == "deal":
                for s, h in enumerate(e["hands"]):
                    assert all(t is None for t in h) == (s != me)
            if e["type"] == "draw" and e["seat"] != me:
                assert e["tile"] is None
            if e["type"] == "action" and e["action"]["seat"] != me:
                assert not e.get("answer")
        assert table.version(person) == len(events)


def _swapped_deal(variant: str, seed: int, victim: int
                  ) -> tuple[Game, Game, list[Action]] | None:
    """Two hands whose deals differ only in ``victim``'s concealed tiles, and the public
    actions of a play where ``victim`` only ever passes and discards what it drew."""
    rng = random.Random(seed)
    first = Game(variant, seed=seed, dealer=0)
    wall = list(first.wall)
    game = Game(variant, wall=wall, seed=None, dealer=0)
    actions: list[Action] = []
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if seat == victim:
            drawn = game.last_tile
            pick = next((a for a in legal if a.type == PASS), None) or next(
                (a for a in legal if a.type == DISCARD and a.tile == drawn), None) or next(
                (a for a in legal if a.type == SPECIAL_KONG and a.tile == drawn), None)
            if pick is None:
                break
        else:
            pick = rng.choice(legal)
        actions.append(pick)
        game.apply(pick)
    head, tail = game.head, game.tail
    # the victim's dealt tiles sit at positions of the deal: find them in the wall
    n, size = game.n, game.variant.hand_size
    start = {s: s * size for s in range(n)}  # dealer 0: seats dealt in order
    spots = list(range(start[victim], start[victim] + size))
    flowers = game.flower_set
    spare = [i for i in range(head, tail) if wall[i] not in flowers]
    other = list(wall)
    changed = 0
    for i in spots:
        if wall[i] in flowers:
            continue
        for j in spare:
            if other[j] != other[i] and other[j] not in flowers:
                other[i], other[j] = other[j], other[i]
                spare.remove(j)
                changed += 1
                break
        if changed >= 4:
            break
    if not changed:
        return None  # every tile was drawn: nothing to swap with
    return Game(variant, wall=wall, seed=None, dealer=0), \
        Game(variant, wall=other, seed=None, dealer=0), actions


@pytest.mark.parametrize("variant", VARIANTS)
def test_another_seats_tiles_change_nothing_a_seat_sees(variant: str) -> None:
    checked = 0
    for seed in range(40):
        victim = 2
        made = _swapped_deal(variant, seed, victim)
        if made is None:
            continue
        a, b, actions = made
        assert a.concealed(victim) != b.concealed(victim)
        for seat in range(a.n):
            if seat != victim:
                assert a.concealed(seat) == b.concealed(seat)
        played = 0
        for act in actions:
            if a.over:
                break
            for seat in range(a.n):
                if seat == victim:
                    continue
                assert a.view(seat) == b.view(seat), (variant, seed, played, seat)
                assert a.to_act() == b.to_act()
            a.apply(act)
            b.apply(act)  # the same public actions are legal in both deals
            played += 1
            checked += 1
        for seat in range(a.n):
            if seat == victim:
                continue
            ea = [redact(e, seat) for e in a.log if e["type"] != "end"]
            eb = [redact(e, seat) for e in b.log if e["type"] != "end"]
            assert ea == eb
    assert checked > 200


def test_every_window_asks_every_other_seat() -> None:
    for variant in VARIANTS:
        game = Game(variant, seed=3)
        windows = 0
        while not game.over:
            seat = game.to_act()[0]
            if game.phase == "claim" and not game.responses:
                assert sorted(game.to_act()) == sorted(s for s in range(game.n)
                                                       if s != game.turn)
                windows += 1
            game.apply(game.legal_actions(seat)[-1])
        assert windows > 0


def test_versions_events_and_stale_actions() -> None:
    table = Table("jingzhou", seed=11)
    table.start_hand()
    seat = table.to_act()[0]
    person = table.person_at(seat)
    view = table.view(seat)
    v = view["version"]
    assert v == table.version(person) == len(table.events(person))
    assert table.events(person, after=v) == []
    act = table.legal_actions(seat)[0]
    before = table.dumps()
    with pytest.raises(StaleVersionError) as err:
        table.act({**act.to_json(), "version": v - 1})
    assert err.value.code is ErrorCode.STALE_VERSION and err.value.seat == seat
    assert table.dumps() == before
    table.act({**act.to_json(), "version": v})
    new = table.events(person, after=v)
    assert new and new[0]["v"] == v + 1
    # the other seats answer a window without seeing each other's answers
    while table.in_hand and table.game is not None and table.game.phase != "claim":
        s = table.to_act()[0]
        table.act(table.legal_actions(s)[-1])
    if table.in_hand:
        s1, s2 = table.to_act()
        p2 = table.person_at(s2)
        v2 = table.version(p2)
        table.act(table.legal_actions(s1)[-1])
        assert table.version(p2) == v2  # s1's answer is invisible to s2
        table.act({**table.legal_actions(s2)[-1].to_json(), "version": v2})


@pytest.mark.parametrize("variant", ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"])
def test_a_persons_version_is_the_number_of_events_they_see(variant: str) -> None:
    """The version is counted as events come (the others' secret answers left out); the
    events are redacted one by one when asked for: the two agree for every person and a
    spectator at every step of random play, over several hands (huanghuang with people
    waiting, whose seats change between hands)."""
    people = [f"p{i}" for i in range(6)] if variant == "huanghuang" else None
    table = Table(variant, people=people, seed=5, max_hands=3)
    rng = random.Random(variant)
    watchers: list[str | None] = [*table.people, None]
    while not table.over:
        table.start_hand()
        while table.in_hand:
            for p in watchers:
                assert table.version(p) == len(table.events(p)), (p, len(table.log))
            s = rng.choice(table.to_act())
            table.act(rng.choice(table.legal_actions(s)))
    for p in watchers:
        assert table.version(p) == len(table.events(p))


def test_spectator_view_is_public() -> None:
    table = Table("taiwan", seed=4)
    table.start_hand()
    public = table.view(None)
    assert public["hand"] == [] and public["seat"] is None and public["drawn"] is None
    for seat in range(4):
        mine = table.view(seat)
        assert mine["hand"] == table.game.concealed(seat)  # type: ignore[union-attr]
        for k in ("discards", "melds", "hand_sizes", "wall", "phase", "turn"):
            assert mine[k] == public[k]


def test_refused_input_changes_nothing() -> None:
    table = Table("mcr", seed=2)
    table.start_hand()
    state, log = canonical(table.to_json()), table.dumps()
    bad: list[Any] = [
        {"type": "discard", "seat": True, "tile": 3}, {"type": "discard", "seat": 0,
                                                        "tile": 3.0},
        {"type": "discard", "seat": 0, "tile": "3"}, {"type": "nope", "seat": 0},
        {"type": "discard", "seat": 0, "tile": 3, "extra": 1}, [1, 2], "discard", None,
        {"type": "discard", "seat": 9, "tile": 3}, {"type": "pass", "seat": 1},
        {"type": "discard", "seat": 0, "tile": 3, "version": "1"},
        {"type": "discard", "seat": 0, "tile": 999},
    ]
    for data in bad:
        with pytest.raises(LaiziError) as err:
            table.act(data)
        assert isinstance(err.value.code, ErrorCode)
        assert canonical(table.to_json()) == state and table.dumps() == log
    for seat in (-1, 4, True, "0", 1.0):
        with pytest.raises(LaiziError):
            table.legal_actions(seat)  # type: ignore[arg-type]
        with pytest.raises(LaiziError):
            table.view(seat)  # type: ignore[arg-type]
    assert canonical(table.to_json()) == state


def test_default_action_is_always_legal() -> None:
    for variant in VARIANTS:
        table = Table(variant, people=_people(variant), seed=5, max_hands=3)
        while not table.over:
            table.start_hand()
            while table.in_hand:
                seat = table.to_act()[0]
                a = table.default_action(seat)
                assert a in table.legal_actions(seat)
                table.act(a)


def test_huanghuang_people_come_and_go_between_hands() -> None:
    table = Table("huanghuang", people=["a", "b", "c", "d", "e"], seed=9)
    with pytest.raises(TableError):
        table.join("a")
    table.join("f")
    assert table.waiting == ("e", "f")
    table.start_hand()
    with pytest.raises(TableError) as err:
        table.join("g")
    assert err.value.code is ErrorCode.HAND_IN_PROGRESS
    play_hand(table, _controllers(1))
    seated = table.seats
    table.leave(seated[0])  # type: ignore[arg-type]
    assert seated[0] not in table.people and len(table.seats) == 4
    assert None not in table.seats
    assert seated[0] in table.ledger
    for p in "ghi":
        table.join(p)
    with pytest.raises(TableError):
        table.join("j")  # eight at most
    play(table, _controllers(2), hands=3)
    assert sum(table.ledger.values()) == 0


def test_taiwan_session_ends_after_four_rounds() -> None:
    table = Table("taiwan", seed=21)
    n = play(table, _controllers(21))
    assert table.over and table.state.prevalent_wind == 4
    dealers = [e["dealer"] for e in table.log if e["type"] == "hand"]
    assert n == len(dealers) >= 16
    streaks = [e["context"]["dealer_streak"] for e in table.log if e["type"] == "hand"]
    assert max(streaks) >= 1  # 连庄 happened in 将 of this length


# ---------------------------------------------------------------- secret deals and verify


def _closed_table(variant: str = "jingzhou", hands: int = 3) -> Table:
    table = Table(variant, people=_people(variant), secret=bytes(range(32)))
    table.add_entropy(table.people[1], "from the second seat")
    play(table, _controllers(7), hands=hands)
    table.close()
    return table


def test_secret_table_reveals_only_at_close() -> None:
    table = Table("jingzhou", people=["a", "b", "c"])
    head = table.log[0]
    assert "commitment" in head and "seed" not in head
    play(table, _controllers(3), hands=2)
    text = table.dumps()
    assert deals.secret_hex(table._secret) not in text
    for p in table.people:
        assert deals.secret_hex(table._secret) not in json.dumps(table.events(p))
    with pytest.raises(LogError):
        Table.from_log(text.splitlines())  # the secret is needed mid-table
    again = Table.from_log(text.splitlines(), secret=table._secret)
    assert again.dumps() == text
    with pytest.raises(LogError):
        Table.from_log(text.splitlines(), secret=bytes(32))
    table.close()
    assert deals.secret_hex(table._secret) in table.dumps()


def test_verify_accepts_and_names_tampering(tmp_path: Any) -> None:
    from laizi.commands.verify import verify_text

    table = _closed_table()
    text = table.dumps()
    assert verify_text(text).startswith("ok")
    lines = text.splitlines()
    # any single line removed
    for i in range(len(lines)):
        cut = "\n".join(lines[:i] + lines[i + 1:])
        with pytest.raises(LaiziError):
            verify_text(cut)
    # a deal altered: the revealed wall of a hand
    for i, line in enumerate(lines):
        e = json.loads(line)
        if e["type"] == "hand_end":
            e["wall"][0], e["wall"][-1] = e["wall"][-1], e["wall"][0]
            if e["wall"][0] == e["wall"][-1]:
                continue
            bad = [*lines[:i], canonical(e), *lines[i + 1:]]
            with pytest.raises(LogError, match=r"hand \d+\).*deal differs"):
                verify_text("\n".join(bad))
            break
    # an action altered
    for i, line in enumerate(lines):
        e = json.loads(line)
        if e["type"] == "action" and e["action"]["type"] == "discard":
            e["action"]["tile"] = (e["action"]["tile"] + 1) % T.NUM_KINDS
            bad = [*lines[:i], canonical(e), *lines[i + 1:]]
            with pytest.raises(LogError):
                verify_text("\n".join(bad))
            break
    # the secret altered
    last = json.loads(lines[-1])
    last["secret"] = "0" * 64
    with pytest.raises(LogError, match="commitment"):
        verify_text("\n".join([*lines[:-1], canonical(last)]))
    # an older rules version is refused clearly
    head = json.loads(lines[0])
    head["rules"] = 1
    with pytest.raises(LogError) as err:
        verify_text("\n".join([canonical(head), *lines[1:]]))
    assert err.value.code is ErrorCode.RULES_VERSION


def test_entropy_changes_later_deals() -> None:
    a = Table("mcr", secret=bytes(32))
    b = Table("mcr", secret=bytes(32))
    b.add_entropy("P1", "x")
    assert a.start_hand().wall != b.start_hand().wall
