"""A fast playout policy for Monte Carlo search: cheap greedy play on a sampled state.

It reads only the acting seat's own tiles and melds in the sampled ``Game`` (the state
is a determinization, so nothing real is revealed). Wins are taken; kongs are made as
greedy makes them (中 always, the laizi unless the hand needs its only one, other kongs
when they cost no shanten); a discard keeps the lowest shanten (ties: the least
connected tile goes); a pung or chow is taken when it lowers the shanten (Jingzhou: also
to open), and a concealed hand in a variant that rewards it (the profile's
``closed_max``) opens only close to ready.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from mypy_extensions import mypyc_attr

from laizi import tiles as T
from laizi.analysis import WinRules, waits
from laizi.bots.greedy import best_shanten, posed_self_draws, trim_shanten_cache
from laizi.bots.profiles import Profile, profile
from laizi.core.melds import OPEN_KINDS
from laizi.core.records import SELF_DRAW
from laizi.engine.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    SPECIAL_KONG,
    WIN,
    WINNING_TYPES,
    Action,
)
from laizi.engine.game import CLAIMED, OVER, TURN, Game, interned

__all__ = ["FastPolicy", "playout", "playout_together", "same_future", "turn_action"]


# Subclassed in plain Python (other policies, tests) in the compiled build too.
@mypyc_attr(allow_interpreted_subclasses=True)
class FastPolicy:
    """Greedy-by-shanten decisions straight on a ``Game`` (for playouts only).

    With ``value_waits``, a discard that leaves the hand ready is checked for a legal
    win on one of its waits (the variant's own ``win_refusal``: MCR's 8 fan), and a
    ready discard that has one is preferred to one that has none."""

    def __init__(self, variant_id: str, *, value_waits: bool = False) -> None:
        self.profile: Profile = profile(variant_id)
        self.value_waits = value_waits

    # The greedy bot's cache (same rule sets, same answers): warm across decisions and
    # hands; every playout keeps its size in check.
    _sh = staticmethod(best_shanten)

    def shanten(self, counts: list[int], wilds: int, rules: tuple[WinRules, ...]) -> int:
        """The best shanten over ``rules`` (cached; the wildcards already taken out)."""
        return self._sh(counts, wilds, rules)

    def _after_discard(self, c: list[int], w: int, rules: tuple[WinRules, ...]) -> int:
        """The best shanten over the discards from the 3n+2 tiles ``c`` (wildcards
        kept), stopping as soon as one reaches the whole hand's shanten."""
        bound = self._sh(c, w, rules)
        best = 99
        for t in range(T.NUM_KINDS):
            if c[t]:
                c[t] -= 1
                sh = self._sh(c, w, rules)
                c[t] += 1
                if sh < best:
                    best = sh
                    if sh <= bound:
                        break
        return best

    def _split(self, g: Game, seat: int) -> tuple[list[int], int]:
        counts = list(g.hands[seat])
        w = 0
        if g.wildcard is not None:
            w = counts[g.wildcard]
            counts[g.wildcard] = 0
        return counts, w

    def _kong(self, g: Game, legal: list[Action], counts: list[int], w: int,
              kinds: tuple[str, ...], rules: tuple[WinRules, ...]) -> Action | None:
        """The kong to make now, if any, decided as greedy does: a special kong always
        (中), except the wildcard's (赖子杠) when the hand holds only that one and needs it;
        a concealed or added kong when it costs no shanten. Wildcards are kept wild."""
        bound = -99
        for a in legal:
            if a.type not in (SPECIAL_KONG, CONCEALED_KONG, ADDED_KONG):
                continue
            t = a.tile
            assert t is not None
            if bound == -99:
                bound = self._sh(counts, w, rules)
            if a.type == SPECIAL_KONG:
                if t == g.wildcard and w == 1 and self._sh(counts, 0, rules) > bound:
                    continue
                return a
            if t == g.wildcard:
                continue
            c = list(counts)
            c[t] -= 4 if a.type == CONCEALED_KONG else 1
            if c[t] < 0:
                continue
            r2 = (self.profile.rules_for_kinds((*kinds, a.type))
                  if a.type == CONCEALED_KONG else rules)
            if self._sh(c, w, r2) <= bound:
                return a
        return None

    def pick_discard(self, counts: list[int], w: int, rules: tuple[WinRules, ...],
                     allowed: Iterable[int]) -> int | None:
        """The discard among ``allowed`` tiles (wildcards already out of ``counts``)
        that keeps the lowest shanten; ties go to the least connected tile.

        Least connected tiles are tried first and the search stops at the first discard
        that keeps the shanten of the whole hand (no discard can do better: a 3n+2
        hand's shanten is the best over its discards), so usually one or two shanten
        look-ups replace one per tile. Same choice as scanning them all."""
        c = counts
        order: list[tuple[float, int]] = []
        for t in allowed:
            # _connected(counts with t removed, t), inlined: this loop runs for every
            # tile of every turn of every playout.
            v = 2.0 * (c[t] - 1)
            if t < 27:
                r = t % 9
                if r >= 1 and c[t - 1]:
                    v += 1.0
                if r >= 2 and c[t - 2]:
                    v += 0.5
                if r <= 7 and c[t + 1]:
                    v += 1.0
                if r <= 6 and c[t + 2]:
                    v += 0.5
                if r == 0 or r == 8:
                    v -= 0.2
            order.append((v, t))
        order.sort()
        bound = self._sh(c, w, rules)
        best: int | None = None
        best_sh = 99
        for _v, t in order:
            c[t] -= 1
            sh = self._sh(c, w, rules)
            c[t] += 1
            if sh < best_sh:
                best, best_sh = t, sh
                if sh <= bound:
                    break
        return best

    def _winnable_discard(self, g: Game, seat: int, counts: list[int], w: int,
                          rules: tuple[WinRules, ...], allowed: Iterable[int], t: int) -> int:
        """``t``, unless it leaves a ready hand with no legal win and another ready
        discard leaves one that has."""
        c = counts
        c[t] -= 1
        ready = self._sh(c, w, rules) == 0
        ok = not ready or _has_legal_wait(g, seat, c, w, rules)
        c[t] += 1
        if ok:
            return t

        def connected(x: int) -> float:
            c[x] -= 1
            v = _connected(c, x)
            c[x] += 1
            return v

        for u in sorted(allowed, key=connected):
            if u == t:
                continue
            c[u] -= 1
            good = self._sh(c, w, rules) == 0 and _has_legal_wait(g, seat, c, w, rules)
            c[u] += 1
            if good:
                return u
        return t

    def act(self, g: Game, seat: int) -> Action:
        legal = g.legal_actions(seat)
        for a in legal:
            if a.type in WINNING_TYPES:
                return a
        if len(legal) == 1:
            return legal[0]
        if g.phase == TURN:
            kongs: list[Action] = []
            tiles: dict[int, Action] = {}
            wild_discard: Action | None = None
            for a in legal:
                if a.type == DISCARD:
                    assert a.tile is not None
                    if a.tile == g.wildcard:
                        wild_discard = a
                    else:
                        tiles[a.tile] = a
                elif a.type in (SPECIAL_KONG, CONCEALED_KONG, ADDED_KONG):
                    kongs.append(a)
            return self.turn_choice(g, seat, kongs, tiles, wild_discard, legal[0])
        return self.claim_choice(g, seat, legal)

    def turn_choice(self, g: Game, seat: int, kongs: list[Action], tiles: dict[int, Action],
                    wild_discard: Action | None, fallback: Action) -> Action:
        """The turn's action when it is not a win: a kong (``kongs`` in the engine's
        order), else a discard (``tiles``: the non-wildcard ones by tile); ``fallback``
        if there is neither."""
        prof = self.profile
        kinds = tuple(m.kind for m in g.melds[seat])
        rules = prof.rules_for_kinds(kinds)
        counts, w = self._split(g, seat)
        if kongs:
            kong = self._kong(g, kongs, counts, w, kinds, rules)
            if kong is not None:
                return kong
        t = self.pick_discard(counts, w, rules, tiles)
        if t is not None:
            if self.value_waits:
                t = self._winnable_discard(g, seat, counts, w, rules, tiles, t)
            return tiles[t]
        return wild_discard if wild_discard is not None else fallback

    def claim_choice(self, g: Game, seat: int, legal: Sequence[Action]) -> Action:
        """A claim (chow, pung, kong) or pass on the pending discard."""
        prof = self.profile
        kinds = tuple(m.kind for m in g.melds[seat])
        rules = prof.rules_for_kinds(kinds)
        counts, w = self._split(g, seat)
        s0 = self._sh(counts, w, rules)
        opened = any(k in OPEN_KINDS for k in kinds)
        for a in legal:
            if a.type not in (PUNG, CHOW, KONG):
                continue
            c = list(counts)
            ok = True
            used = list(a.tiles)
            used.remove(a.tile)  # type: ignore[arg-type]
            for x in used:
                if c[x] <= 0:
                    ok = False
                    break
                c[x] -= 1
            if not ok:
                continue
            r2 = prof.rules_for_kinds((*kinds, a.type))
            if a.type == KONG:
                if self._sh(c, w, r2) <= s0:
                    return a
                continue
            s1 = self._after_discard(c, w, r2)
            if not (s1 < s0 or (prof.must_open and not opened and s1 <= s0)):
                continue
            # Like greedy: a concealed hand worth keeping (大刀, 门清) opens only close
            # to ready, so playouts see the value the real players play for.
            if (not opened and prof.closed_max is not None and not prof.must_open
                    and s1 > prof.closed_max):
                continue
            return a
        for a in legal:
            if a.type == PASS:
                return a
        return legal[0]


