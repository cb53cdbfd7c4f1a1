"""Secret, verifiable deals (laizi.table.deals, docs/deals.md).

The reference below re-implements the documented construction from the spec alone, in a
different way: HMAC-SHA256 built by hand from hashlib.sha256 (ipad/opad), the whole byte
stream generated up front, and the draws written with divmod over a bytes buffer.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.table import deals as D
from laizi.variants import BUILTIN, get

# ------------------------------------------------------------------ the reference


def ref_hmac(key: bytes, msg: bytes) -> bytes:
    """RFC 2104 HMAC with SHA-256 (block size 64), written out."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key.ljust(64, b"\0")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key) + msg).digest()
    return hashlib.sha256(bytes(b ^ 0x5C for b in key) + inner).digest()


def ref_stream(key: bytes, nbytes: int) -> bytes:
    blocks = -(-nbytes // 32)
    return b"".join(ref_hmac(key, b"laizi-shuffle/v1" + struct_u32(i)) for i in range(blocks))


def struct_u32(i: int) -> bytes:
    return bytes([(i >> 24) & 255, (i >> 16) & 255, (i >> 8) & 255, i & 255])


def ref_permute(tiles: list[int], stream: bytes) -> list[int]:
    """Fisher–Yates from the last position down to 1, rejection on 32-bit BE words."""
    out = list(tiles)
    pos = 0
    for i in reversed(range(1, len(out))):
        bound = i + 1
        bad = (2**32) % bound  # the top `bad` words are rejected
        while True:
            word = stream[pos:pos + 4]
            assert len(word) == 4, "the reference ran out of stream"
            pos += 4
            w = (word[0] << 24) | (word[1] << 16) | (word[2] << 8) | word[3]
            if w < 2**32 - bad:
                break
        _, j = divmod(w, bound)
        out[j], out[i] = out[i], out[j]
    return out


def ref_shuffle(tiles: list[int], key: bytes) -> list[int]:
    # Enough for every draw plus a generous margin of rejections.
    return ref_permute(tiles, ref_stream(key, 4 * (len(tiles) + 64)))


def ref_mix(entropy: list[str]) -> bytes:
    data = b"laizi-entropy/v1" + struct_u32(len(entropy))
    for e in entropy:
        raw = e.encode("ascii")
        data += bytes([len(raw) >> 8, len(raw) & 255]) + raw
    return hashlib.sha256(data).digest()


def ref_hand_key(secret: bytes, hand: int, digest: bytes) -> bytes:
    return ref_hmac(secret, b"laizi-hand/v1" + hand.to_bytes(8, "big") + digest)


def words_stream(*words: int) -> bytes:
    return b"".join(struct_u32(w) for w in words)


# ------------------------------------------------------------------ (a) the reference agrees

keys = st.binary(min_size=32, max_size=32)
tile_lists = st.lists(st.integers(min_value=0, max_value=200), max_size=150)


@settings(max_examples=300, deadline=None)
@given(key=keys, tiles=tile_lists)
def test_shuffle_agrees_with_the_reference(key: bytes, tiles: list[int]) -> None:
    before = list(tiles)
    assert D.shuffle(tiles, key) == ref_shuffle(tiles, key)
    assert tiles == before  # the input is not changed


@settings(max_examples=100, deadline=None)
@given(secret=keys, hand=st.integers(min_value=0, max_value=2**64 - 1),
       entropy=st.lists(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E),
                                min_size=1, max_size=20), max_size=5))
def test_keys_and_walls_agree_with_the_reference(secret: bytes, hand: int,
                                                 entropy: list[str]) -> None:
    digest = D.mix(entropy)
    assert digest == ref_mix(entropy)
    key = D.hand_key(secret, hand, digest)
    assert key == ref_hand_key(secret, hand, digest)
    tiles = JINGZHOU[::-1]  # deal_wall sorts
    assert D.deal_wall(secret, hand, digest, tiles) == ref_shuffle(sorted(tiles), key)
    assert D.commitment(secret) == hashlib.sha256(b"laizi-table-secret/v1" + secret).hexdigest()


