"""Rendering summaries: rich tables for the terminal and a matplotlib figure (extra
``plot``)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from laizi.sim.results import HandResult, Summary

__all__ = ["plot_summary", "print_arena", "print_bridge", "print_summary"]


def label(spec: str) -> str:
    """A bot spec as the tables show it: an outside program's command with its paths
    cut to their last part (``botzone:keep=1:cmd=python stub.py``); ``--json`` keeps
    the spec whole."""
    head, sep, cmd = spec.partition(":cmd=")
    if not sep:
        return spec
    return f"{head}{sep}" + " ".join(w.rsplit("/", 1)[-1] for w in cmd.split(" "))


def _pm(mean: float, ci: float) -> str:
    return f"{mean:+.2f} ± {ci:.2f}"


def bot_table(summary: Summary, title: str) -> Table:
    t = Table(title=title)
    for col in ("bot", "hands", "points/hand (95% CI)", "sd", "win rate", "deal-in rate"):
        t.add_column(col, justify="left" if col == "bot" else "right",
                     overflow="fold", no_wrap=col != "bot")
    for b in summary["per_bot"]:
        t.add_row(label(b["bot"]), str(b["hands"]), _pm(b["mean"], b["ci95"]), f"{b['sd']:.1f}",
                  f"{b['win_rate']:.1%}", f"{b['deal_in_rate']:.1%}")
    return t


def print_bridge(summary: Summary, console: Console) -> None:
    """The outside programs' protocol record (the Botzone bridge), if any played."""
    rows = summary.get("bridge") or []
    if not rows:
        return
    t = Table(title="outside programs (Botzone protocol)")
    for col in ("bot", "hands", "requests", "protocol errors", "fallbacks", "median ms",
                "p99 ms"):
        t.add_column(col, justify="left" if col == "bot" else "right", overflow="fold",
                     no_wrap=col != "bot")
    for b in rows:
        kinds = ", ".join(f"{k} {v}" for k, v in b["error_kinds"].items())
        t.add_row(label(b["bot"]), str(b["hands"]), str(b["requests"]),
                  f"{b['errors']}" + (f" ({kinds})" if kinds else ""), str(b["fallbacks"]),
                  f"{b['median_ms']:.1f}", f"{b['p99_ms']:.1f}")
    console.print(t)


def _wrong_wins(summary: Summary) -> str:
    """The share of hands a 错和 ended (MCR profile=botzone), when there were any."""
    rate = summary.get("wrong_win_rate")
    return "" if rate is None else f", 错和 (wrong wins) {rate:.1%}"


def print_arena(summary: Summary, console: Console) -> None:
    console.print(bot_table(
        summary, f"arena {summary['variant']}: {summary['hands']} hands "
                 f"({summary['seeds']} seeds × {summary['seats']} rotations)"))
    console.print(f"wins {summary['win_rate']:.1%}, draws {summary['draw_rate']:.1%}"
                  + _wrong_wins(summary) + "; intervals over seeds (duplicate groups)"
                  + ("; per-seat draw streams" if summary.get("streams") else ""))
    print_bridge(summary, console)


def print_summary(summary: Summary, console: Console, top: int = 25) -> None:
    console.print(f"[bold]{summary['variant']}[/]: {summary['hands']} hands, "
                  f"win rate {summary['win_rate']:.1%}, draw rate {summary['draw_rate']:.1%}"
                  + _wrong_wins(summary) + ", "
                  f"mean length {summary['mean_actions']:.1f} actions"
                  + (f" ({summary['mean_choices']:.1f} with a choice)"
                     if "mean_choices" in summary else "")
                  + f" / {summary['mean_turns']:.1f} turns")
    hows = ", ".join(f"{k} {v:.1%}" for k, v in summary["how"].items())
    if hows:
        console.print(f"wins by: {hows}")
    seats = Table(title="per seat")
    for col in ("seat", "bot", "mean", "sd", "95% CI", "win rate", "deal-in rate"):
        seats.add_column(col, justify="right")
    lineup: Sequence[str] = summary.get("bots", [])
    for s in summary["per_seat"]:
        seats.add_row(str(s["seat"]), label(lineup[s["seat"]]) if s["seat"] < len(lineup) else "",
                      f"{s['mean']:+.2f}", f"{s['sd']:.1f}", f"± {s['ci95']:.2f}",
                      f"{s['win_rate']:.1%}", f"{s['deal_in_rate']:.1%}")
    console.print(seats)
    console.print(bot_table(summary, "per bot"))
    print_bridge(summary, console)
    items = Table(title="hand types / fan / 台 items (from the settlements' reason codes)")
    for col in ("item", "wins with it", "share of wins"):
        items.add_column(col, justify="left" if col == "item" else "right")
    for name, d in list(summary["items"].items())[:top]:
        items.add_row(name, str(d["count"]), f"{d['per_win']:.1%}")
    console.print(items)


def english_item_name(name: str) -> str:
    """An English label for a settlement item (MCR fan, Taiwan 台 item or Jingzhou term):
    :func:`laizi.reasons.english_term`."""
    from laizi.reasons import english_term

    return english_term(name)


def plot_summary(summary: Summary, results: Sequence[HandResult], path: str,
                 top: int = 20) -> None:
    """Write a PNG: points distribution per bot and hand-type frequencies."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'laizi[plot]'") from None
    # CJK labels: use a font that has them if one is installed, else keep the default.
    from matplotlib import font_manager

    cjk = False
    for family in ("Noto Sans CJK SC", "Noto Sans CJK JP", "WenQuanYi Zen Hei",
                   "SimHei", "Microsoft YaHei", "AR PL UMing CN"):
        if any(f.name == family for f in font_manager.fontManager.ttflist):
            plt.rcParams["font.family"] = family
            cjk = True
            break
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
    per_bot: dict[str, list[float]] = {}
    for r in results:
        for s, v in enumerate(r["net"]):
            per_bot.setdefault(r["bots"][s], []).append(float(v))
    for bot, vals in sorted(per_bot.items()):
        ax1.hist(vals, bins=40, alpha=0.55, label=f"{bot} (mean {sum(vals) / len(vals):+.1f})")
    ax1.set_title(f"{summary['variant']}: points per hand")
    ax1.set_xlabel("points")
    ax1.set_ylabel("hands")
    ax1.legend()
    names = list(summary["items"])[:top]
    shares = [summary["items"][k]["per_win"] for k in names]
    # Without a CJK font Chinese names would draw as boxes: label in English instead.
    labels = names if cjk else [english_item_name(n) for n in names]
    ax2.barh(labels[::-1], shares[::-1])
    ax2.set_title("hand types / items: share of wins")
    ax2.set_xlabel("share of wins")
    import warnings

    with warnings.catch_warnings():
        # Without a CJK font the Chinese item names draw as boxes; say it once, not per glyph.
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
    plt.close(fig)
