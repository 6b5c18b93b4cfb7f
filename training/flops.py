"""FLOPs of one forward pass of each game's search network, plain head against factored head (counted, not timed).

``python -m training.flops`` reads every config in ``training/configs/`` and
prints, per config, the multiply-adds of the network its ``gumbel`` section
builds (:class:`training.network.Network`; a config without the section: the
settings' defaults) for one observation: the board convolution (with
``conv_layers``, or for each board game at ``--conv``'s size beside its own
head), the policy tower, the action head and the value tower,
with the plain head and, where the game declares an action layout, the
factored head at each ``--ranks``. FLOPs are twice the multiply-adds. The
config's own head is marked ``*``. Nothing here imports torch; nothing is
timed.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from envs.registry import make_raw
from policies import flops

CONFIGS = Path(__file__).parent / "configs"
DEFAULT_HIDDEN, DEFAULT_RANK, DEFAULT_CHANNELS = (128, 128), 8, 16  # training.gumbel.Settings' (it imports torch)


@dataclass(frozen=True)
class Row:
    config: str
    name: str  # the game's registry name
    observations: int
    actions: int
    hidden: tuple[int, ...]
    head: str  # "plain" or "factored r=<rank>"
    mine: bool  # the config's own head
    counts: dict[str, int]


def config_rows(path: Path, ranks: Sequence[int], extra_conv: tuple[int, int] | None = None) -> list[Row]:
    """The rows of one config: its network with the plain head and with the factored head at each rank; with
    ``extra_conv`` (layers, channels) and a game that declares a board graph, one more row: the config's own
    head with that board convolution (unless the config has one)."""
    config = json.loads(path.read_text())
    name, params, section = config["game"], config.get("params") or {}, config.get("gumbel") or {}
    hidden, rank = tuple(section.get("hidden", DEFAULT_HIDDEN)), section.get("rank", DEFAULT_RANK)
    own = section.get("head", "plain")
    raw = make_raw(name, **params)
    observations = int(type(raw).observation_shape(raw.game)[0])
    actions, layout = raw.game.num_actions, type(raw).action_layout(raw.game)
    graph, conv = type(raw).board_graph(raw.game), None
    if section.get("conv_layers"):
        conv = (graph, section["conv_layers"], section.get("conv_channels", DEFAULT_CHANNELS))

    def row(head: str, mine: bool, counts: dict[str, int]) -> Row:
        return Row(path.stem, name, observations, actions, hidden, head, mine, counts)

    rows = [row("plain", own == "plain", flops.network(observations, hidden, actions, conv=conv))]
    if layout is not None:
        for r in sorted({*ranks, rank} if own == "factored" else set(ranks)):
            counts = flops.network(observations, hidden, actions, layout, r, conv)
            rows.append(row(f"factored r={r}", own == "factored" and r == rank, counts))
    if extra_conv is not None and graph is not None and conv is None:
        mine = next(r for r in rows if r.mine)
        counts = flops.network(observations, hidden, actions, layout if own == "factored" else None, rank,
                               (graph, *extra_conv))  # fmt: skip
        rows.append(row(f"{mine.head} + conv {extra_conv[0]}x{extra_conv[1]}", False, counts))
    return rows


def table(rows: list[Row]) -> str:
    """The rows as a markdown table (thousands of multiply-adds; MFLOP = 2 x multiply-adds / 1e6)."""
    lines = [
        "| config | obs | actions | hidden | head | board conv | policy tower | action head | value tower | total "
        "| MFLOP | vs plain |",
        "|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    plain = {r.config: r.counts["total"] for r in rows if r.head == "plain"}
    for r in rows:
        c = r.counts
        lines.append(
            f"| {r.config} | {r.observations} | {r.actions} | {'x'.join(map(str, r.hidden))} | "
            f"{r.head}{' *' if r.mine else ''} | {c.get('board conv', 0) / 1e3:.1f}k | "
            f"{c['policy tower'] / 1e3:.1f}k | {c['action head'] / 1e3:.1f}k | "
            f"{c['value tower'] / 1e3:.1f}k | {c['total'] / 1e3:.1f}k | {2 * c['total'] / 1e6:.3f} | "
            f"{c['total'] / plain[r.config]:.2f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.flops", description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranks", type=int, nargs="+", default=[4, 8, 16], help="factored-head ranks to count")
    parser.add_argument("--configs", type=Path, default=CONFIGS, help="folder of training configs")
    parser.add_argument(
        "--conv", type=int, nargs=2, metavar=("LAYERS", "CHANNELS"), default=[2, 16],
        help="also count each board game's own head with a board convolution of this size",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if min(args.conv) < 1 or min(args.ranks) < 1:
        parser.error(f"--conv and --ranks take whole numbers >= 1, got --conv {args.conv} --ranks {args.ranks}")
    extra = tuple(args.conv)
    rows = [row for path in sorted(args.configs.glob("*.json")) for row in config_rows(path, args.ranks, extra)]
    print("Multiply-adds of one forward pass, one observation (k = thousands); MFLOP = 2 x multiply-adds.")
    print(table(rows))


if __name__ == "__main__":
    main()


__all__ = ["Row", "config_rows", "main", "table"]