@pytest.mark.parametrize("n", [2, 3, 5, 7, 96, 136, 144])
def test_rejection_sampling_on_crafted_words(n: int) -> None:
    # Every bound m that is not a power of two rejects the top 2**32 % m words: feed each
    # draw first its smallest rejected word (when it has one), then an accepted one.
    words: list[int] = []
    expected = list(range(n))
    for i in range(n - 1, 0, -1):
        m = i + 1
        limit = 2**32 - 2**32 % m
        if limit < 2**32:
            words += [limit, 2**32 - 1]  # both rejected
        w = (7 * i + 3) % m + m * (i % 5)  # accepted, j = w % m
        words.append(w)
        j = w % m
        expected[i], expected[j] = expected[j], expected[i]
    stream = words_stream(*words)
    assert ref_permute(list(range(n)), stream) == expected
    assert D._permute(list(range(n)), iter(words)) == expected


def test_bound_three_rejects_only_the_top_word() -> None:
    # n = 3: i = 2 (bound 3, 2**32 % 3 == 1: rejects 2**32 - 1), then i = 1 (bound 2).
    words = [2**32 - 1, 2**32 - 2, 5]
    # 2**32 - 2 = 4294967294 % 3 == 2 -> j = 2 (no swap); 5 % 2 == 1 -> no swap.
    assert D._permute([10, 20, 30], iter(words)) == [10, 20, 30]
    words = [2**32 - 1, 3, 4]  # 3 % 3 == 0: swap 2<->0; 4 % 2 == 0: swap 1<->0
    assert D._permute([10, 20, 30], iter(words)) == [20, 30, 10]


# ------------------------------------------------------------------ (b) pinned vectors

SECRET = bytes(range(32))  # 000102...1f
_opts = get("jingzhou").default_options()
JINGZHOU = sorted(get("jingzhou").tile_set(_opts))


def test_pinned_vectors() -> None:
    assert D.secret_hex(SECRET) == "000102030405060708090a0b0c0d0e0f" \
                                   "101112131415161718191a1b1c1d1e1f"
    assert D.commitment(SECRET) == \
        "bb51b59494d36483846926fc6cad0c910ed17d5877c405a16592509a100beca3"
    assert D.mix([]).hex() == "ab7509091020dd6a538f01e94e87197a160866eadda611f93b5b3f0425238449"
    assert D.mix(["alice", "bob"]).hex() == \
        "a444880870493c06bd2d506a7d5f6ba4dd845e1abb6ce73dc0a3525182174020"
    key0 = D.hand_key(SECRET, 0, D.mix([]))
    assert key0.hex() == "ac972e1b07459da6d06964ef2eaf3ff0ea3e77bf809a1df685f1b882d9eff07b"
    assert D.shuffle(list(range(10)), key0) == [9, 5, 8, 0, 6, 7, 4, 1, 2, 3]


def test_pinned_jingzhou_walls() -> None:
    assert len(JINGZHOU) == 96
    w0 = D.deal_wall(SECRET, 0, D.mix([]), JINGZHOU)
    assert w0[:10] == [31, 24, 15, 28, 9, 16, 17, 21, 33, 18]
    assert hashlib.sha256(bytes(w0)).hexdigest() == \
        "d4fabedd54756f015c9acd3aa65b951a78e7264e0a449e1ff8451289c7ec6b50"
    w1 = D.deal_wall(SECRET, 1, D.mix([]), JINGZHOU)
    assert w1[:10] == [15, 9, 18, 22, 22, 33, 16, 13, 30, 25]
    assert w1 != w0
    we = D.deal_wall(SECRET, 0, D.mix(["alice", "bob"]), JINGZHOU)
    assert we[:10] == [33, 30, 23, 19, 28, 19, 12, 23, 16, 12]
    assert we != w0
    seeded = D.shuffle(JINGZHOU, D.seeded_key(42, 0))
    assert D.seeded_key(42, 0).hex() == \
        "3a0ec7ed8ee00686d064a985488a13e6c6c0a04739156dc09ac0bca136a770bd"
    assert seeded[:10] == [31, 30, 23, 22, 10, 10, 12, 14, 14, 21]


