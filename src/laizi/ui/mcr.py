"""The display hooks of ``laizi play mcr``: the 81-fan ones (:mod:`laizi.ui.gb`)."""

from laizi.ui.gb import DISPLAY

__all__ = ["DISPLAY"]
