"""laizi.scoring."""