def _has_legal_wait(g: Game, seat: int, c: list[int], w: int,
                    rules: tuple[WinRules, ...]) -> bool:
    """Does the ready 3n+1 hand ``c`` (+ ``w`` wildcards) win legally on some wait, as a
    self-draw on the state ``g`` (temporarily given that hand)? Cached by hand, melds,
    seat, dealer and flowers, as bytes (no work for the garbage collector): fan that
    depends on the moment (和绝张, 妙手回春) may be answered from another state, which a
    playout heuristic can afford."""
    key = (bytes(c) + bytes((w, seat, g.dealer, len(g.flowers[seat])))
           + repr([(m.kind, m.tiles) for m in g.melds[seat]]).encode())
    got = _WINNABLE.get(key)
    if got is not None:
        return got
    hand = list(c)
    if g.wildcard is not None:
        hand[g.wildcard] += w
    held = list(hand)
    for m in g.melds[seat]:
        for x in m.tiles:
            if x < T.NUM_KINDS:
                held[x] += 1
    got = False
    # The tiles that complete the shape under some rule set: one waits() call per rule
    # set instead of a shanten look-up per tile (most of these hands are new).
    completing = set()
    for r in rules:
        completing.update(waits(c, w, r))
    with posed_self_draws(g, seat) as refusal:
        for t in sorted(completing):
            if held[t] >= 4 or t == g.wildcard:
                continue
            h = list(hand)
            h[t] += 1
            if refusal(h, t) is None:
                got = True
                break
    if len(_WINNABLE) > 200_000:
        _WINNABLE.clear()
    _WINNABLE[key] = got
    return got


