"""`errdex index`'s start-up: while this process imports, the second core has nothing to
do yet (the extraction pool starts once the source is being read), so a module only
another path uses costs the whole run its import time."""

from __future__ import annotations

from pathlib import Path

from test_lookup_startup import loaded

from samples import among


def test_the_index_command_loads_no_event_loop(tmp_path: Path) -> None:
    # The command names the cluster's options and results (`indexing.cluster`), but only
    # a run on a Dask cluster shakes hands with its scheduler by asyncio (with ssl,
    # subprocess and the rest: 60M instructions of the command's 710M import).
    modules = loaded("import json, sys, errdex.cli.index; print(json.dumps(list(sys.modules)))",
                     tmp_path)  # fmt: skip
    assert "errdex.indexing.cluster" in modules
    assert "asyncio" not in modules


def test_index_json_loads_no_terminal_renderer(tmp_path: Path) -> None:
    # `--json` draws nothing on a terminal: rich (its progress bar, its console) and the
    # terminal's renderer are imported only where a line is drawn.
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "__init__.py").write_text(
        "def f(x):\n    if x < 0:\n        raise ValueError('x must be positive')\n"
    )
    code = (
        "import json, sys\n"
        "from errdex.cli import main\n"
        f"main(['index', '--json', {str(tmp_path / 'tiny')!r}], standalone_mode=False)\n"
        "print(json.dumps(list(sys.modules)))\n"
    )
    modules = loaded(code, tmp_path)
    assert "errdex.indexing.pipeline" in modules  # it did index
    assert among(modules, ("rich", "errdex.render.terminal")) == []
