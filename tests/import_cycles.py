"""No import cycle among the project's modules: an import-linter contract, built on grimp's import graph.

import-linter's layers contract lets modules of one layer import each other, and its ``acyclic_siblings``
contract compares the children of one package only (a package's ``__init__`` and its own modules, or two root
packages, are never siblings). This contract looks at every module of the root packages at once: any strongly
connected group of modules (function-level imports included, as grimp reads them) breaks it, and the message
names one cycle of each group with the line of every import in it.

``pyproject.toml`` registers it (``contract_types``), so ``lint-imports`` (and ``make lint``) runs it.
"""

from __future__ import annotations

from collections.abc import Iterable

import grimp
from importlinter.application import output
from importlinter.domain.contract import Contract, ContractCheck


def strongly_connected(graph: grimp.ImportGraph, modules: Iterable[str]) -> list[list[str]]:
    """The groups of ``modules`` that import one another in a cycle (Tarjan's algorithm, without recursion),
    each sorted, sorted by their first module; a module that imports itself is a group of one."""
    modules = set(modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & modules) for m in sorted(modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, todo = work[-1]
            step = next(todo, None)
            if step is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1 or module in edges[module]:
                        groups.append(sorted(group))
            elif step not in index:
                index[step] = low[step] = len(index)
                stack.append(step)
                on_stack.add(step)
                work.append((step, iter(edges[step])))
            elif step in on_stack:
                low[module] = min(low[module], index[step])
    return sorted(groups)


def one_cycle(graph: grimp.ImportGraph, group: list[str]) -> list[str]:
    """One cycle through ``group``'s first module, as the modules in import order (the first one again last)."""
    first = group[0]
    back = min(
        (graph.find_shortest_chain(importer=m, imported=first) for m in graph.find_modules_directly_imported_by(first)
         if m in group),
        key=lambda chain: (len(chain), chain),
    )  # fmt: skip
    return [first, *back]


def describe(graph: grimp.ImportGraph, cycle: list[str]) -> str:
    """``a (line 3) -> b (line 9) -> a``: each import of ``cycle`` with the line(s) it is on."""
    parts = []
    for importer, imported in zip(cycle, cycle[1:]):
        lines = sorted({d["line_number"] for d in graph.get_import_details(importer=importer, imported=imported)})
        parts.append(f"{importer} (line {', '.join(map(str, lines))})")
    return " -> ".join([*parts, cycle[-1]])


def project_modules(graph: grimp.ImportGraph, roots: Iterable[str]) -> set[str]:
    """Every module of the root packages ``roots`` in ``graph``."""
    found: set[str] = set()
    for root in roots:
        found |= {root, *graph.find_descendants(root)}
    return found


class AcyclicContract(Contract):
    """Broken by any import cycle among the modules of the session's root packages."""

    type_name = "acyclic"

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        options = self.session_options
        roots = options.get("root_packages") or [options["root_package"]]
        modules = project_modules(graph, roots)
        groups = strongly_connected(graph, modules)
        cycles = [describe(graph, one_cycle(graph, group)) for group in groups]
        output.verbose_print(verbose, f"{len(modules)} modules, {len(groups)} import cycle group(s).")
        return ContractCheck(kept=not groups, warnings=[], metadata={"groups": groups, "cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for group, cycle in zip(check.metadata["groups"], check.metadata["cycles"]):
            output.print_error(f"{len(group)} modules import one another: {', '.join(group)}")
            output.print_error(f"  for example {cycle}")
            output.new_line()
