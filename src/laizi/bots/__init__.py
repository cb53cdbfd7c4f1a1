"""laizi.bots."""
