"""Bots: legal actions only, views only, determinization consistent with the view."""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Iterator, Sequence

import pytest

from bot_helpers import greedy_decisions
from laizi.analysis import shanten
from laizi.bots import BotSpecError, make_bot, parse_spec
from laizi.bots.base import View
from laizi.bots.determinize import clone_world, sample_world
from laizi.bots.knowledge import tile_set_counts, unseen_counts
from laizi.bots.profiles import profile as get_profile
from laizi.bots.reading import claim_limits, replay_draws
from laizi.bots.rollout import FastPolicy, _connected, playout
from laizi.bots.search import SearchBot
from laizi.engine import Game
from laizi.engine.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    PASS,
    PUNG,
    SPECIAL_KONG,
    WIN,
    Action,
)
from laizi.engine.game import CLAIM, TURN
from laizi.engine.windows import turn_options
from laizi.variants import BUILTIN, get


def _available() -> list[str]:
    out = []
    for vid in BUILTIN:
        try:
            get(vid)
        except Exception:  # a variant still being written elsewhere
            continue
        out.append(vid)
    return out


VARIANTS = _available()


def _pass_only(g: Game, s: int) -> bool:
    """``s`` is asked (every window asks every seat) but has nothing to do but pass."""
    return g.legal_actions(s) == (Action(PASS, s),)


