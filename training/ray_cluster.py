"""Where a training run's Ray lives: the ``--address`` values and the one way this project starts or joins Ray.

``--address`` takes ``auto`` (the cluster already running that ``ray start``
left on this machine, or ``RAY_ADDRESS``), ``local`` (a Ray started here for the
run, one CPU a core) or ``HOST:PORT`` (a cluster's head node, e.g.
``10.0.0.5:6379``). This module never imports Ray at its top: Ray is not in the
main virtualenv (it pins its own gymnasium; see the Makefile's ``.venv-rllib``),
and nothing runs Ray without an address.
"""

from __future__ import annotations

import os
import re

ADDRESS_HELP = "auto (a running cluster), local (Ray started here) or HOST:PORT (a cluster's head, e.g. 10.0.0.5:6379)"
RAY_EXTRA = "pip install -e '.[rllib]' (from a clone, in a virtualenv of its own: make test-rllib makes .venv-rllib)"
_HOST_PORT = re.compile(r"^[A-Za-z0-9._-]+:(\d{1,5})$")


def check_address(address: str) -> str:
    """``address`` if it is one of ``--address``'s forms; a ValueError naming them otherwise."""
    if isinstance(address, str) and address in ("auto", "local"):
        return address
    match = _HOST_PORT.match(address) if isinstance(address, str) else None
    if match is None or not 1 <= int(match.group(1)) <= 65535:
        raise ValueError(f"not a Ray address: {address!r}; give {ADDRESS_HELP}")
    return address


def start_ray(address: str | None = None, num_cpus: int | None = None) -> int:
    """Start Ray on this machine (``address`` None or ``local``, ``num_cpus`` CPUs, default one a core) or join
    the running cluster at ``address``; returns the CPUs the cluster has. A Ray this process already runs is
    kept. An ImportError that names the extra where Ray is not installed."""
    if address is not None:
        check_address(address)
    try:
        import ray  # Ray is in .venv-rllib only: loaded when a run on Ray starts
    except ModuleNotFoundError as err:
        raise ImportError(f"--address needs Ray, which is not installed here; install it with: {RAY_EXTRA}") from err

    if not ray.is_initialized():
        os.environ.setdefault("RAY_DEDUP_LOGS", "1")
        if address and address != "local":
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=num_cpus or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False)
    return int(ray.cluster_resources().get("CPU", 1))


__all__ = ["ADDRESS_HELP", "RAY_EXTRA", "check_address", "start_ray"]
