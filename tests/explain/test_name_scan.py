"""A name looked for in source text without a pattern made of it (`explain/name_scan.py`):
each helper answers as the pattern it stands for, and compiles nothing per name."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from errdex.explain import name_scan
from errdex.explain.context import at_margin, class_header, class_header_at
from errdex.explain.filled_advice import _assigned_string, _called
from errdex.explain.override_hatch import _defaulting

SOURCE = """\
class Loader(Base):
    def load(self, path=None, mode=Loader, *, kind = Loader ) -> None:
        self.load_all(path)
        return load(path) or self.loader.load (path)

def load(path):
    return Loader
class  Loaderé:
    pass
class
Loader:
    advice = (
        'read the file first')
x.advice = "not this one"
value = self.advice_text
def run(): return run_all() + re_run() + run ()
"""
NAMES = ["Loader", "load", "advice", "self.advice", "run", "é", "Loaderé", "path", "mode"]


def _same(found: object, pattern: str, text: str = SOURCE) -> None:
    assert found == (re.search(pattern, text) is not None), pattern


@pytest.mark.parametrize("name", NAMES)
def test_each_helper_answers_as_its_pattern(name: str) -> None:
    e = re.escape(name)
    _same(name_scan.called_in(SOURCE, name), rf"(?<![\w]){e}\(")
    _same(name_scan.reads_name(SOURCE, name), rf"(?<![\w.]){e}(?!\w)")
    _same(name_scan.names_word(SOURCE, name), rf"(?<![\w]){e}\b")
    _same(name_scan.whole_word(SOURCE, name), rf"\b{e}\b")
    _same(_called(SOURCE, name), rf"(?<!def )(?<!\w){e}\s*\(")
    _same(_assigned_string(SOURCE, name), rf"(?<![\w.]){e}\s*=\s*\(?\s*[rRfFuU]?['\"]")
    _same(_defaulting(SOURCE, name), rf"=\s*{e}\s*[,)]")
    for dotted, behind in ((False, r"(?<![\w])"), (True, r"(?<![\w.])")):
        found = list(name_scan.free_starts(SOURCE, name, dotted=dotted))
        assert found == [m.start() for m in re.finditer(behind + e, SOURCE)]


@pytest.mark.parametrize("name", NAMES)
def test_a_class_header_at_the_margin_is_the_one_at_margin_finds_first(name: str) -> None:
    first = next(at_margin(class_header(name), SOURCE), None)
    want = (first[0], first[1].start()) if first is not None else None
    assert name_scan.margin_class(SOURCE, name) == want
    assert name_scan.margin_class("class " + name, name) == (0, 0)


def test_a_class_header_is_told_from_its_words() -> None:
    assert name_scan.margin_class(SOURCE, "Loader") == (0, 0)
    assert name_scan.margin_class(SOURCE, "Loaderé") == (7, SOURCE.index("\nclass  Loaderé"))
    assert name_scan.margin_class("x = 1\nclass\n  Base:\n", "Base") == (1, 5)
    assert name_scan.margin_class("x = 1\n subclass Base:\n", "Base") is None
    assert name_scan.margin_class("classBase = 1\n", "Base") is None


def test_no_pattern_is_compiled_per_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # each pattern made of a name was new to the process, a compile of its own (508 on the
    # 200 cold pages of the web's benchmark)
    class_header_at.cache_clear()

    def refuse(*args: object) -> None:
        raise AssertionError(f"compiled {args[0]!r}")

    monkeypatch.setattr(re, "_compile", refuse)
    helpers: list[Callable[[str, str], object]] = [
        name_scan.called_in,
        name_scan.reads_name,
        name_scan.names_word,
        name_scan.whole_word,
        name_scan.margin_class,
        class_header_at,
        _called,
        _assigned_string,
        _defaulting,
    ]
    for helper in helpers:
        for name in ("Loader", "advice", "self.advice"):
            helper(SOURCE, name)
