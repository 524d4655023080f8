"""Extraction leaves no reference cycle that holds a tree: workers run without the cyclic GC."""

from __future__ import annotations

import ast
import gc
import textwrap
from collections.abc import Callable

from errdex.extract import extract_again, extract_file
from errdex.extract.skeleton import MIN_SKELETON_BYTES
from errdex.facts import FileFacts
from samples import QUIET_FUNCTIONS

SOURCE = textwrap.dedent(
    """
    import os

    LIMIT = 4

    class ConfigError(ValueError):
        def __init__(self, field, value):
            super().__init__(f"bad {field}: {value!r}")

    def check(ok, msg):
        if not ok:
            raise ValueError(msg)

    def load(config, envs):
        reasons = []
        if config.size > LIMIT and envs.VLLM_FAST:
            reasons.append("size over the limit")
        if os.environ.get("MODE") == "strict":
            check(config.ready, "config is not ready")
        if reasons:
            raise ConfigError("size", ", ".join(reasons))
        for item in config.items:
            if item is None:
                continue
            assert item.valid, f"invalid item {item.name}"
        return config
    """
)


def _leaked_trees(extract: Callable[[], FileFacts | None]) -> list[ast.AST]:
    """The syntax trees that only the cyclic GC could free after `extract` runs."""
    gc.collect()
    gc.disable()
    try:
        facts = extract()
        assert facts is not None and facts.sites
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        return [o for o in gc.garbage if isinstance(o, ast.AST)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_extraction_frees_its_trees_without_the_cyclic_gc() -> None:
    assert len(extract_file("pkg/config.py", SOURCE.encode()).sites) == 3
    assert _leaked_trees(lambda: extract_file("pkg/config.py", SOURCE.encode())) == []


def test_a_second_extraction_frees_its_trees_too() -> None:
    # Big enough for a skeleton, with a helper call that only the names keep.
    quiet = QUIET_FUNCTIONS
    source = SOURCE + quiet + "\ndef send(url):\n    validate(url, 'the url')\n"
    assert len(source) > MIN_SKELETON_BYTES
    data = source.encode()
    assert _leaked_trees(lambda: extract_again("pkg/config.py", data, {"validate"})) == []


def test_a_class_whose_setters_are_read_frees_its_trees() -> None:
    # A condition on `self.X` has the class's setters read (each holding the file reader).
    source = textwrap.dedent(
        """
        class Stream:
            def __init__(self):
                self._closed = False

            @property
            def closed(self):
                return self._closed

            def close(self):
                self._closed = True

            def read(self):
                if self.closed:
                    raise ValueError("read of a closed stream")
        """
    )
    assert len(extract_file("pkg/stream.py", source.encode()).sites) == 1
    leaked = _leaked_trees(lambda: extract_file("pkg/stream.py", source.encode()))
    # The file's tree, not a constant a template builder's closure keeps for a while.
    assert [n for n in leaked if isinstance(n, ast.Module | ast.stmt)] == []
