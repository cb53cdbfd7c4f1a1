"""Decisions (schema ``laizi.decisions``, docs/datasets.md) as training arrays.

A decision becomes one input row: its observation (18 × 34, flattened) followed by its
legal-action mask (318 zeros and ones), so that the network sees which answers are
possible (a claim window, a kong, a win) besides the tiles. The label is the index of
the action taken; the mask also limits the softmax to legal actions (:mod:`laizi.learn.mlp`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from laizi.core.jsondata import JSON
from laizi.datasets.decisions import SCHEMA, SCHEMA_VERSION
from laizi.env.encoding import NUM_ACTIONS, OBS_SHAPE

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["OBS_SIZE", "Dataset", "DatasetError", "features", "load", "read_lines"]

OBS_SIZE = OBS_SHAPE[0] * OBS_SHAPE[1]
"""The observation's numbers in an input row (the legal mask follows them)."""


class DatasetError(ValueError):
    """An export that cannot be trained on: not ``laizi.decisions``, another schema
    version or variant, or a line that is not a decision."""


@dataclass(frozen=True, slots=True)
class Dataset:
    """Decisions as arrays, row ``i`` of each the same decision."""

    variant: str
    obs_version: int
    obs: npt.NDArray[np.float16]
    """``(n, 612)`` observations (float16 keeps every value the encoder makes: quarters,
    and fractions rounded to 6 digits lose only what no decision depends on)."""
    mask: npt.NDArray[np.bool_]
    """``(n, 318)`` legal actions."""
    action: npt.NDArray[np.int64]
    """``(n,)`` the index of the action taken."""
    group: npt.NDArray[np.int64]
    """``(n,)`` the hand a decision belongs to (file, match): held-out decisions are
    taken by whole hands, so no hand is both trained on and tested on."""
    phase: list[str]

    def __len__(self) -> int:
        return len(self.action)

    def take(self, rows: npt.NDArray[np.int64]) -> Dataset:
        return Dataset(self.variant, self.obs_version, self.obs[rows], self.mask[rows],
                       self.action[rows], self.group[rows], [self.phase[i] for i in rows])


def features(obs: npt.NDArray[np.floating], mask: npt.NDArray[np.bool_]
             ) -> npt.NDArray[np.float32]:
    """The network's input rows: observations (flattened) then legal masks."""
    import numpy as np

    flat = obs.reshape(len(obs), -1).astype(np.float32)
    return np.concatenate([flat, mask.astype(np.float32)], axis=1)


def read_lines(path: Path) -> Iterator[str]:
    """The non-empty lines of an export (``-`` is not accepted: training reads twice)."""
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield line


def _header(line: str, where: str, variant: str | None) -> dict[str, object]:
    try:
        head = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{where}: the first line is not JSON ({exc})") from None
    if not isinstance(head, dict) or head.get("schema") != SCHEMA:
        raise DatasetError(f"{where}: not a {SCHEMA} export (write one with laizi export)")
    if head.get("version") != SCHEMA_VERSION:
        raise DatasetError(f"{where}: schema version {head.get('version')!r}, this laizi "
                           f"reads {SCHEMA_VERSION}")
    if head.get("num_actions") != NUM_ACTIONS or head.get("obs_shape") != list(OBS_SHAPE):
        raise DatasetError(f"{where}: observation {head.get('obs_shape')} / "
                           f"{head.get('num_actions')} actions, this laizi encodes "
                           f"{list(OBS_SHAPE)} / {NUM_ACTIONS}")
    if variant is not None and head.get("variant") != variant:
        raise DatasetError(f"{where}: decisions of {head.get('variant')!r}, not {variant!r}")
    return head


def load(paths: Sequence[Path], limit: int | None = None) -> Dataset:
    """Every decision of the exports ``paths`` (all of one variant and observation
    version), or the first ``limit``."""
    import numpy as np

    variant: str | None = None
    obs_version = 0
    obs: list[npt.NDArray[np.float16]] = []
    legal: list[list[int]] = []
    actions: list[int] = []
    groups: list[int] = []
    phases: list[str] = []
    hands: dict[tuple[int, int, int], int] = {}
    for fileno, path in enumerate(paths):
        lines = read_lines(path)
        first = next(lines, None)
        if first is None:
            raise DatasetError(f"{path}: empty")
        head = _header(first, str(path), variant)
        variant = str(head["variant"])
        obs_version = int(str(head.get("obs_version", 0)))
        for no, step in _decisions(lines, str(path)):
            if int(step["action"]) not in step["legal"]:
                raise DatasetError(f"{path} line {no}: the action is not among the legal")
            key = (fileno, int(step["match"]), int(step["hand"]))
            groups.append(hands.setdefault(key, len(hands)))
            # one row at a time: a list of a whole export's floats would be gigabytes
            obs.append(np.asarray(step["obs"], dtype=np.float16).reshape(OBS_SIZE))
            legal.append(step["legal"])
            actions.append(int(step["action"]))
            phases.append(str(step["phase"]))
            if limit is not None and len(actions) >= limit:
                break
    if variant is None or not actions:
        raise DatasetError("no decisions to train on")
    mask = np.zeros((len(legal), NUM_ACTIONS), dtype=np.bool_)
    for i, row in enumerate(legal):
        mask[i, row] = True
    return Dataset(variant, obs_version,
                   np.stack(obs), mask,
                   np.asarray(actions, dtype=np.int64), np.asarray(groups, dtype=np.int64),
                   phases)


def _decisions(lines: Iterable[str], where: str) -> Iterator[tuple[int, JSON]]:
    for no, line in enumerate(lines, 2):
        try:
            step = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{where} line {no}: not JSON ({exc})") from None
        if not isinstance(step, dict) or not {"obs", "legal", "action"} <= step.keys():
            raise DatasetError(f"{where} line {no}: not a decision")
        yield no, step
