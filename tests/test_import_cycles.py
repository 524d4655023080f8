"""No import cycle among errdex's modules or its packages (the pipeline stages).

A cycle, even one hidden under `TYPE_CHECKING` or inside a function, is two modules a
reader must understand together, and a stage that cannot be read before the next one. The
import graph is read by `bench/code_shape.py` (with `ast`; nothing is imported), which also
prints the figure for the record.
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def shape() -> ModuleType:
    spec = importlib.util.spec_from_file_location("code_shape", ROOT / "bench" / "code_shape.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def test_errdex_has_no_import_cycle_between_modules(shape: ModuleType) -> None:
    graph = shape.import_graph(shape.read_modules(ROOT / "src" / "errdex"))
    assert "errdex.match.lookup" in graph and "errdex.history.timeline" in graph
    assert shape.cycles(graph) == []


def test_errdex_has_no_import_cycle_between_packages(shape: ModuleType) -> None:
    graph = shape.import_graph(shape.read_modules(ROOT / "src" / "errdex"))
    packages = shape.package_graph(graph)
    assert "errdex.history" in packages["errdex.match"]  # the one direction that remains
    # The front door (`errdex`) reaches every stage, and the faces call it: leave it out,
    # the test below says who may import it.
    stages = {p: t - {"errdex"} for p, t in packages.items() if p != "errdex"}
    assert shape.cycles(stages) == []


def test_only_the_faces_import_the_front_door(shape: ModuleType) -> None:
    # `errdex` (the library API) calls the pipeline; the CLI, the web and the integrations
    # (MCP, IPython, pytest) call `errdex`.
    graph = shape.import_graph(shape.read_modules(ROOT / "src" / "errdex"))
    importers = shape.importers_of_root(graph, "errdex")
    faces = ("errdex.cli", "errdex.web", "errdex.integrations")
    assert [m for m in importers if not m.startswith(faces)] == []


def test_a_cycle_under_type_checking_or_in_a_function_is_found(
    shape: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "a/__init__.py": "",
            "a/one.py": "from pkg.b.two import helper\n",
            "b/__init__.py": "",
            "b/two.py": """
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from pkg.a.one import Thing
                def helper():
                    from ..c import three
                """,
            "c/three.py": "from . import four\n",
            "c/four.py": "from pkg.c import three\n",
        },
    )
    graph = shape.import_graph(shape.read_modules(root))
    assert shape.cycles(graph) == [["pkg.a.one", "pkg.b.two"], ["pkg.c.four", "pkg.c.three"]]
    assert shape.cycles(shape.package_graph(graph)) == [["pkg.a", "pkg.b"]]


def test_importing_a_submodule_from_its_package_is_no_cycle(
    shape: ModuleType, tmp_path: Path
) -> None:
    # `from pkg.web import views` in a module of pkg.web, whose __init__ imports that
    # module: an edge to the submodule, not to the package's __init__.
    root = _write(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "web/__init__.py": "from pkg.web.app import create\n",
            "web/app.py": "from pkg.web import views\ndef create(): ...\n",
            "web/views.py": "X = 1\n",
        },
    )
    graph = shape.import_graph(shape.read_modules(root))
    assert graph["pkg.web.app"] == {"pkg.web.views"}
    assert shape.cycles(graph) == []
