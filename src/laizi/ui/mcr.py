"""The display hooks of ``laizi play mcr``: the 81-fan ones (:mod:`laizi.ui.gb`) with
MCR's own rules for ``?``."""

from laizi.ui.gb import MCR_RULES, GBDisplay

__all__ = ["DISPLAY"]

DISPLAY = GBDisplay(MCR_RULES)