def test_everything_changes_the_deal() -> None:
    base = D.deal_wall(SECRET, 0, D.mix(["x"]), JINGZHOU)
    other_secret = bytes([1]) + SECRET[1:]
    assert D.deal_wall(other_secret, 0, D.mix(["x"]), JINGZHOU) != base
    assert D.deal_wall(SECRET, 0, D.mix(["y"]), JINGZHOU) != base
    assert D.deal_wall(SECRET, 0, D.mix(["x", "x"]), JINGZHOU) != base
    # The encoding is unambiguous and ordered.
    assert D.mix(["ab", "c"]) != D.mix(["a", "bc"])
    assert D.mix(["a", "b"]) != D.mix(["b", "a"])
    assert D.mix([]) != D.mix([" "])
    walls = {tuple(D.deal_wall(SECRET, h, D.mix([]), JINGZHOU)) for h in range(50)}
    assert len(walls) == 50
    assert D.seeded_key(1, 0) != D.seeded_key(0, 1)
    assert D.seeded_key(-1, 0) != D.seeded_key(1, 0)
    assert D.seeded_key(0, 3) == D.hand_key(D.seeded_secret(0), 3, D.mix([]))


def test_deal_wall_depends_only_on_the_multiset() -> None:
    a = D.deal_wall(SECRET, 5, D.mix([]), JINGZHOU)
    b = D.deal_wall(SECRET, 5, D.mix([]), tuple(reversed(JINGZHOU)))
    assert a == b


def test_secret_round_trip() -> None:
    s = D.new_secret()
    assert type(s) is bytes and len(s) == 32 and s != D.new_secret()
    c = D.commitment(s)
    assert len(c) == 64 and c == c.lower()
    assert D.parse_secret(D.secret_hex(s)) == s
    assert D.check_secret(D.secret_hex(s), c)
    assert not D.check_secret(D.secret_hex(SECRET), c)
    assert not D.check_secret(D.secret_hex(s), D.commitment(SECRET))


# ------------------------------------------------------------------ (c) a permutation


@settings(max_examples=200, deadline=None)
@given(key=keys, tiles=tile_lists)
def test_the_shuffle_is_a_permutation(key: bytes, tiles: list[int]) -> None:
    out = D.shuffle(tiles, key)
    assert Counter(out) == Counter(tiles) and len(out) == len(tiles)


def test_every_variant_wall_is_its_tile_set() -> None:
    for vid in BUILTIN:
        v = get(vid)
        tiles = v.tile_set(v.default_options())
        wall = D.deal_wall(SECRET, 3, D.mix(["e"]), tiles)
        assert sorted(wall) == sorted(tiles)


def test_small_inputs() -> None:
    key = D.seeded_key(0, 0)
    assert D.shuffle([], key) == []
    assert D.shuffle([7], key) == [7]
    assert sorted(D.shuffle([1, 2], key)) == [1, 2]


# ------------------------------------------------------------------ (d) uniformity


def test_all_permutations_of_four_are_equally_likely() -> None:
    runs = 24_000
    counts = Counter(tuple(D.shuffle([0, 1, 2, 3], D.seeded_key(2024, h))) for h in range(runs))
    perms = list(itertools.permutations(range(4)))
    assert set(counts) == set(perms)
    expected = runs / len(perms)  # 1000; the standard deviation is about 31
    for p in perms:
        assert abs(counts[p] - expected) < 150, (p, counts[p])
    chi2 = sum((counts[p] - expected) ** 2 / expected for p in perms)
    assert chi2 < 60  # 23 degrees of freedom: P(chi2 > 60) < 1e-4 (deterministic keys)


def test_each_tile_lands_anywhere() -> None:
    # 10 distinct items over 10,000 shuffles: item x at position p about 1,000 times.
    runs = 10_000
    grid = [[0] * 10 for _ in range(10)]
    for h in range(runs):
        for pos, item in enumerate(D.shuffle(list(range(10)), D.seeded_key(7, h))):
            grid[item][pos] += 1
    for row in grid:
        for c in row:
            assert 850 < c < 1150


# ------------------------------------------------------------------ (e) strict validation


def _refused(excinfo: pytest.ExceptionInfo[TableError]) -> None:
    assert isinstance(excinfo.value, LaiziError)
    assert excinfo.value.code is ErrorCode.MALFORMED


@pytest.mark.parametrize("entropy", [
    "", "x" * 257, "tab\there", "new\nline", "\x7f", "中文", "é", "\ud800", b"bytes", 12,
    None, True, ["x"],
])
def test_bad_entropy_is_refused(entropy: object) -> None:
    with pytest.raises(TableError) as e:
        D.check_entropy(entropy)
    _refused(e)
    with pytest.raises(TableError) as e:
        D.mix(["ok", entropy])  # type: ignore[list-item]
    _refused(e)


def test_good_entropy() -> None:
    for e in ["x", "x" * 256, " ", "~", "Hello, world! 0123456789abcdef"]:
        assert D.check_entropy(e) == e
    assert D.mix(("a", "b")) == D.mix(["a", "b"])


