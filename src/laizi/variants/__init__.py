"""laizi.variants."""
