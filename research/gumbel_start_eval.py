"""A Gumbel run's iteration 0 when it starts from a policy file: that file's network alone and with the run's
search, against the run's evaluation opponents, on the evaluation seeds of chosen iterations (``seed = k - 1``
for iteration ``k``), so that the run's curve has the point it starts from.

    python -m research.gumbel_start_eval results/2026-11-gumbel-swish/warm_config.json 10 20
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from training.gumbel import Settings, evaluate, network_from_file, write_network


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", type=Path, help="a training config with a gumbel section that names its start")
    parser.add_argument("iterations", type=int, nargs="+", help="the run's iterations whose evaluation seeds to use")
    args = parser.parse_args()
    config = json.loads(args.config.read_text())
    s = Settings.from_config(config["gumbel"])
    if not s.start:
        parser.error(f"{args.config}: its gumbel section names no start file")
    name, params = config["game"], config.get("params", {})
    net = network_from_file(Path(s.start), name, params)
    search = {"kind": "gumbel", "simulations": s.simulations, "considered": s.considered}
    with tempfile.TemporaryDirectory() as folder:
        path = write_network(net, Path(folder) / "start.npz", name, params, search)
        for k in args.iterations:
            print(f"iteration {k}'s seeds: {evaluate(name, params, path, s, seed=k - 1)}", flush=True)


if __name__ == "__main__":
    main()
