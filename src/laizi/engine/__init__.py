"""laizi.engine."""