@pytest.mark.parametrize("bad", ["abc", b"abc", None, 3, {"a"}])
def test_bad_entropy_lists_are_refused(bad: object) -> None:
    with pytest.raises(TableError) as e:
        D.mix(bad)  # type: ignore[arg-type]
    _refused(e)


@pytest.mark.parametrize("secret", [
    b"", bytes(31), bytes(33), bytearray(32), "00" * 32, None, 0, memoryview(bytes(32)),
])
def test_bad_secrets_are_refused(secret: object) -> None:
    for call in (
        lambda: D.commitment(secret),  # type: ignore[arg-type]
        lambda: D.hand_key(secret, 0, D.mix([])),  # type: ignore[arg-type]
        lambda: D.deal_wall(secret, 0, D.mix([]), JINGZHOU),  # type: ignore[arg-type]
        lambda: D.secret_hex(secret),  # type: ignore[arg-type]
    ):
        with pytest.raises(TableError) as e:
            call()
        _refused(e)


@pytest.mark.parametrize("text", [
    "", "00" * 31, "00" * 33, "AB" * 32, "0x" + "00" * 31, " " + "0" * 63, "g" * 64,
    "00" * 31 + "0\n", "٠" * 64, b"00" * 32, None, 0,
])
def test_bad_secret_hex_is_refused(text: object) -> None:
    good = D.commitment(SECRET)
    with pytest.raises(TableError) as e:
        D.check_secret(text, good)  # type: ignore[arg-type]
    _refused(e)
    with pytest.raises(TableError) as e:
        D.parse_secret(text)  # type: ignore[arg-type]
    _refused(e)
    with pytest.raises(TableError) as e:  # the same rules for the commitment
        D.check_secret(D.secret_hex(SECRET), text)  # type: ignore[arg-type]
    _refused(e)


def test_error_messages_do_not_quote_secrets() -> None:
    almost = bytes([0xAB]) * 31
    with pytest.raises(TableError) as e:
        D.commitment(almost)
    assert "abab" not in str(e.value).lower()
    with pytest.raises(TableError) as e:
        D.parse_secret("cd" * 31 + "c")
    assert "cdc" not in str(e.value)


@pytest.mark.parametrize("hand", [-1, 2**64, True, 1.0, "0", None])
def test_bad_hand_numbers_are_refused(hand: object) -> None:
    with pytest.raises(TableError) as e:
        D.hand_key(SECRET, hand, D.mix([]))  # type: ignore[arg-type]
    _refused(e)
    with pytest.raises(TableError) as e:
        D.seeded_key(0, hand)  # type: ignore[arg-type]
    _refused(e)


def test_hand_number_limits() -> None:
    assert len(D.hand_key(SECRET, 2**64 - 1, D.mix([]))) == 32
    assert len(D.seeded_key(2**63 - 1, 0)) == len(D.seeded_key(-(2**63), 0)) == 32


@pytest.mark.parametrize("seed", [2**63, -(2**63) - 1, True, 1.5, "1", None])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(TableError) as e:
        D.seeded_key(seed, 0)  # type: ignore[arg-type]
    _refused(e)


@pytest.mark.parametrize("digest", [bytes(31), bytes(33), "00" * 32, None, bytearray(32)])
def test_bad_entropy_digests_are_refused(digest: object) -> None:
    with pytest.raises(TableError) as e:
        D.hand_key(SECRET, 0, digest)  # type: ignore[arg-type]
    _refused(e)


@pytest.mark.parametrize("key", [bytes(16), bytes(64), "k" * 32, None])
def test_bad_keys_are_refused(key: object) -> None:
    with pytest.raises(TableError) as e:
        D.shuffle([1, 2, 3], key)  # type: ignore[arg-type]
    _refused(e)


@pytest.mark.parametrize("tiles", [[1, 2.0], [True, 1], ["1"], "123", b"\x01\x02", None, 5])
def test_bad_tiles_are_refused(tiles: object) -> None:
    with pytest.raises(TableError) as e:
        D.shuffle(tiles, D.seeded_key(0, 0))  # type: ignore[arg-type]
    _refused(e)
    with pytest.raises(TableError) as e:
        D.deal_wall(SECRET, 0, D.mix([]), tiles)  # type: ignore[arg-type]
    _refused(e)
