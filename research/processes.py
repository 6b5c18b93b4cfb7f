"""One way for the studies to spread independent jobs over processes."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable
from typing import Any


def run_jobs(
    function: Callable[[Any], Any],
    tasks: Iterable[Any],
    jobs: int,
    on_result: Callable[[int, Any], None] | None = None,
    chunksize: int = 1,
) -> list[Any]:
    """``function(task)`` for every task, in the tasks' order, over ``jobs`` spawned processes (in this one when
    ``jobs`` is 1). ``on_result(done, result)`` sees each result as it arrives, with how many are done (for
    progress lines). ``function`` must be a module-level function, so that spawned processes can import it."""
    results: list[Any] = []

    def keep(result: Any) -> None:
        results.append(result)
        if on_result is not None:
            on_result(len(results), result)

    if jobs == 1:
        for task in tasks:
            keep(function(task))
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for result in pool.imap(function, tasks, chunksize=chunksize):
                keep(result)
    return results
