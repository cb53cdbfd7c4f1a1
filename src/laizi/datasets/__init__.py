"""Datasets in and out (docs/datasets.md): the decisions of simulated or recorded matches
as JSON lines (:mod:`laizi.datasets.decisions`), and MCR matches in the Botzone log format
and back (:mod:`laizi.datasets.botzone_log`)."""
