"""laizi.env."""
