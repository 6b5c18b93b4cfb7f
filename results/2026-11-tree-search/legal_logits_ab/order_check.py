# The order check of the A/B: the new code's run first, then the old one's, from each checkout's directory:
# cd <checkout> && OPENBLAS_NUM_THREADS=1 PYTHONPATH=<checkout> python order_check.py
import scripts.bench as bench

nodes = bench.search_simulations_per_second
checkout = bench.__file__.split("/scripts")[0].split("/")[-1]
swahili, free = nodes("swahili", {}, 1024, 4), nodes("swahili", {}, 1024, 4, network=False)
print(checkout, "swahili net", round(swahili), "free", round(free), "swival net", round(nodes("swival", {}, 1024, 4)))
