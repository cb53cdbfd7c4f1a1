"""``model``: a trained policy network (:mod:`laizi.learn`) at a seat.

``model:PATH`` (or ``model:path=PATH``) seats the network saved by ``laizi train`` in
``PATH`` (a ``.npz``: the weights, and a JSON header saying what they were trained for);
``model:NAME`` without a file of that name seats a model shipped with laizi
(``laizi/bots/models/NAME.npz``: ``model:mcr-greedy``, its README says how it was made).
The bot encodes its view as the environments do (:func:`laizi.env.encoding.encode_view`
and the legal-action mask), and plays the legal action the network scores highest: the
same view always gets the same answer, whatever the seed. It needs numpy (laizi's ``rl``
extra), never torch. A file saved for another variant, another observation or action
encoding, or by another format version is refused with :class:`ModelFileError` before
anything is played (docs/bots.md, "A trained baseline")."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from laizi.bots.protocol import View
from laizi.bots.registry import BotSpecError
from laizi.engine.actions import Action

if TYPE_CHECKING:
    from laizi.learn.mlp import Network

__all__ = ["FORMAT", "FORMAT_VERSION", "ModelBot", "ModelFileError", "load_model",
           "save_model"]

FORMAT = "laizi.model"
FORMAT_VERSION = 1
"""Bumped whenever what the weights mean changes (their inputs, layers or outputs)."""

_INPUTS = "encode_view+legal_mask"
"""What a row of input holds (:func:`laizi.learn.data.features`)."""

MODELS = Path(__file__).with_name("models")
"""Where the shipped models are (``model:NAME``)."""

_CACHE: dict[tuple[str, int, int], tuple[Network, dict[str, object]]] = {}
"""Loaded models by (file, modification time, size): an arena builds a fresh bot for
every hand, and reading the weights again each time would cost more than the hand."""


class ModelFileError(BotSpecError):
    """A model file that cannot be played: missing, not a laizi model, damaged, or made
    for another variant or encoding than this laizi's."""


def _expected() -> dict[str, object]:
    from laizi.env.encoding import NUM_ACTIONS, OBS_SHAPE

    return {"format": FORMAT, "format_version": FORMAT_VERSION, "inputs": _INPUTS,
            "obs_version": 0, "obs_shape": list(OBS_SHAPE), "num_actions": NUM_ACTIONS}


def save_model(path: Path, net: Network, variant: str,
               training: Mapping[str, object] | None = None) -> dict[str, object]:
    """Write ``net`` for ``variant`` to ``path`` (a compressed ``.npz``); its header."""
    import numpy as np

    head: dict[str, object] = {**_expected(), "variant": variant, "layers": net.sizes,
                               "activation": "relu", "training": dict(training or {})}
    arrays = {"header": np.array(json.dumps(head, ensure_ascii=False))}
    for i, (w, b) in enumerate(net.weights):
        arrays[f"w{i}"] = w.astype(np.float32)
        arrays[f"b{i}"] = b.astype(np.float32)
    with path.open("wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]
    return head


def _check_header(head: dict[str, object], where: str, variant: str | None) -> None:
    if head.get("format") != FORMAT:
        raise ModelFileError(f"{where} is not a laizi model (no {FORMAT!r} header)")
    for key, value in _expected().items():
        if head.get(key) != value:
            raise ModelFileError(f"{where} was saved with {key} {head.get(key)!r}; this laizi "
                                 f"plays {value!r}: train it again with this version")
    if variant is not None and head.get("variant") != variant:
        raise ModelFileError(f"{where} was trained for {head.get('variant')!r}, "
                             f"not {variant!r}")


def load_model(path: str | Path, variant: str | None = None
               ) -> tuple[Network, dict[str, object]]:
    """The network in ``path`` (a file, or the name of a shipped model) and its header;
    :class:`ModelFileError` if it cannot be played (or, with ``variant``, was trained for
    another variant)."""
    try:
        import numpy as np
    except ModuleNotFoundError:
        raise ModelFileError("bot 'model' needs numpy: pip install 'laizi[rl]'") from None

    from laizi.learn.mlp import Network

    file = Path(path)
    shipped = MODELS / f"{path}.npz"
    if not file.exists() and "/" not in str(path) and shipped.is_file():
        file = shipped
    try:
        stat = file.stat()
    except OSError as exc:
        raise ModelFileError(f"no model file {str(path)!r} ({exc.strerror})") from None
    key = (str(file.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _CACHE:
        try:
            with np.load(file, allow_pickle=False) as z:
                head = json.loads(str(z["header"]))
                if not isinstance(head, dict):
                    raise ValueError("the header is not an object")
                _check_header(head, repr(str(path)), None)
                layers = len(head["layers"]) - 1
                net = Network([(z[f"w{i}"], z[f"b{i}"]) for i in range(layers)])
        except ModelFileError:
            raise
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:
            raise ModelFileError(f"{str(path)!r} is not a readable laizi model "
                                 f"({type(exc).__name__}: {exc})") from None
        if net.sizes != head["layers"]:
            raise ModelFileError(f"{str(path)!r}: weights of {net.sizes}, header says "
                                 f"{head['layers']}")
        _CACHE[key] = (net, head)
    net, head = _CACHE[key]
    _check_header(head, repr(str(path)), variant)
    return net, head


class ModelBot:
    """Plays the legal action its network scores highest (ties: the lowest index)."""

    name = "model"

    def __init__(self, seed: int = 0, *, path: str = "") -> None:
        if not path:
            raise ModelFileError("bot 'model' needs a file: model:PATH")
        self.path = path
        self.net, self.header = load_model(path)
        self.variant = str(self.header["variant"])

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        import numpy as np

        from laizi.env.encoding import action_mask, encode_view, legal_by_index
        from laizi.learn.data import features

        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if view.get("variant", self.variant) != self.variant:
            raise ModelFileError(f"model {self.path!r} was trained for {self.variant!r}, "
                                 f"not {view.get('variant')!r}")
        mask = action_mask(legal_actions).astype(np.bool_)[None, :]
        logits = self.net.logits(features(encode_view(view)[None], mask))[0]
        scores = np.where(mask[0], logits, -np.inf)
        return legal_by_index(legal_actions)[int(scores.argmax())]
