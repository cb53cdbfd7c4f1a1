"""``laizi train DATA…``: a small policy network trained on ``laizi export`` decisions.

    laizi export mcr --hands 2000 --bots greedy -o mcr.jsonl
    laizi train mcr.jsonl -o mcr.npz
    laizi arena mcr --bots model:mcr.npz,greedy --hands 2000

numpy only (laizi's ``rl`` extra): no torch, on the CPU. Whole hands are held out to
measure how often the network chooses what its teacher chose (docs/bots.md, "A trained
baseline")."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from laizi.commands import Subparsers

__all__ = ["register", "run"]

EXAMPLES = """examples (a taste: the shipped model took 2,000 hands and 8 epochs, docs/bots.md):
  laizi export mcr --hands 4 --bots greedy -o mcr.jsonl
  laizi train mcr.jsonl -o mcr.npz --epochs 2
  laizi arena mcr --bots model:mcr.npz,greedy --hands 4
"""


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "train", help="train a policy network on exported decisions (numpy, CPU)",
        description="Train a small policy network (numpy only) to choose what the "
                    "exported decisions chose, and save it for the 'model:PATH' bot.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", nargs="+", metavar="DATA",
                   help="decision exports of one variant (laizi export)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="where to save the model (.npz)")
    p.add_argument("--hidden", default="256,256",
                   help="hidden layer sizes, comma-separated (default 256,256)")
    p.add_argument("--epochs", type=int, default=20, help="passes over the data (default 20)")
    p.add_argument("--batch", type=int, default=256, help="minibatch size (default 256)")
    p.add_argument("--lr", type=float, default=1e-3,
                   help="Adam's first learning rate (default 1e-3), falling to a tenth")
    p.add_argument("--seed", type=int, default=0, help="initialisation and order (default 0)")
    p.add_argument("--holdout", type=float, default=0.1,
                   help="share of hands held out to measure accuracy (default 0.1)")
    p.add_argument("--minutes", type=float, default=None,
                   help="stop after the epoch that passes this much CPU time")
    p.add_argument("--limit", type=int, default=None, help="read at most this many decisions")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=run)


def _hidden(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(s) for s in text.split(",") if s.strip())
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise ValueError(f"--hidden {text!r}: expected sizes like 256,256")
    return sizes


def _phase_accuracy(net: object, held: object) -> dict[str, float]:
    """Held-out accuracy per phase (turn: discards and kongs; claim; rob; decide)."""
    import numpy as np

    from laizi.learn.data import Dataset
    from laizi.learn.mlp import Network, accuracy

    assert isinstance(net, Network) and isinstance(held, Dataset)
    out = {}
    phases = np.asarray(held.phase)
    for phase in sorted(set(held.phase)):
        rows = np.flatnonzero(phases == phase)
        out[phase] = round(accuracy(net, held.take(rows))[0], 4)
    return out


def _summary(args: argparse.Namespace) -> dict[str, object]:
    from laizi.bots.model import save_model
    from laizi.learn.data import load
    from laizi.learn.mlp import TrainConfig, accuracy, split, train

    config = TrainConfig(hidden=_hidden(args.hidden), epochs=args.epochs, batch=args.batch,
                         lr=args.lr, lr_end=args.lr / 10, seed=args.seed,
                         holdout=args.holdout, minutes=args.minutes)
    start = time.process_time()
    data = load([Path(p) for p in args.data], args.limit)
    load_s = time.process_time() - start
    fit, held = split(data, config.holdout, config.seed)

    def log(row: dict[str, float]) -> None:
        print(f"epoch {row['epoch']:.0f}: loss {row['loss']:.4f}  lr {row['lr']:.2g}  "
              f"cpu {row['cpu_s']:.0f} s", file=sys.stderr)

    net, history = train(fit, config, log)
    train_acc = accuracy(net, fit.take(fit.group.argsort()[:20000]))[0]
    held_acc, held_loss = accuracy(net, held)
    summary: dict[str, object] = {
        "variant": data.variant, "data": list(args.data), "decisions": len(data),
        "hands": len(set(data.group.tolist())), "trained_on": len(fit),
        "held_out": len(held), "layers": net.sizes, "epochs": len(history),
        "batch": config.batch, "lr": [config.lr, config.lr_end], "seed": config.seed,
        "final_loss": round(history[-1]["loss"], 4), "load_cpu_s": round(load_s, 1),
        "train_cpu_s": round(history[-1]["cpu_s"], 1),
        "train_accuracy": round(train_acc, 4),
        "held_out_accuracy": round(held_acc, 4), "held_out_loss": round(held_loss, 4),
        "held_out_by_phase": _phase_accuracy(net, held) if len(held) else {}}
    save_model(Path(args.output), net, data.variant, summary)
    summary["output"] = args.output
    return summary


def run(args: argparse.Namespace) -> int:
    try:
        import numpy  # noqa: F401
    except ModuleNotFoundError:
        print("laizi train: needs numpy (pip install 'laizi[rl]')", file=sys.stderr)
        return 2
    from laizi.learn.data import DatasetError

    try:
        if args.epochs < 1 or args.batch < 1:
            raise ValueError("--epochs and --batch must be at least 1")
        if not 0 <= args.holdout < 1:
            raise ValueError("--holdout must be in [0, 1)")
        summary = _summary(args)
    except DatasetError as exc:
        print(f"laizi train: REJECTED: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"laizi train: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        print(f"laizi train: {summary['decisions']} decisions of {summary['hands']} hands; "
              f"held-out accuracy {summary['held_out_accuracy']:.1%} against the teacher "
              f"({summary['held_out']} decisions); saved to {args.output}")
    return 0
