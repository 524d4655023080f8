"""Patterns compiled on first use (`errdex.lazy_re`): each module-level one of errdex compiles
(a typo would otherwise show only when its rare path first runs), and a lazy pattern answers
as the pattern `re.compile` makes."""

from __future__ import annotations

import importlib
import pickle
import pkgutil
import re

import errdex
from errdex.lazy_re import _LazyPattern, lazy_compile


def _lazy_patterns() -> dict[str, _LazyPattern]:
    found: dict[str, _LazyPattern] = {}
    for module_info in pkgutil.walk_packages(errdex.__path__, "errdex."):
        if module_info.name.endswith("__main__"):
            continue  # running it is the command line
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if isinstance(value, _LazyPattern):
                found[f"{module_info.name}.{name}"] = value
    return found


def test_every_module_level_lazy_pattern_compiles() -> None:
    patterns = _lazy_patterns()
    assert len(patterns) > 200  # errdex holds 262: a walk that finds few checks little
    for name, pattern in patterns.items():
        try:
            pattern.groups  # noqa: B018 - the first use compiles it
        except re.error as error:  # pragma: no cover - the failure this test exists for
            raise AssertionError(f"{name}: {error}") from error


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    source = r"(?P<key>\w+)=(?P<value>[^;\s]+)"
    lazy, compiled = lazy_compile(source), re.compile(source)
    text = "level=error msg=failed; code=2"
    assert lazy.findall(text) == compiled.findall(text)
    assert lazy.sub(r"\g<key>:", text) == compiled.sub(r"\g<key>:", text)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert lazy.pattern == source and lazy.groupindex == compiled.groupindex
    assert lazy.fullmatch("a=b") is not None and lazy.match(";") is None
    # a match names the compiled pattern, not the stand-in
    assert isinstance(lazy.search(text).re, re.Pattern)  # type: ignore[union-attr]


def test_flags_reach_the_compiled_pattern() -> None:
    lazy = lazy_compile(r"^error$", re.IGNORECASE | re.MULTILINE)
    assert lazy.findall("ok\nERROR\nError") == ["ERROR", "Error"]
    assert lazy.flags & re.IGNORECASE


def test_a_lazy_pattern_pickles_as_a_compiled_one() -> None:
    # patterns travel to extraction workers in other processes
    restored = pickle.loads(pickle.dumps(lazy_compile(r"\d+", re.ASCII)))
    assert isinstance(restored, re.Pattern)
    assert restored.findall("a1b22") == ["1", "22"]
