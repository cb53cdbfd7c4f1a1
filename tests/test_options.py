"""The one ``--option KEY=VALUE`` parser (laizi.variants.options) of every command."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest

from laizi.cli import main
from laizi.errors import ErrorCode, LaiziError, OptionsError
from laizi.variants import BUILTIN, get
from laizi.variants.options import (
    format_option,
    option_keys,
    option_pairs,
    parse_option_values,
    parse_options,
)

# Non-default values of the fields that are neither bool nor int (those are varied below).
OTHER_VALUES: dict[tuple[str, str], Any] = {
    ("huanghuang", "horses"): (0, 5),
    ("golden", "priority"): "dealer",
    ("golden", "prevalent_wind"): "S",
    ("mcr", "priority"): "dealer",
    ("mcr", "prevalent_wind"): "N",
    ("mcr", "profile"): "botzone",
    ("taiwan", "tai"): (("full_flush", 8), ("heavenly_win", 24)),
}


def _other_value(variant_id: str, field: dataclasses.Field[Any], kind: Any, default: Any
                 ) -> Any:
    if kind is bool:
        return not default
    if kind is int:
        return default + 1
    return OTHER_VALUES[(variant_id, field.name)]


@pytest.mark.parametrize("variant_id", BUILTIN)
def test_every_field_of_every_variant_round_trips(variant_id: str) -> None:
    v = get(variant_id)
    default = v.default_options()
    assert parse_options(v, []) == default
    assert parse_options(variant_id, option_pairs(v, default)) == default
    hints = typing.get_type_hints(v.options_type)
    for field in dataclasses.fields(v.options_type):
        value = _other_value(variant_id, field, hints[field.name], getattr(default, field.name))
        changed = dataclasses.replace(default, **{field.name: value})
        text = f"{field.name}={format_option(value)}"
        got = parse_options(v, [text])
        assert got == changed, text
        assert getattr(got, field.name) == value
        assert parse_options(v, option_pairs(v, changed)) == changed
        # The JSON values are what options_from_json (a hand task, a log) takes.
        assert v.options_from_json(parse_option_values(v, [text])) == changed


def test_values_are_typed_by_the_annotation() -> None:
    jz = parse_options("jingzhou", ["cap=200", " kou_kou_fan = YES", "base=+2"])
    assert (jz.cap, jz.kou_kou_fan, jz.base) == (200, True, 2)
    for text, want in [("true", True), ("1", True), ("on", True), ("no", False),
                       ("0", False), ("False", False), ("off", False)]:
        assert parse_options("jingzhou", [f"kou_kou_fan={text}"]).kou_kou_fan is want
    assert parse_option_values("jingzhou", ["cap=200"]) == {"cap": 200}
    assert parse_options("golden", ["priority=dealer"]).priority == "dealer"
    assert parse_options("huanghuang", ["horses=[1, 6]"]).horses == (1, 6)
    assert parse_options("huanghuang", ["horses="]).horses == ()
    assert parse_options("huanghuang", ["horses=1", "horses=2"]).horses == (1, 2)
    tw = parse_options("taiwan", ["tai=full_flush:8", "tai={\"heavenly_win\": 24}",
                                  "tai_value=30"])
    assert tw.overrides == {"full_flush": 8, "heavenly_win": 24} and tw.tai_value == 30
    assert parse_option_values("taiwan", ["tai=full_flush=8"]) == {"tai": {"full_flush": 8}}


def test_taiwan_presets() -> None:
    from laizi.scoring.taiwan.options import COMMON_TABLE

    assert "preset" in option_keys("taiwan")
    assert parse_options("taiwan", ["preset=common"]) == COMMON_TABLE
    assert parse_options("taiwan", ["preset=common", "tai=full_flush:10"]).overrides[
        "full_flush"] == 10
    with pytest.raises(OptionsError, match="unknown Taiwan preset 'house'"):
        parse_options("taiwan", ["preset=house"])


def test_unknown_key_lists_the_valid_keys() -> None:
    with pytest.raises(OptionsError) as info:
        parse_options("jingzhou", ["colour=red"])
    assert str(info.value) == ("unknown jingzhou option 'colour'; valid options: base, cap, "
                               "gold, kou_kou_fan, reserve")
    assert info.value.code is ErrorCode.BAD_OPTION
    assert info.value.to_json()["code"] == "bad_option"
    assert isinstance(info.value, LaiziError) and isinstance(info.value, ValueError)
    assert option_keys("mcr") == ["minimum", "prevalent_wind", "priority", "profile"]


@pytest.mark.parametrize(("pairs", "match"), [
    (["cap"], "expected NAME=VALUE"),
    (["=5"], "expected NAME=VALUE"),
    (["kou_kou_fan=maybe"], r"option kou_kou_fan: expected true or false .*got 'maybe'"),
    (["kou_kou_fan=2"], "option kou_kou_fan: expected true or false"),
    (["cap=abc"], "option cap: expected a whole number, got 'abc'"),
    (["cap=2.5"], "option cap: expected a whole number"),
    (["cap=true"], "option cap: expected a whole number"),
    (["cap="], "option cap: expected a whole number"),
    (["cap=-5"], "cap"),  # out of range: the variant's own validation
    (["reserve=41"], "reserve must be 0-40"),
    (["cap=200", "cap=300"], "option cap given twice"),
])
def test_jingzhou_refusals(pairs: list[str], match: str) -> None:
    with pytest.raises(OptionsError, match=match):
        parse_options("jingzhou", pairs)


@pytest.mark.parametrize(("variant_id", "pairs", "match"), [
    ("golden", ["priority=first"], "priority must be one of"),
    ("mcr", ["minimum=89"], "minimum must be 0-88"),
    ("huanghuang", ["horses=1,x"], "option horses: expected a whole number, got 'x'"),
    ("huanghuang", ["horses=[true]"], "option horses: expected items that are a whole"),
    ("huanghuang", ["horses=[1,"], "option horses: not a JSON list"),
    ("huanghuang", ["horses=1,1"], "only one horse"),
    ("huanghuang", ["horses=9"], "not a party"),
    ("taiwan", ["tai=full_flush"], "expected KEY:VALUE"),
    ("taiwan", ["tai=full_flush:x"], "option tai: expected a whole number"),
    ("taiwan", ["tai=nope:3"], "unknown 台 key 'nope'"),
    ("taiwan", ["base=-1"], "base"),
    ("nope", ["cap=1"], "unknown variant 'nope'"),
])
def test_refusals_of_other_variants(variant_id: str, pairs: list[str], match: str) -> None:
    with pytest.raises(OptionsError, match=match):
        parse_options(variant_id, pairs)


@pytest.mark.parametrize("command", [["play", "jingzhou", "--auto"],
                                     ["simulate", "jingzhou", "--hands", "1"],
                                     ["arena", "jingzhou", "--hands", "1"]])
@pytest.mark.parametrize(("option", "message"), [
    ("colour=1", "unknown jingzhou option 'colour'; valid options: base, cap"),
    ("kou_kou_fan=maybe", "option kou_kou_fan: expected true or false"),
    ("cap", "expected NAME=VALUE"),
])
def test_every_command_uses_the_one_parser(command: list[str], option: str, message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--option", option]) == 2
    assert message in capsys.readouterr().err
