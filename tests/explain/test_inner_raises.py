"""A raise under `except` around a call of the package's own code: the callee's raises of
the caught class are named, and the way out their messages agree on is offered."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message
from text_facts import site_facts

from errdex.explain import outline, parse_cache
from errdex.explain.inner_raises import call_target
from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/errors.py": """
        class UndefinedName(Exception):
            pass


        class ParseFailed(Exception):
            pass
        """,
    "lab/schema.py": """
        from lab.errors import ParseFailed, UndefinedName


        def resolve(name, names):
            if name not in names:
                raise UndefinedName(
                    f"name {name!r} is not defined. Define or import {name!r}, then rebuild."
                )
            return names[name]


        def build(fields, names):
            first = resolve(fields[0], names)
            return [first, *fields[1:]]


        def parse(text):
            if not text:
                raise ParseFailed("empty text")
            if text.startswith("#"):
                raise ParseFailed(f"a comment is no rule: {text!r}")
            return text
        """,
    "lab/model.py": """
        from lab.errors import ParseFailed, UndefinedName
        from lab.schema import build, parse


        def complete(fields, names):
            try:
                schema = build(fields, names)
            except UndefinedName as e:
                raise RuntimeError("the model could not be completed") from e
            return schema


        def rules(text):
            try:
                return parse(text)
            except ParseFailed:
                raise ValueError("the rules could not be read")


        def counted(text):
            try:
                return int(text)
            except ValueError:
                raise ValueError("not a count")
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("inner"), "lab", LAB)


def test_the_inner_raise_two_calls_down_is_named_with_its_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "the model could not be completed")
    assert "`build` (through a call it makes) raises `UndefinedName` at line" in (
        page.what_it_means
    ), page.what_it_means
    assert "`lab/schema.py`" in page.what_it_means
    texts = [s.text for s in page.solutions]
    assert any("Define or import" in t and t.startswith("Do what `build`") for t in texts), texts


def test_raises_that_disagree_are_named_without_a_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "the rules could not be read")
    assert "`parse` raises `ParseFailed` at line" in page.what_it_means, page.what_it_means
    assert "the message of the one raised says what failed" in page.what_it_means
    assert not any(s.text.startswith("Do what `parse`") for s in page.solutions)


def test_a_broad_class_of_a_call_outside_the_package_is_not_followed(lab: Store) -> None:
    page = page_with_message(lab, "lab", "not a count")
    assert "of the package's own code" not in page.what_it_means.lower()


def test_a_literals_method_is_no_call_of_the_package_and_parses_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `"SELECT name FROM {}".format(table)` in the `try`: no import or definition binds a
    # literal, and the statements kept for a name that is no word are every definition of
    # the file (a dialect module of 4,000 lines)
    parsed: list[str] = []
    real = outline._parse
    monkeypatch.setattr(outline, "_parse", lambda text: parsed.append(text) or real(text))
    parse_cache.clear()
    text = textwrap.dedent(
        """
        from lab.errors import ParseFailed


        def helper(value):
            return value


        class Dialect:
            def level(self, cursor):
                try:
                    cursor.execute("SELECT name FROM {}".format(self.table))
                except ParseFailed:
                    raise
        """
    )
    facts = site_facts(text, "Dialect.level", "lab.dialect", "lab/dialect.py")
    assert call_target('"SELECT name FROM {}".format', facts) is None
    assert parsed == []
    # a name of the file's own is found among its definitions
    assert call_target("helper", facts) == ("lab/dialect.py", ("helper", "helper.__init__"))
    assert len(parsed) == 1 and "class Dialect" not in parsed[0]
    kept = ast.parse(parsed[0]).body
    assert [type(s) for s in kept] == [ast.ImportFrom, ast.FunctionDef]  # its imports too
