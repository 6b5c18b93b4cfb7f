"""Squeeze's hard against medium, 400 games (seed 1) in two processes, kept in a checkpoint of 10-game parts
with every move's wall clock. From the root of a checkout of the code to measure:

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD python series_69a55ea.py PARTS.json
"""

import os
import sys
import time


def main():
    from policies.evaluation import evaluate

    out = sys.argv[1]
    print("load", os.getloadavg(), time.strftime("%H:%M:%S"), flush=True)
    r = evaluate("squeeze", ["hard", "medium"], 400, seed=1, jobs=2, checkpoint=out, setup="random")
    print(r.wins if hasattr(r, "wins") else r, flush=True)
    print("load", os.getloadavg(), time.strftime("%H:%M:%S"), flush=True)


if __name__ == "__main__":
    main()