_WINNABLE: dict[bytes, bool] = {}


def _connected(counts: list[int], t: int) -> float:
    """How much ``t`` (already removed once) works with the rest: pairs, neighbours."""
    v = 2.0 * counts[t]
    if t < 27:
        r = t % 9
        for d, w in ((1, 1.0), (2, 0.5)):
            if r - d >= 0:
                v += w * min(1, counts[t - d])
            if r + d <= 8:
                v += w * min(1, counts[t + d])
        if r in (0, 8):
            v -= 0.2
    return v


_DISCARD_ACTIONS = [[interned(DISCARD, s, t) for t in range(T.NUM_KINDS)] for s in range(8)]


def turn_action(g: Game, seat: int, policy: FastPolicy) -> Action | None:
    """``policy.act(g, seat)`` for a turn whose options are the engine's core ones
    (``g.variant.plain_turn``), without building the list of legal actions: the same
    options in the same order, the same choice (a test holds it to ``act``). ``None``
    if the seat has no legal action."""
    v = g.variant
    hand = g.hands[seat]
    drawn = g.turn_kind != CLAIMED
    kongs: list[Action] = []
    if drawn:
        t = g.last_tile
        assert t is not None
        if v.win_refusal(g, seat, t, SELF_DRAW) is None:
            return interned(WIN, seat, t)
        for m in g.melds[seat]:
            if m.kind == PUNG and hand[m.tiles[0]]:
                kongs.append(interned(ADDED_KONG, seat, m.tiles[0]))
    for x in v.special_kongs(g):
        if hand[x]:
            kongs.append(interned(SPECIAL_KONG, seat, x))
    refused = v.undiscardable(g, seat)
    blocked = v.meld_blocked(g)
    wild = g.wildcard
    tiles: dict[int, Action] = {}
    wild_discard: Action | None = None
    first = kongs[0] if kongs else None
    count = len(kongs)
    discards = _DISCARD_ACTIONS[seat]
    for x in range(T.NUM_KINDS):
        c = hand[x]
        if not c:
            continue
        if x not in refused:
            a = discards[x]
            if x == wild:
                wild_discard = a
            else:
                tiles[x] = a
            count += 1
            if first is None:
                first = a
        if c == 4 and drawn and x not in blocked:
            k = interned(CONCEALED_KONG, seat, x)
            kongs.append(k)
            count += 1
            if first is None:
                first = k
    if first is None:
        return None
    if count == 1:
        return first
    return policy.turn_choice(g, seat, kongs, tiles, wild_discard, first)


