"""laizi.core: the hand's data shared below the engine and the variants.

Melds (:mod:`laizi.core.melds`), hand records with the win kinds
(:mod:`laizi.core.records`) and the variants' descriptors for clients
(:mod:`laizi.core.descriptors`) import nothing of the engine, the variants or the table, so
both the engine and every variant build on them without importing each other.
"""
