"""laizi.tiles: ids, the four notation dialects, count vectors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laizi import tiles as T

tile_lists = st.lists(st.integers(0, T.NUM_TILE_IDS - 1), max_size=20)


@pytest.mark.parametrize("dialect", T.DIALECTS)
@given(ts=tile_lists)
def test_round_trip_every_dialect(dialect: T.Dialect, ts: list[int]) -> None:
    assert T.parse(T.format(ts, dialect), dialect) == ts


@pytest.mark.parametrize("dialect", T.DIALECTS)
def test_every_tile_has_a_unique_name(dialect: T.Dialect) -> None:
    names = [T.name(t, dialect) for t in range(T.NUM_TILE_IDS)]
    assert len(set(names)) == T.NUM_TILE_IDS
    for t, n in enumerate(names):
        assert T.parse_tile(n, dialect) == t


def test_known_names() -> None:
    assert T.parse("123m 7z") == [0, 1, 2, 33]
    assert T.parse("5z6z7z") == [T.WHITE, T.GREEN, T.RED]  # Tenhou order: 白 发 中
    assert T.format([0, 1, 2, 9, 33]) == "123m1p7z"
    assert T.name(T.RED, "chinese") == "中" and T.name(4, "chinese") == "五万"
    assert T.parse("一万 红中 春 五筒 發 東", "chinese") == [0, 33, 34, 13, 32, 27]
    assert T.parse("5饼 三索 八萬", "chinese") == [13, 20, 7]
    assert T.name(T.RED, "gb") == "J1" and T.name(T.WHITE, "gb") == "J3"
    assert T.parse("W1 B9 T5 F4 J2 H8", "gb") == [0, 17, 22, 30, 32, 41]
    assert T.name(T.RED, "unicode") == "\U0001f004" and T.name(0, "unicode") == "\U0001f007"
    assert T.parse("\U0001f004\ufe0f\U0001f007", "unicode") == [T.RED, 0]


@pytest.mark.parametrize(
    ("text", "dialect", "position", "char"),
    [
        ("123x", "mpsz", 3, "x"),
        ("12m0p", "mpsz", 3, "0"),
        ("8z", "mpsz", 0, "8"),
        ("123", "mpsz", 3, ""),
        ("m", "mpsz", 0, "m"),
        ("12 3m", "mpsz", 2, " "),
        ("一万 二x", "chinese", 3, "二"),
        ("W1 X2", "gb", 3, "X"),
        ("W1 W0", "gb", 4, "0"),
        ("\U0001f004a", "unicode", 1, "a"),
    ],
)
def test_notation_error_names_position_and_char(
    text: str, dialect: T.Dialect, position: int, char: str
) -> None:
    with pytest.raises(T.NotationError) as info:
        T.parse(text, dialect)
    assert info.value.position == position
    assert info.value.char == char
    assert f"position {position}" in str(info.value)


def test_unknown_dialect() -> None:
    with pytest.raises(ValueError, match="unknown dialect"):
        T.parse("1m", "tenhou")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        T.name(42)


def test_parse_tile_wants_one() -> None:
    assert T.parse_tile("5p") == 13
    with pytest.raises(T.NotationError):
        T.parse_tile("55p")


@given(st.lists(st.integers(0, 33), max_size=30))
def test_counts_round_trip(ts: list[int]) -> None:
    counts = T.to_counts(ts)
    assert len(counts) == 34 and sum(counts) == len(ts)
    assert T.from_counts(counts) == sorted(ts)


def test_counts_refuse_flowers_unless_size_42() -> None:
    with pytest.raises(ValueError):
        T.to_counts([34])
    assert T.to_counts([34], size=42)[34] == 1


def test_classification() -> None:
    assert T.suit(0) == 0 and T.suit(26) == 2 and T.suit(27) == 3 and T.suit(40) == 4
    assert [T.rank(t) for t in (0, 8, 27, 33, 34)] == [1, 9, 1, 7, 1]
    assert T.tile(1, 5) == 13 and T.tile(3, 7) == T.RED
    assert T.is_terminal(8) and not T.is_terminal(27) and T.is_terminal_or_honour(27)
    assert T.is_honour(30) and T.is_suited(26) and T.is_flower(41)
    with pytest.raises(ValueError):
        T.tile(3, 8)
