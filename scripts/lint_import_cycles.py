"""No import circles between the project's modules, run by `make lint`.

import-linter's contracts keep the floors in order (packages against packages); this finds
circles between single modules anywhere in the project (`a` imports `b`, which imports `a`,
directly or through others, at the top of a file or inside a function: either way one of them
runs half-initialised, or the import has to hide in a function). grimp (import-linter's own
graph builder) reads the imports; each strongly connected component of more than one module
is a circle, printed with its modules and the imports that close it. Imports under
`if TYPE_CHECKING:` never run and are left out.

    python -m scripts.lint_import_cycles [package …]     (default: every package of the project)
"""

import sys
from collections.abc import Iterable
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
NOT_PACKAGES = {".venv", "node_modules", "frontend", "static", "staticfiles", "media"}


def project_packages(root: Path = ROOT) -> list[str]:
    """The top-level packages of the project folder (each folder with an __init__.py)."""
    return sorted(
        folder.name
        for folder in root.iterdir()
        if (folder / "__init__.py").is_file() and folder.name not in NOT_PACKAGES
    )


def import_graph(packages: Iterable[str]) -> grimp.ImportGraph:
    return grimp.build_graph(*packages, exclude_type_checking_imports=True, cache_dir=None)


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every circle: the strongly connected components of more than one module, each sorted,
    in name order (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, imported = work[-1]
            step = next(imported, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.find_modules_directly_imported_by(step)))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return sorted(cycles)


def describe(graph: grimp.ImportGraph, cycle: list[str]) -> str:
    """The circle's modules and, for each import between two of them, where it is."""
    members = set(cycle)
    lines = [f"Import circle of {len(cycle)} modules: {', '.join(cycle)}"]
    for importer in cycle:
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & members):
            details = graph.get_import_details(importer=importer, imported=imported)
            where = ", ".join(f"line {d['line_number']}" for d in details)
            lines.append(f"  {importer} -> {imported} ({where})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    packages = (argv if argv is not None else sys.argv[1:]) or project_packages()
    graph = import_graph(packages)
    cycles = import_cycles(graph)
    for cycle in cycles:
        print(describe(graph, cycle))
    if cycles:
        print(f"{len(cycles)} import circle(s): break each (move what both need lower down).")
        return 1
    print(f"No import circles among {len(graph.modules)} modules of {', '.join(packages)}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
