"""cProfile of the engine's tree search with the shipped network, 1024 trees, 16 simulations (the bench's
"tree N=1024" row). OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD python results/2026-11-tree-search/profile_tree.py GAME"""

import cProfile
import pstats
import sys

from scripts.bench import search_simulations_per_second

name = sys.argv[1]
search_simulations_per_second(name, {}, 1024, 2.0)  # compiles and warms
cProfile.run("print(search_simulations_per_second(name, {}, 1024, 8.0))", "/tmp/tree.prof")
pstats.Stats("/tmp/tree.prof").sort_stats("tottime").print_stats(22)
