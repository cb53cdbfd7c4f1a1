"""laizi.table."""
