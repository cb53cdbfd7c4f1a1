"""A small policy network in numpy: a multilayer perceptron (ReLU hidden layers) whose
output is a softmax over the legal actions only, trained by cross-entropy against the
teacher's choice with Adam on minibatches (docs/bots.md, "A trained baseline").

No torch: training and play need numpy alone, so a trained model plays wherever laizi's
``rl`` extra is installed. Training is deterministic given its seed (one data order,
one initialisation)."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from laizi.learn.data import Dataset, features

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Array = npt.NDArray[np.float32]

__all__ = ["Network", "TrainConfig", "accuracy", "masked_log_softmax", "split", "train"]

_ILLEGAL = -1e9
"""The logit an illegal action gets: its probability is 0 to float precision."""


@dataclass
class Network:
    """Weights ``(W, b)`` per layer; ``W`` is ``(inputs, outputs)``."""

    weights: list[tuple[Array, Array]]

    @classmethod
    def init(cls, sizes: Sequence[int], seed: int) -> Network:
        """He-initialised layers of ``sizes`` (inputs, hidden…, outputs), from ``seed``."""
        import numpy as np

        rng = np.random.default_rng(seed)
        weights = [((rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32),
                    np.zeros(b, dtype=np.float32)) for a, b in itertools.pairwise(sizes)]
        return cls(weights)

    @property
    def sizes(self) -> list[int]:
        return [self.weights[0][0].shape[0], *(w.shape[1] for w, _ in self.weights)]

    def forward(self, x: Array) -> tuple[Array, list[Array]]:
        """The logits of rows ``x`` and every layer's input (for the backward pass)."""
        import numpy as np

        inputs = []
        h = x
        for i, (w, b) in enumerate(self.weights):
            inputs.append(h)
            h = h @ w + b
            if i < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
        return h, inputs

    def logits(self, x: Array) -> Array:
        return self.forward(x)[0]


def masked_log_softmax(logits: Array, mask: npt.NDArray[np.bool_]) -> Array:
    """Log-probabilities over the legal actions (illegal ones get about -1e9)."""
    import numpy as np

    z = np.where(mask, logits, np.float32(_ILLEGAL))
    z = z - z.max(axis=1, keepdims=True)
    out: Array = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return out


def _loss_grads(net: Network, x: Array, mask: npt.NDArray[np.bool_],
                y: npt.NDArray[np.int64]) -> tuple[float, list[tuple[Array, Array]]]:
    """Mean cross-entropy of a minibatch and its gradient for every weight."""
    import numpy as np

    logits, inputs = net.forward(x)
    logp = masked_log_softmax(logits, mask)
    rows = np.arange(len(y))
    loss = float(-logp[rows, y].mean())
    d = np.exp(logp)  # softmax; 0 at illegal actions, so they get no gradient
    d[rows, y] -= 1.0
    d /= len(y)
    grads: list[tuple[Array, Array]] = []
    for i in range(len(net.weights) - 1, -1, -1):
        w, _ = net.weights[i]
        h = inputs[i]
        grads.append((h.T @ d, d.sum(axis=0)))
        if i > 0:
            d = (d @ w.T) * (h > 0)
    grads.reverse()
    return loss, grads


@dataclass
class _Adam:
    lr: float
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    t: int = 0
    moments: list[tuple[Array, Array, Array, Array]] = field(default_factory=list)

    def step(self, net: Network, grads: list[tuple[Array, Array]], lr: float) -> None:
        import numpy as np

        if not self.moments:
            self.moments = [(np.zeros_like(w), np.zeros_like(w), np.zeros_like(b),
                             np.zeros_like(b)) for w, b in net.weights]
        self.t += 1
        c1 = 1.0 - self.beta1 ** self.t
        c2 = 1.0 - self.beta2 ** self.t
        for (w, b), (gw, gb), (mw, vw, mb, vb) in zip(net.weights, grads, self.moments,
                                                      strict=True):
            for p, g, m, v in ((w, gw, mw, vw), (b, gb, mb, vb)):
                m *= self.beta1
                m += (1.0 - self.beta1) * g
                v *= self.beta2
                v += (1.0 - self.beta2) * g * g
                p -= (lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(np.float32)


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """How ``laizi train`` trains (its defaults are the recipe of docs/bots.md)."""

    hidden: tuple[int, ...] = (256, 256)
    epochs: int = 20
    batch: int = 256
    lr: float = 1e-3
    lr_end: float = 1e-4
    """The learning rate falls geometrically from ``lr`` to ``lr_end`` over the epochs."""
    seed: int = 0
    holdout: float = 0.1
    """The share of hands (whole hands) kept out of training to measure accuracy."""
    minutes: float | None = None
    """Stop after the epoch that passes this much CPU time (``None``: every epoch)."""


def split(data: Dataset, holdout: float, seed: int) -> tuple[Dataset, Dataset]:
    """(training, held-out) decisions, the held-out ones whole hands (``holdout`` of
    them, at least one when there are two hands or more)."""
    import numpy as np

    hands = np.unique(data.group)
    rng = np.random.default_rng(seed + 1)
    rng.shuffle(hands)
    n_out = min(len(hands) - 1, max(1, round(holdout * len(hands)))) if holdout > 0 else 0
    out = np.isin(data.group, hands[:n_out])
    return data.take(np.flatnonzero(~out)), data.take(np.flatnonzero(out))


def accuracy(net: Network, data: Dataset, chunk: int = 4096) -> tuple[float, float]:
    """(share of decisions where the network's choice is the teacher's, mean
    cross-entropy) over ``data``."""
    import numpy as np

    if not len(data):
        return math.nan, math.nan
    hits = 0
    loss = 0.0
    for lo in range(0, len(data), chunk):
        x = features(data.obs[lo:lo + chunk], data.mask[lo:lo + chunk])
        logp = masked_log_softmax(net.logits(x), data.mask[lo:lo + chunk])
        y = data.action[lo:lo + chunk]
        hits += int((logp.argmax(axis=1) == y).sum())
        loss -= float(logp[np.arange(len(y)), y].sum())
    return hits / len(data), loss / len(data)


Log = Callable[[dict[str, float]], None]


def train(data: Dataset, config: TrainConfig, log: Log | None = None
          ) -> tuple[Network, list[dict[str, float]]]:
    """A network trained on ``data`` (all of it: split first to hold some out) and the
    figures of each epoch (``epoch``, ``loss``: the mean minibatch loss, ``cpu_s``)."""
    import numpy as np

    rng = np.random.default_rng(config.seed)
    sizes = [data.obs.shape[1] + data.mask.shape[1], *config.hidden, data.mask.shape[1]]
    net = Network.init(sizes, config.seed)
    adam = _Adam(config.lr)
    history: list[dict[str, float]] = []
    start = time.process_time()
    for epoch in range(config.epochs):
        frac = epoch / max(1, config.epochs - 1)
        lr = config.lr * (config.lr_end / config.lr) ** frac
        order = rng.permutation(len(data))
        losses = []
        for lo in range(0, len(order), config.batch):
            rows = order[lo:lo + config.batch]
            x = features(data.obs[rows], data.mask[rows])
            loss, grads = _loss_grads(net, x, data.mask[rows], data.action[rows])
            adam.step(net, grads, lr)
            losses.append(loss)
        row = {"epoch": float(epoch + 1), "loss": float(np.mean(losses)), "lr": lr,
               "cpu_s": time.process_time() - start}
        history.append(row)
        if log is not None:
            log(row)
        if config.minutes is not None and row["cpu_s"] > 60 * config.minutes:
            break
    return net, history