def _states(variant: str, seed: int, every: int = 3) -> list[tuple[Game, int]]:
    """Snapshots (replayed games) at decisions along a random hand. A seat that may only
    pass passes without a random number and is no decision here, so a seed gives the
    hand and the states it gave when only seats with an option were asked."""
    from laizi.engine import replay

    g = Game(variant, seed=seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not g.over:
        s = g.to_act()[0]
        if _pass_only(g, s):
            g.apply(Action(PASS, s))
            continue
        if step % every == 0:
            out.append((replay(list(g.log)), s))
        g.apply(rng.choice(g.legal_actions(s)))
        step += 1
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("spec", ["random", "greedy", "simple"])
def test_bots_return_legal_actions_from_views(variant: str, spec: str) -> None:
    for seed in (1,):
        g = Game(variant, seed=seed)
        bots = [make_bot(spec, seed * 10 + s) for s in range(g.n)]
        while not g.over:
            s = g.to_act()[0]
            legal = g.legal_actions(s)
            action = bots[s].choose(g.view(s), list(legal))
            assert action in legal
            g.apply(action)


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_bot_legal_and_deterministic_without_time_budget(variant: str) -> None:
    states = _states(variant, 5, every=7)[:4]
    for game, seat in states:
        view = game.view(seat)
        legal = game.legal_actions(seat)
        a = SearchBot(3, budget_ms=0, rollouts=2, window=1e9).choose(view, list(legal))
        b = SearchBot(3, budget_ms=0, rollouts=2, window=1e9).choose(view, list(legal))
        assert a in legal
        assert a == b


def test_search_guard_never_picks_a_discard_riskier_than_greedys() -> None:
    """With ``guard`` (and margin 0, so any rival with a better mean would be taken) the
    search keeps to discards no riskier than greedy's choice; without it, it does not."""
    riskier = 0
    for seed in range(3):
        for game, seat in _states("jingzhou", seed, every=2):
            if game.phase != TURN:
                continue
            view = game.view(seat)
            legal = list(game.legal_actions(seat))
            guarded = SearchBot(1, budget_ms=0, rollouts=4, margin=0.0, min_rollouts=1,
                                window=1e9, k=4, guard=True)
            chosen = guarded.choose(view, legal)
            risk = guarded.greedy.last_risk
            top = guarded.greedy.rank(view, legal)[0][1]
            assert risk.get(chosen, 0.0) <= risk.get(top, 0.0) + 1e-9
            free = SearchBot(1, budget_ms=0, rollouts=4, margin=0.0, min_rollouts=1,
                             window=1e9, k=4)
            other = free.choose(view, legal)
            riskier += free.greedy.last_risk.get(other, 0.0) > risk.get(top, 0.0) + 1e-9
    assert riskier > 0


def test_search_weighs_passing_on_a_discard_win() -> None:
    """In 晃晃 a discard win is paid by the discarder alone, a self-draw by all three at
    double (and 大刀 when concealed), so a concealed ready hand may do better to pass.
    With ``decline`` the search plays both out; without it a win is always taken."""
    found = passed = 0
    for g, s0, view, legal in greedy_decisions("huanghuang", range(16)):
        if g.phase != TURN and any(a.type == WIN for a in legal):
            win = next(a for a in legal if a.type == WIN)
            keep = SearchBot(2, budget_ms=0, rollouts=24, decline=False)
            assert keep.choose(view, legal) == win
            search = SearchBot(2, budget_ms=0, rollouts=24)
            chosen = search.choose(view, legal)
            assert chosen in legal and chosen.type in (WIN, PASS)
            assert search.last_stats["rollouts"] == 24
            if not view["melds"][s0]:
                found += 1
                passed += chosen.type == PASS
    assert found >= 3 and passed >= 1


def test_search_keeps_to_claims_where_discards_are_not_searched() -> None:
    """With ``discards`` off the search never weighs one discard against another (it
    keeps greedy's discard without sampling) but still searches claims and kongs;
    Jingzhou, golden and Taiwan default to that, 晃晃 and MCR search discards."""
    for v in ("jingzhou", "golden", "taiwan"):
        assert not get_profile(v).search_discards
    assert get_profile("huanghuang").search_discards and get_profile("mcr").search_discards
    discards = claims = 0
    for _g, _s, view, legal in greedy_decisions("taiwan", range(4)):
        on = SearchBot(2, budget_ms=0, rollouts=2, min_rollouts=1, window=1e9,
                       discards=True)
        on.choose(view, legal)
        default = SearchBot(2, budget_ms=0, rollouts=2, min_rollouts=1, window=1e9)
        chosen = default.choose(view, legal)
        if on.last_stats:
            if all(sa[1].type == DISCARD for sa in on.greedy.rank(view, legal)[:2]):
                discards += 1
                assert not default.last_stats
                assert chosen == default.greedy.rank(view, legal)[0][1]
            else:
                claims += 1
                assert default.last_stats["rollouts"] == 2
    assert discards >= 10 and claims >= 3


def _searched_state(variant: str = "mcr") -> tuple[dict[str, object], list[Action]]:
    """A view and legal actions where the search bot (window 1e9) really searches."""
    g = Game(variant, seed=5)
    bots = [make_bot("greedy", s) for s in range(g.n)]
    probe = SearchBot(1, budget_ms=0, rollouts=1, min_rollouts=1, window=1e9)
    while not g.over:
        s = g.to_act()[0]
        view, legal = g.view(s), list(g.legal_actions(s))
        probe.choose(view, legal)
        if probe.last_stats and g.live_tiles > 40:
            return view, legal
        g.apply(bots[s].choose(view, legal))
    raise AssertionError("no searched decision")


def test_playout_gives_up_at_its_deadline() -> None:
    """A playout past its deadline stops within a few actions and says so; without one
    it plays the hand to the end."""
    calls = [0]

    class Counting(FastPolicy):
        def act(self, g: Game, seat: int) -> Action:
            calls[0] += 1
            return super().act(g, seat)

    pol = Counting("mcr")
    g = Game("mcr", seed=2)
    g.keep_log = False
    assert playout(g, [pol] * g.n, deadline=time.perf_counter() - 1.0) is False
    assert not g.over and 1 <= calls[0] <= 8
    assert playout(g, [pol] * g.n) is True and g.over


def test_search_recovers_from_a_slow_sample() -> None:
    """One sample slowed by something else (a collector pause, the OS) once made the
    bot's estimate of a sample's cost exceed the whole budget, and it never sampled
    again. Now a decision that could not sample halves the estimate."""
    view, legal = _searched_state()
    bot = SearchBot(1, budget_ms=85, window=1e9, procs=1)
    bot._sample_s = 10.0  # as if one sample had taken ten seconds
    bot.choose(view, legal)
    assert bot.last_stats["rollouts"] == 0 and bot._sample_s == 5.0
    for _ in range(12):
        bot.choose(view, legal)
        if bot.last_stats["rollouts"]:
            break
    assert bot.last_stats["rollouts"] > 0 and bot._sample_s < 0.085


@pytest.mark.parametrize("variant", ["mcr", "taiwan"])
def test_helper_processes_give_the_samples_of_one_process(variant: str) -> None:
    """Without a clock, samples split over helper processes (sample i on process
    i mod procs) and merged by index are exactly those one process takes."""
    view, legal = _searched_state(variant)
    alone = SearchBot(1, budget_ms=0, rollouts=7, min_rollouts=1, window=1e9, procs=1)
    shared = SearchBot(1, budget_ms=0, rollouts=7, min_rollouts=1, window=1e9, procs=3)
    assert alone.choose(view, legal) == shared.choose(view, legal)
    assert shared.last_stats["procs"] == 3 and shared.last_stats["rollouts"] == 7
    assert shared.last_stats["values"] == alone.last_stats["values"]
    assert len(set(alone.last_stats["values"])) > 1  # the samples differ: a real check


def test_search_holds_off_the_garbage_collector_only_while_it_decides() -> None:
    """A full collection can take tens of milliseconds; the timed search holds it off
    and gives it back, and leaves a collector the caller switched off alone."""
    view, legal = _searched_state()
    seen: list[bool] = []

    class Watching(SearchBot):
        def _choose(self, view: View, legal_actions: Sequence[Action],
                    start: float) -> Action:
            seen.append(gc.isenabled())
            return super()._choose(view, legal_actions, start)

    assert gc.isenabled()
    Watching(1, budget_ms=20).choose(view, legal)
    assert seen == [False] and gc.isenabled()
    Watching(1, budget_ms=0, rollouts=1).choose(view, legal)
    assert seen == [False, True]
    gc.disable()
    try:
        Watching(1, budget_ms=20).choose(view, legal)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_bots_only_use_the_view() -> None:
    """Two games that differ only in hidden tiles give the same view, so the same
    choice: the bot cannot tell them apart."""
    for game, seat in _states("jingzhou", 11, every=4)[:8]:
        view = game.view(seat)
        other = sample_world(view, random.Random(99))
        assert other.view(seat) == view
        legal = game.legal_actions(seat)
        for spec in ("greedy", "search:budget_ms=0:rollouts=2"):
            assert make_bot(spec, 1).choose(view, list(legal)) == \
                make_bot(spec, 1).choose(other.view(seat), list(other.legal_actions(seat)))


def _hidden_counts(g: Game, seat: int) -> list[int]:
    """Reference: tiles in other concealed hands and the live wall, counted directly."""
    out = [0] * 42
    for s in range(g.n):
        if s != seat:
            for t, c in enumerate(g.hands[s]):
                out[t] += c
    for t in g.wall[g.head:g.tail]:
        out[t] += 1
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_unseen_counts_match_the_true_hidden_tiles(variant: str) -> None:
    for game, seat in _states(variant, 3, every=5)[:10]:
        view = game.view(seat)
        unseen = unseen_counts(view)
        hidden = _hidden_counts(game, seat)
        # Reference from the game itself: the tile set minus what the seat can see.
        seen = [0] * 42
        for t, c in enumerate(game.hands[seat]):
            seen[t] += c
        for ms in game.melds:
            for m in ms:
                for t in m.tiles:
                    seen[t] += 1
        for pool in (*game.discards, *game.flowers, game.indicators):
            for t in pool:
                seen[t] += 1
        total = tile_set_counts(view)
        assert unseen == [total[t] - seen[t] for t in range(42)]
        assert all(u >= h for u, h in zip(unseen, hidden, strict=True))


@pytest.mark.parametrize("variant", VARIANTS)
def test_determinization_is_consistent_with_the_view(variant: str) -> None:
    total_checked = 0
    for game, seat in _states(variant, 8, every=4)[:10]:
        view = game.view(seat)
        for k in range(3):
            w = sample_world(view, random.Random(k))
            assert w.view(seat) == view  # same public facts, same own hand
            # Every tile of the sample is accounted for: hidden + visible = the tile set.
            hidden = _hidden_counts(w, seat)
            unseen = unseen_counts(view)
            assert all(h <= u for h, u in zip(hidden, unseen, strict=True))
            assert [w.sizes[s] for s in range(w.n)] == view["hand_sizes"]
            assert w.tail - w.head == view["wall"]
            assert w.legal_actions(seat) == game.legal_actions(seat)
            total_checked += 1
    assert total_checked > 0


def test_registry_specs() -> None:
    assert parse_spec("search:rollouts=8:budget_ms=0") == (
        "search", {"rollouts": 8, "budget_ms": 0})
    assert make_bot("greedy:defence=false").name == "greedy"
    with pytest.raises(BotSpecError, match="unknown bot"):
        make_bot("nope")
    with pytest.raises(BotSpecError, match="KEY=VALUE"):
        make_bot("search:rollouts")
    with pytest.raises(BotSpecError, match=r"no parameter .colour.*known: defence"):
        make_bot("greedy:colour=3")


def _reference_discard(policy: FastPolicy, g: Game, seat: int) -> Action:
    """The playout discard by brute force: every discard's shanten, ties broken by the
    least connected tile, then the first in legal order (wildcards only as last resort)."""
    counts, w = policy._split(g, seat)
    rules = policy.profile.rules_for_kinds(tuple(m.kind for m in g.melds[seat]))
    best: tuple[tuple[float, float], Action] | None = None
    for a in g.legal_actions(seat):
        if a.type != DISCARD:
            continue
        t = a.tile
        assert t is not None
        if t == g.wildcard:
            key = (50.0, 0.0)
        else:
            counts[t] -= 1
            key = (float(min(shanten(counts, w, r) for r in rules)), _connected(counts, t))
            counts[t] += 1
        if best is None or key < best[0]:
            best = (key, a)
    assert best is not None
    return best[1]


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_policy_discard_matches_brute_force(variant: str) -> None:
    """The playout policy stops its discard scan early; it must still pick what a full
    scan of every discard picks."""
    policy = FastPolicy(variant)
    checked = 0
    for seed in (3, 4):
        g = Game(variant, seed=seed)
        while not g.over:
            s = g.to_act()[0]
            legal = g.legal_actions(s)
            if g.phase == TURN and not any(
                    a.type in (WIN, SPECIAL_KONG, CONCEALED_KONG, ADDED_KONG) for a in legal):
                assert policy.act(g, s) == _reference_discard(policy, g, s)
                checked += 1
            g.apply(policy.act(g, s))
    assert checked > 10


@pytest.mark.parametrize("variant", VARIANTS)
def test_clone_world_plays_like_a_fresh_sample(variant: str) -> None:
    """The search plays every candidate on a clone of one sample: a clone must be
    independent of its source and play exactly like a freshly sampled copy."""
    policy = FastPolicy(variant)
    checked = 0
    for game, seat in _states(variant, 5, every=5)[:8]:
        view = game.view(seat)
        world = sample_world(view, random.Random(11))
        before = world.to_json()
        for a in world.legal_actions(seat)[:3]:
            c = clone_world(world)
            c.keep_log = False
            fresh = sample_world(view, random.Random(11))
            for g in (c, fresh):
                g.apply(a)
                playout(g, [policy] * g.n)
            assert c.over and fresh.over
            assert c.net == fresh.net
            assert c.hands == fresh.hands and c.melds == fresh.melds
            assert c.discards == fresh.discards and c.extra == fresh.extra
            checked += 1
        assert world.to_json() == before  # the source is untouched
    assert checked > 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_unlogged_game_plays_the_same(variant: str) -> None:
    """``keep_log = False`` (playouts) changes nothing but the log."""
    for seed in (1, 2):
        games = [Game(variant, seed=seed), Game(variant, seed=seed)]
        games[1].keep_log = False
        rng = random.Random(seed)
        while not games[0].over:
            s = games[0].to_act()[0]
            legal = games[0].legal_actions(s)
            assert games[1].to_act()[0] == s and games[1].legal_actions(s) == legal
            a = rng.choice(legal)
            for g in games:
                g.apply(a)
        assert games[1].over
        assert games[0].net == games[1].net
        assert games[0].payments == games[1].payments
        assert games[0].log[-1]["type"] == "end"
        assert all(e["type"] != "end" for e in games[1].log)


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_policy_kongs_follow_greedy_s_rule(variant: str) -> None:
    """Playout kongs as greedy makes them: 中 always; the laizi (赖子杠) unless it is the
    hand's only wildcard and playing it costs shanten; other kongs iff they cost none."""
    policy = FastPolicy(variant)
    checked = 0
    for seed in range(6):
        g = Game(variant, seed=seed)
        while not g.over:
            s = g.to_act()[0]
            legal = g.legal_actions(s)
            chosen = policy.act(g, s)
            kongs = [a for a in legal if a.type in (SPECIAL_KONG, CONCEALED_KONG, ADDED_KONG)]
            if g.phase == TURN and kongs and not any(a.type == WIN for a in legal):
                counts, w = policy._split(g, s)
                kinds = tuple(m.kind for m in g.melds[s])
                rules = policy.profile.rules_for_kinds(kinds)
                sh = min(shanten(counts, w, r) for r in rules)
                wanted = []
                for a in kongs:
                    t = a.tile
                    assert t is not None
                    if a.type == SPECIAL_KONG:
                        needed = t == g.wildcard and w == 1 and min(
                            shanten(counts, 0, r) for r in rules) > sh
                        if not needed:
                            wanted.append(a)
                    elif t != g.wildcard:
                        c = list(counts)
                        c[t] -= 4 if a.type == CONCEALED_KONG else 1
                        rs = (policy.profile.rules_for_kinds((*kinds, a.type))
                              if a.type == CONCEALED_KONG else rules)
                        if min(shanten(c, w, r) for r in rs) <= sh:
                            wanted.append(a)
                if wanted:
                    assert chosen == wanted[0]
                else:
                    assert chosen.type == DISCARD
                checked += 1
            g.apply(chosen)
    if variant == "jingzhou":
        assert checked > 10


def test_claim_limits_read_claimers_where_concealment_pays() -> None:
    for variant in ("huanghuang", "golden", "mcr", "taiwan", "jingzhou"):
        for game, seat in _states(variant, 2, every=2):
            view = game.view(seat)
            limits = claim_limits(view)
            claimed = {s for s, ms in enumerate(view["melds"]) if s != seat and any(
                m["kind"] in ("chow", "pung", "kong", "added_kong") for m in ms)}
            if variant == "jingzhou":
                assert limits == {}  # everyone must open there: a claim says little
            else:
                assert set(limits) == claimed
                assert set(limits.values()) <= {get_profile(variant).closed_max}


@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_draws_keeps_the_view_and_gives_opponents_their_pace(variant: str) -> None:
    """Samples whose opponents are played forward by their draws still agree with the
    view and hold exactly the unseen tiles; the opponents are about as close to ready
    as greedy's real opponents (uniform samples are far slower), never hold a dead tile,
    and claimers mostly meet their limit."""
    policy = FastPolicy(variant)
    prof = get_profile(variant)
    real: list[int] = []
    replayed: list[int] = []
    uniform: list[int] = []
    limited = met = 0
    for seed in range(6):
        g = Game(variant, seed=seed)
        bots = [make_bot("greedy", s) for s in range(g.n)]
        k = 0
        while not g.over:
            s0 = g.to_act()[0]
            if _pass_only(g, s0):  # no decision: k counts the decisions of the hand
                g.apply(Action(PASS, s0))
                continue
            view = g.view(s0)
            k += 1
            if g.phase == TURN and k % 2 == 0:
                limits = claim_limits(view)
                cond = replay_draws(view, policy, limits)
                w = sample_world(view, random.Random(k), condition=cond)
                u = sample_world(view, random.Random(k))
                assert w.view(s0) == view
                assert w.legal_actions(s0) == g.legal_actions(s0)
                assert _hidden_counts(w, s0) == _hidden_counts(u, s0)
                for s in range(g.n):
                    if s == s0:
                        continue
                    assert not any(w.hands[s][t] for t in prof.dead)
                    if len(view["discards"][s]) >= 2:
                        real.append(_shanten_of(policy, g, s))
                        replayed.append(_shanten_of(policy, w, s))
                        uniform.append(_shanten_of(policy, u, s))
                    if s in limits:
                        limited += 1
                        met += _shanten_of(policy, w, s) <= limits[s]
            g.apply(bots[s0].choose(view, g.legal_actions(s0)))
    assert len(real) >= 15

    def mean(xs: list[int]) -> float:
        return sum(xs) / len(xs)


    assert abs(mean(replayed) - mean(real)) < 0.5
    assert mean(uniform) - mean(replayed) > 0.4
    if limited:
        assert met / limited > 0.7


def _shanten_of(policy: FastPolicy, g: Game, s: int) -> int:
    counts, w = policy._split(g, s)
    return min(shanten(counts, w, r) for r in policy.profile.rules_for_kinds(
        tuple(m.kind for m in g.melds[s])))


def _wins_legally(g: Game, seat: int, discard: int) -> bool:
    """Brute force: after ``discard``, is there a tile whose self-draw the engine lists
    as a legal win (every tile tried on its own copy of the state)?"""
    for t in range(34):
        c = clone_world(g)
        h = list(c.hands[seat])
        h[discard] -= 1
        h[t] += 1
        if h[t] + sum(m.tiles.count(t) for m in c.melds[seat]) > 4:
            continue
        c.hands[seat] = h
        c.sizes[seat] = sum(h)
        c.turn, c.phase, c.turn_kind, c.last_tile, c.after_kong = seat, TURN, "drawn", t, False
        c._legal = [None] * c.n  # the state was edited by hand: drop the cached lists
        if any(a.type == WIN for a in c.legal_actions(seat)):
            return True
    return False


def _ready_after(policy: FastPolicy, g: Game, seat: int, discard: int) -> bool:
    counts, w = policy._split(g, seat)
    rules = policy.profile.rules_for_kinds(tuple(m.kind for m in g.melds[seat]))
    counts[discard] -= 1
    return min(shanten(counts, w, x) for x in rules) == 0


def test_fast_policy_value_waits_prefers_a_ready_hand_that_can_win() -> None:
    """With ``value_waits`` a playout discard that leaves an MCR hand ready with no legal
    win (under 8 fan) gives way to another ready discard that has one, when there is
    one; otherwise the plain choice stands."""
    plain, valued = FastPolicy("mcr"), FastPolicy("mcr", value_waits=True)
    changed = 0
    for g, s, _view, legal in greedy_decisions("mcr", range(6)):
        if g.phase != TURN:
            continue
        a = plain.act(clone_world(g), s)
        b = valued.act(clone_world(g), s)
        if a.type != DISCARD or a.tile is None:
            continue

        def ready(t: int, g: Game = g, s: int = s) -> bool:
            return _ready_after(plain, g, s, t)

        others = [x.tile for x in legal if x.type == DISCARD and x.tile != a.tile
                  and x.tile is not None]
        if a != b:
            changed += 1
            assert b.type == DISCARD and b.tile is not None
            assert ready(a.tile) and not _wins_legally(g, s, a.tile)
            assert ready(b.tile) and _wins_legally(g, s, b.tile)
        elif ready(a.tile) and not _wins_legally(g, s, a.tile):
            assert not any(ready(t) and _wins_legally(g, s, t) for t in others)
    assert changed >= 1


def _stream_tiles(g: Game) -> list[int]:
    assert g.seat_streams is not None
    return sorted(t for st in g.seat_streams for t in st)


@pytest.mark.parametrize("variant", VARIANTS)
def test_coupled_draws_keep_the_streams_in_step_with_the_wall(variant: str) -> None:
    """Through whole playouts (kongs, flowers and their tail draws included) the
    streams hold exactly the live wall's tiles; a clone plays like the world it was
    copied from, which stays untouched."""
    policy = FastPolicy(variant)
    played = 0
    for game, seat in _states(variant, 7, every=6)[:6]:
        world = sample_world(game.view(seat), random.Random(3))
        if world.over:
            continue
        world.split_wall()
        assert world.seat_streams is not None
        before = (world.to_json(), list(world.wall), [list(st) for st in world.seat_streams])
        runs = []
        for _ in range(2):
            g = clone_world(world)
            assert g.seat_streams is not None and g.wall is not world.wall
            while not g.over:
                s = g.to_act()[0]
                if not g.legal_actions(s):
                    break
                g.apply(policy.act(g, s))
                assert _stream_tiles(g) == sorted(g.wall[g.head:g.tail])
            runs.append((g.net, g.hands, g.discards))
            played += 1
        assert runs[0] == runs[1]
        assert (world.to_json(), world.wall, world.seat_streams) == before
    assert played >= 6


def _claim_scenarios(variant: str) -> Iterator[tuple[Game, Action]]:
    """Real states where a seat may chow or pung a discard, with the wall still long."""
    for seed in range(40):
        for game, _seat in _states(variant, seed, every=1):
            if game.phase != CLAIM or game.tail - game.head < 40:
                continue
            for s in game.to_act():
                claims = [a for a in game.legal_actions(s) if a.type in (CHOW, PUNG)]
                if claims:
                    yield game, claims[0]
                    break


def _answer(g: Game, claim: Action | None) -> None:
    while g.phase == CLAIM:
        s = g.to_act()[0]
        g.apply(claim if claim is not None and s == claim.seat else Action(PASS, s))


def _draws_after(g: Game, claim: Action | None, steps: int) -> list[list[int]]:
    """Each seat's ordinary draws once ``claim`` (or everyone's pass) answers the
    discard, over ``steps`` more actions of players that never claim or win and throw
    the drawn tile (or, after a claim, their first legal one)."""
    start = len(g.log)
    _answer(g, claim)
    for _ in range(steps):
        if g.over:
            break
        s = g.to_act()[0]
        legal = g.legal_actions(s)
        if g.phase == CLAIM:
            _answer(g, None)
            continue
        drawn = [a for a in legal if a.type == DISCARD and a.tile == g.last_tile
                 and g.turn_kind == "drawn"]
        g.apply(drawn[0] if drawn else next(a for a in legal if a.type == DISCARD))
    out: list[list[int]] = [[] for _ in range(g.n)]
    for e in g.log[start:]:
        if e["type"] == "draw" and not e["replacement"]:
            out[e["seat"]].append(e["tile"])
    return out


@pytest.mark.parametrize("variant", [v for v in VARIANTS
                                     if all(t < 34 for t in Game(v, seed=0).wall)])
def test_coupled_draws_give_each_seat_its_tiles_whatever_the_claims(variant: str) -> None:
    """After a claim (which skips seats) or a pass, every seat draws the same tiles in
    the same order: the claim moves the turn, not the tiles. Without coupling the same
    pairs of games hand the seats different tiles."""
    checked = plain_differs = 0
    for game, claim in _claim_scenarios(variant):
        for coupled in (True, False):
            base = clone_world(game)
            if coupled:
                base.split_wall()
            da = _draws_after(clone_world(base), claim, 24)
            db = _draws_after(clone_world(base), None, 24)
            common = [min(len(x), len(y)) for x, y in zip(da, db, strict=True)]
            same = all(x[:k] == y[:k] for x, y, k in zip(da, db, common, strict=True))
            if coupled:
                assert same, (da, db)
                assert sum(common) >= 4
                checked += 1
            else:
                plain_differs += not same
        if checked >= 8:
            break
    assert checked >= 8
    assert plain_differs >= 4


def _stepped_playout(g: Game, policies: list[FastPolicy]) -> None:
    """The obviously-correct playout: every decision through ``legal_actions``, every
    action through the checking ``apply``."""
    while not g.over:
        s = g.to_act()[0]
        legal = g.legal_actions(s)
        if not legal:
            return
        a = policies[s].act(g, s)
        assert a in legal
        g.apply(a)


@pytest.mark.parametrize("variant", VARIANTS)
def test_playout_is_the_stepped_playout(variant: str) -> None:
    """``playout`` decides plain turns from the state and skips the legality checks; on
    sampled worlds of every variant (the bot's seat valuing waits, kongs, flowers and
    claims included) it must end in exactly the state the stepped playout reaches, and
    on plain turns ``turn_action`` must be ``act``."""
    from laizi.bots.rollout import turn_action

    plain = FastPolicy(variant)
    waits = FastPolicy(variant, value_waits=True)
    checked = turns = 0
    for seed in (3, 4, 5):
        for game, seat in _states(variant, seed, every=4)[:10]:
            view = game.view(seat)
            world = sample_world(view, random.Random(seed))
            world.keep_log = False
            policies = [plain] * world.n
            policies[seat] = waits
            a, b = clone_world(world), clone_world(world)
            playout(a, policies)
            _stepped_playout(b, policies)
            assert a.to_json() == b.to_json()
            checked += 1
            # and decision by decision along the stepped playout
            c = clone_world(world)
            while not c.over and c.legal_actions(c.to_act()[0]):
                s = c.to_act()[0]
                if c.phase == TURN and c.variant.plain_turn(c, s):
                    assert turn_action(c, s, policies[s]) is policies[s].act(c, s)
                    turns += 1
                c.apply(policies[s].act(c, s))
    assert checked >= 20 and turns > 100


def _taiwan_histories(g: Game, s: int) -> Iterator[None]:
    """Taiwan's variant facts in the states a random hand seldom reaches: the seat
    declared (locked) or declaring, before its first discard (地听 possible), holding
    a flower win. Each is set for one step and put back."""
    import copy

    x = g.extra
    saved = copy.deepcopy(x)
    drawn = g.last_tile
    for change in ("declared", "declaring", "first", "flowers"):
        if change == "declared":
            x["declared"][s] = "earthly"
        elif change == "declaring":
            x["declared"][s] = "earthly"
            x["declaring"] = s
        elif change == "first":
            x["discards"][s] = 0
        else:
            x["flower_ready"] = {"seat": s, "kind": "eight_immortals", "on_deal": False}
        g._legal = [None] * g.n
        yield
        x.clear()
        x.update(copy.deepcopy(saved))
        g.last_tile = drawn
    g._legal = [None] * g.n


def test_plain_turn_is_what_the_engine_offers() -> None:
    """Where a variant calls a turn plain, its legal actions are exactly the engine's
    core turn actions (``turn_actions`` adds none, ``restrict`` removes none); Taiwan's
    rarer histories (locks, 地听, flower wins) are posed on its states as well."""

    def check(g: Game, s: int) -> bool:
        v = g.variant
        if not v.plain_turn(g, s):
            return False
        legal = g.legal_actions(s)
        assert v.turn_actions(g, s) == []
        v.restrict = lambda game, seat, acts: acts  # type: ignore[method-assign]
        try:
            unfiltered = turn_options(g, v, s)
        finally:
            del v.restrict
        assert tuple(unfiltered) == legal
        return True

    for variant in VARIANTS:
        seen = posed = 0
        for seed in range(3):
            g = Game(variant, seed=seed)
            rng = random.Random(seed)
            while not g.over:
                s = g.to_act()[0]
                if g.phase == TURN:
                    seen += check(g, s)
                    if variant == "taiwan" and g.extra.get("declared"):
                        for _ in _taiwan_histories(g, s):
                            posed += 1
                            check(g, s)
                g.apply(rng.choice(g.legal_actions(s)))
        assert seen > 20, variant
        assert variant != "taiwan" or posed > 100


def test_dropping_covered_rule_sets_keeps_the_best_shanten() -> None:
    """A profile drops a rule set another one covers (MCR's closed shapes include its
    open ones); the best shanten over what is left must be the best over them all."""
    from laizi.bots.profiles import PROFILES, _undominated

    rng = random.Random(7)
    sets = [r for p in PROFILES.values()
            for r in (*p.rules_open, *p.rules_closed, *p.pung_rules)]
    checked = 0
    for _ in range(300):
        rules = rng.sample(sets, rng.randint(1, 4))
        kept = _undominated(rules)
        assert kept and set(kept) <= set(rules)
        for _ in range(5):
            c = _near_complete(rng)
            w = 0 if sum(c) % 3 else 1
            assert (min(shanten(c, w, r) for r in kept)
                    == min(shanten(c, w, r) for r in rules))
            checked += 1
    assert checked == 1500


def _near_complete(rng: random.Random) -> list[int]:
    """A 13- or 14-tile hand one to three tiles off a complete hand of random sets (a
    pung, a chow or, as 七对 has them, pairs) and a random pair."""
    while True:
        c = [0] * 34
        if rng.random() < 0.2:
            for t in rng.sample(range(34), 7):
                c[t] += 2
        else:
            for _ in range(4):
                t = rng.randrange(34)
                if t < 27 and t % 9 < 7 and rng.random() < 0.5:
                    for x in (t, t + 1, t + 2):
                        c[x] += 1
                else:
                    c[t] += 3
            c[rng.randrange(34)] += 2
        if max(c) > 4:
            continue
        for _ in range(rng.randint(1, 3)):
            c[rng.choice([t for t in range(34) if c[t]])] -= 1
        while sum(c) < 13 + rng.randint(0, 1):
            t = rng.randrange(34)
            if c[t] < 4:
                c[t] += 1
        return c
