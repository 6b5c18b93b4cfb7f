"""research/processes.py: jobs over processes give the results in the tasks' order, as one process does."""

import pytest

from research.processes import run_jobs


def square(x: int) -> int:
    return x * x


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_in_the_tasks_order_with_a_count(jobs):
    seen = []
    results = run_jobs(square, range(7), jobs, on_result=lambda done, result: seen.append((done, result)))
    assert results == [0, 1, 4, 9, 16, 25, 36]
    assert seen == list(zip(range(1, 8), results))
