# Seconds of one self-play generation (training.gumbel.self_play) from a shipped hard's network, with the
# settings of the game's training config but 256 boards and games; run once per code version (PYTHONPATH).
# OPENBLAS_NUM_THREADS=1 PYTHONPATH=<checkout> python results/2026-11-tree-search/selfplay_time.py GAME [--json F]
import argparse
import json
import time

from policies import shipped_path
from training.config import load_config
from training.gumbel import Settings, self_play

parser = argparse.ArgumentParser()
parser.add_argument("game")
parser.add_argument("--json")
args = parser.parse_args()
section = dict(load_config(args.game).get("gumbel", {}))
section.update(boards=256, games=256, eval_every=0)
settings = Settings.from_config(section)
start = time.process_time()
arrays, finished = self_play(args.game, {}, shipped_path(args.game), settings, seed=0)
seconds = time.process_time() - start
rows = len(arrays["value"])
print(f"{args.game}: {finished} games, {rows} positions recorded, {seconds:.1f} s of CPU")
if args.json:
    with open(args.json, "w") as f:
        json.dump({"game": args.game, "games": finished, "positions": rows, "cpu_seconds": seconds}, f)
