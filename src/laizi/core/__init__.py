"""laizi.core: the hand's data shared below the engine and the variants.

Melds (:mod:`laizi.core.melds`) and hand records with the win kinds
(:mod:`laizi.core.records`) import nothing of the engine, the variants or the table, so
both the engine and every variant build on them without importing each other.
"""
