"""Learning from exported decisions (docs/bots.md, "A trained baseline"): a small policy
network trained with numpy alone on ``laizi export`` data (:mod:`laizi.learn.data`,
:mod:`laizi.learn.mlp`), played by the ``model:`` bot (:mod:`laizi.bots.model`).

numpy is not a core dependency of laizi (it comes with the ``rl`` extra): these modules
import it when they run, never when laizi starts."""
