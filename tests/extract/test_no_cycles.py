"""Extraction leaves no reference cycle that holds a tree: workers run without the cyclic GC."""

from __future__ import annotations

import ast
import gc
import textwrap

from errdex.extract import extract_file

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


def test_extraction_frees_its_trees_without_the_cyclic_gc() -> None:
    gc.collect()
    gc.disable()
    try:
        facts = extract_file("pkg/config.py", SOURCE.encode())
        assert len(facts.sites) == 3
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        leaked = [o for o in gc.garbage if isinstance(o, ast.AST)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert leaked == []
