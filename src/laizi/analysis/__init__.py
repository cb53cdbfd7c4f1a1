"""Variant-free hand analysis: win, decompositions, waits, shanten (with wildcards)."""
