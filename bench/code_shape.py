"""The shape of the source a newcomer reads: longest function, largest module, import cycles.

    python bench/code_shape.py [SRC]

Reads `src/errdex` (or SRC) with `ast`, nothing imported. Every import counts, including
those under `TYPE_CHECKING` and inside functions: a cycle hidden from the interpreter is
still two modules a reader must understand together. Cycles are counted twice: between
modules, and between packages (the pipeline stages `errdex.match`, `errdex.history`, ...;
a top-level module such as `errdex.facts` is a package of its own). The root `errdex`
package is the library's front door: the pipeline never imports it, the faces (CLI, web) do.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "errdex"


def module_name(path: Path, root: Path) -> str:
    """`errdex.match.lookup` for `<root>/match/lookup.py`; a package is its `__init__`."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def read_modules(root: Path) -> dict[str, ast.Module]:
    return {
        module_name(path, root): ast.parse(path.read_bytes(), str(path))
        for path in sorted(root.rglob("*.py"))
    }


def imported_modules(module: str, tree: ast.Module, known: set[str]) -> set[str]:
    """The modules of `known` that `module` imports, anywhere in its body.

    `from errdex.web import views` imports the module `errdex.web.views` when there is one,
    else a name of `errdex.web`; a relative import is resolved against `module` itself.
    """
    names: set[str] = set()
    is_package = any(other.startswith(module + ".") for other in known)
    here = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here[: len(here) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                qualified = f"{base}.{alias.name}"
                names.add(qualified if qualified in known else base)
    return (names & known) - {module}


def import_graph(trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """Module → the package's own modules it imports."""
    known = set(trees)
    return {module: imported_modules(module, tree, known) for module, tree in trees.items()}


def package_of(module: str) -> str:
    """`errdex.match` for `errdex.match.lookup`; `errdex.facts` for itself; `errdex`."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        source = package_of(module)
        edges = packages.setdefault(source, set())
        edges.update(package_of(t) for t in targets if package_of(t) != source)
    return packages


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph) + 100))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def importers_of_root(graph: dict[str, set[str]], root: str) -> list[str]:
    """Modules of the package that import its root `__init__` (the public front door)."""
    return sorted(module for module, targets in graph.items() if root in targets)


def functions(trees: dict[str, ast.Module]) -> Iterable[tuple[int, str]]:
    """(lines, `module:qualname`) of every function and method."""
    for module, tree in trees.items():
        stack: list[tuple[ast.AST, str]] = [(tree, "")]
        while stack:
            node, prefix = stack.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    name = f"{prefix}{child.name}"
                    if not isinstance(child, ast.ClassDef):
                        lines = (child.end_lineno or child.lineno) - child.lineno + 1
                        yield lines, f"{module}:{name}"
                    stack.append((child, name + "."))
                else:
                    stack.append((child, prefix))


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else SRC
    trees = read_modules(root)
    graph = import_graph(trees)
    sizes = sorted(
        (len(path.read_text().splitlines()), module_name(path, root)) for path in root.rglob("*.py")
    )
    longest = max(functions(trees))
    module_cycles = cycles({m: t - {root.name} for m, t in graph.items()})
    package_cycles = cycles({p: t - {root.name} for p, t in package_graph(graph).items()})
    print(f"modules: {len(trees)}")
    print(f"largest module: {sizes[-1][1]} ({sizes[-1][0]} lines)")
    print(f"longest function: {longest[1]} ({longest[0]} lines)")
    print(f"import cycles between modules: {len(module_cycles)}")
    for cycle in module_cycles:
        print("  " + " <-> ".join(cycle))
    print(f"import cycles between packages: {len(package_cycles)}")
    for cycle in package_cycles:
        print("  " + " <-> ".join(cycle))
    print(f"modules importing the root package: {importers_of_root(graph, root.name) or 'none'}")


if __name__ == "__main__":
    main()
