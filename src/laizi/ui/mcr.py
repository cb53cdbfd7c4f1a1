"""Loaded by ``laizi play mcr``: registers the 81-fan front end (:mod:`laizi.ui.gb`)."""

from laizi.ui.gb import register

register()
