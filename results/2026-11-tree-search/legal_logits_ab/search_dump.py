# Usage: cd <checkout> && OPENBLAS_NUM_THREADS=1 PYTHONPATH=<checkout> python search_dump.py OUT.npz [compiled]
# Dump the tree search's results on fixed positions (shipped networks), for a before/after bit-identity check.
import sys

import numpy as np

from envs.core.tree_search import TreeSearch
from policies import shipped_path
from policies.gumbel import evaluator
from policies.numpy_policy import NumpyPolicy
from scripts.bench import search_positions

out = {}
GAMES = [("swival", {}), ("twirls", {}), ("swimming", {}), ("swahili", {}), ("swahili", {"num_players": 4})]
for name, params in GAMES + [("swish", {}), ("squeeze", {})]:
    batch = search_positions(name, params, 64, seed=3)
    policy = NumpyPolicy(shipped_path(name, **params), game=name, params=params)
    kwargs = {"compiled_head": True} if len(sys.argv) > 2 else {}
    for wins in (False, True):
        evaluate = evaluator(policy, batch.num_players, **kwargs)
        search = TreeSearch(batch, evaluate, trees=64, simulations=24, leaf_wins=wins, seed=5)
        live = np.flatnonzero(~batch.over)
        for g in (True, False):
            r = search.run(batch, live, gumbel=g)
            key = f"{name}{params.get('num_players', '')}_{wins}_{g}"
            for f in ("action", "policy", "value", "visits"):
                out[f"{key}_{f}"] = getattr(r, f)
    print(name, "done", flush=True)
np.savez(sys.argv[1], **out)
