"""赖子麻将 · 黄金麻将 (``golden``): 144 tiles, an indicator and a wild golden tile
(黄金牌), the 81-fan table, 8 fan to win, payments doubled for opened hands and kongs.

See ``docs/rules/golden.md``; the shared machinery is in :mod:`laizi.variants._gb_variant`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from laizi.core.descriptors import Presentation, Wildcard
from laizi.core.jsondata import JSON
from laizi.core.melds import ADDED_KONG, CONCEALED_KONG, KONG
from laizi.core.melds import Meld as EngineMeld
from laizi.core.records import DISCARD_WIN
from laizi.scoring.mcr import FanResult, seed_kong_fans
from laizi.variants._gb_scoring import mcr_melds, minimum_refusal
from laizi.variants._gb_variant import GB_FACTS, GBVariant
from laizi.variants.rule_options import GoldenOptions

if TYPE_CHECKING:
    from laizi.core.records import HandRecord
    from laizi.engine.state import HandState

__all__ = ["VARIANT", "Golden", "GoldenOptions"]


def _one_of_each_kong(melds: Sequence[EngineMeld]) -> bool:
    """Exactly two kongs, one concealed and one melded (直杠 or 蓄杠): 明暗杠's melds."""
    concealed = sum(1 for m in melds if m.kind == CONCEALED_KONG)
    melded = sum(1 for m in melds if m.kind in (KONG, ADDED_KONG))
    return concealed == 1 and melded == 1


class Golden(GBVariant):
    """赖子麻将 · 黄金麻将.

    The calculator and the engine's shared tables (scored records, verdicts) count 明暗杠,
    as ``mcr`` does; with the seed's kong fans (the default) the results are turned into
    暗杠 + 明杠 here, which is exact (:func:`laizi.scoring.mcr.seed_kong_fans`).
    """

    id = "golden"
    name = "赖子麻将 · 黄金麻将"
    golden = True
    options_type = GoldenOptions
    presentation = Presentation(
        order=2, wildcard=Wildcard("金", ("黄金牌", "golden tile"), ("翻牌", "indicator")),
        facts=GB_FACTS)

    def _score(self, record: HandRecord) -> FanResult:
        result = super()._score(record)
        if getattr(record.options, "concealed_and_melded_kong", False):
            return result
        return seed_kong_fans(result, mcr_melds(record.seats[record.winners[0]].melds))

    @staticmethod
    def _judge(game: HandState, seat: int, tile: int, how: str, extra: JSON
               ) -> FanResult:
        result = GBVariant._judge(game, seat, tile, how, extra)
        if getattr(game.options, "concealed_and_melded_kong", False):
            return result
        return seed_kong_fans(result, mcr_melds(game.melds[seat]))

    def win_refusal(self, game: HandState, seat: int, tile: int, how: str) -> str | None:
        why = super().win_refusal(game, seat, tile, how)
        if not _one_of_each_kong(game.melds[seat]) or (how == DISCARD_WIN
                                                       and tile == game.wildcard):
            return why
        # The verdict table the engine keeps is shared by every golden table of the
        # process and keyed without this option: a seat holding one concealed and one
        # melded kong (the only hands it changes) is judged again.
        result = self._judge(game, seat, tile, how,
                             self._extra(game, how, tile, in_pool=how == DISCARD_WIN))
        if not result.is_win:
            return why
        return minimum_refusal(result, game.options.minimum)


VARIANT = Golden()