def _next_action(g: Game, policies: list[FastPolicy]) -> Action | None:
    """The action the game's next decision gets (``None``: the seat to act has no legal
    action, a rules bug in a sampled state)."""
    if g.phase == TURN and g.variant.plain_turn(g, g.turn):
        return turn_action(g, g.turn, policies[g.turn])
    s = g.to_act()[0]
    return policies[s].act(g, s) if g.legal_actions(s) else None


def playout(g: Game, policies: list[FastPolicy], limit: int = 2000,
            deadline: float | None = None) -> bool:
    """Play ``g`` to the end with ``policies[seat]`` choosing for each seat, exactly as
    stepping through ``legal_actions`` / ``policies[seat].act`` / ``apply`` would (a test
    holds it to that), but faster: a plain turn (``Variant.plain_turn``) is decided from
    the state without its list of legal actions, and every action is applied without
    the legality check (``Game.apply_trusted``). A playout that reaches a seat with a
    decision but no legal action (a rules bug in a sampled state) stops there and counts
    as no result (every ``net`` zero).

    With ``deadline`` (a ``time.perf_counter()`` value) the playout gives up once the
    clock passes it (checked every few actions) and returns ``False``; otherwise
    ``True``."""
    trim_shanten_cache()
    steps = 0
    while g.phase != OVER and steps < limit:
        a = _next_action(g, policies)
        if a is None:
            return True
        g.apply_trusted(a)
        steps += 1
        if deadline is not None and not steps & 7 and time.perf_counter() > deadline:
            return False
    return True


def same_future(a: Game, b: Game) -> bool:
    """Do ``a`` and ``b`` hold the same state, but for the order of the discard pools?
    Nothing in the rules or the playout policy reads that order (only what lies in the
    pools, e.g. 和绝张's visible copies), so two such games played on by the same
    deterministic policies end alike."""
    if (a.turn != b.turn or a.head != b.head or a.tail != b.tail or a.phase != b.phase
            or a.turn_kind != b.turn_kind or a.last_tile != b.last_tile
            or a.after_kong != b.after_kong):
        return False
    if (a.hands != b.hands or a.melds != b.melds or a.flowers != b.flowers
            or a.passed_win != b.passed_win or a.seat_streams != b.seat_streams):
        return False
    # With per-seat streams they decide every draw; the wall list's order follows them.
    if a.seat_streams is None and a.wall[a.head:a.tail] != b.wall[b.head:b.tail]:
        return False
    if (a.extra != b.extra or a.pending != b.pending or a.responses != b.responses
            or a.taken != b.taken or a.scores != b.scores or a.suspended != b.suspended
            or a.wildcard != b.wildcard or a.indicators != b.indicators):
        return False
    return all(x == y or sorted(x) == sorted(y)
               for x, y in zip(a.discards, b.discards, strict=True))


def playout_together(games: list[Game], policies: list[FastPolicy], limit: int = 2000,
                     deadline: float | None = None) -> list[list[int]] | None:
    """Every game's ``net`` once played to the end by ``policies`` (as :func:`playout`
    plays each), for the candidates of one sample. The games go on a turn at a time,
    side by side, and a game that comes to the same state as another
    (:func:`same_future`) ends as that one does, so it is not played further: two
    discards often meet again a turn later (the seat throws the other tile), and with
    the sample's draws shared the rest of the hand is the same. ``None`` if the clock
    ran out first."""
    trim_shanten_cache()
    k = len(games)
    merged = list(range(k))  # the game each one ends as (itself while it plays)
    steps = [0] * k
    playing = [i for i in range(k) if games[i].phase != OVER]
    while playing:
        still: list[int] = []
        for i in playing:
            g = games[i]
            done = False
            while True:  # act until the next turn begins (or the end)
                if g.phase == OVER or steps[i] >= limit:
                    done = True
                    break
                a = _next_action(g, policies)
                if a is None:
                    done = True  # no result: every net zero, as in playout()
                    break
                g.apply_trusted(a)
                steps[i] += 1
                if (deadline is not None and not steps[i] & 7
                        and time.perf_counter() > deadline):
                    return None
                if g.phase == TURN:
                    break
            if done or g.phase == OVER:
                continue
            for j in still:
                if same_future(g, games[j]):
                    merged[i] = j
                    break
            else:
                still.append(i)
        playing = still
    out = []
    for i in range(k):
        j = i
        while merged[j] != j:
            j = merged[j]
        out.append(games[j].net)
    return out
