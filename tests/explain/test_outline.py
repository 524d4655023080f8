"""A few top-level statements of a file parsed alone, at the file's lines and columns, cut
at the lines its stored outline says they start on; a page with a stored outline parses no
whole file for the rules that read only top-level statements."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain import context
from errdex.explain.outline import (
    any_import,
    binding,
    defining,
    holding,
    importing_any,
    importing_or_defining,
    top_module,
    top_statements,
)
from errdex.extract.module import top_starts
from errdex.store import Store

TEXT = textwrap.dedent(
    '''\
    """A module."""
    # a comment at the margin
    import os, sys
    from typing import (
        Any,
        Final,  # a comment inside
    )

    LIMIT: Final = (1,
        2); OTHER = 3

    @decorated(
        "x",
    )
    class Config:
        """class Fake:
    def not_a_function(): ...
        """

        def check(self) -> None:
            import json
            if self.x:
                raise ValueError("no")

    async def fetch(): pass
    def defaulted(): return os.sep
    default = 1
    '''
)


def _dumps(nodes: list[ast.stmt]) -> list[str]:
    return [ast.dump(n, include_attributes=True) for n in nodes]


def test_the_outline_starts_each_piece_at_a_whole_statement() -> None:
    # `OTHER` starts on the line `LIMIT` ends on: one piece; the class at its decorator
    assert top_starts(ast.parse(TEXT)) == (1, 3, 4, 9, 12, 25, 26, 27)


@pytest.mark.parametrize(
    ("keep", "lines"),
    [
        (importing_or_defining("defaulted"), [3, 4, 26]),
        (importing_or_defining("Config"), [3, 4, 15]),
        (importing_or_defining("fetch"), [3, 4, 25]),
        # a class holding a method of the name: its readers look at the module's top only
        (importing_or_defining("check"), [3, 4]),
        (defining("Config"), [15]),
        (defining("check"), [15]),  # a class holding a method of the name
        (defining("fetch"), [25]),
        (defining("default"), []),  # assigned, not defined
        (any_import, [3, 4, 15]),
        # the class imports `json` inside a method: kept only for that name
        (importing_any({"Any", "sep"}), [4]),
        (importing_any({"os"}), [3]),
        (importing_any({"json"}), [15]),
        (holding(22), [15]),
        (holding(10), [9, 10]),
        (holding(2), [1]),  # a comment after the docstring: its piece
    ],
)
def test_the_kept_statements_are_the_whole_parse_s(keep: context.Keep, lines: list[int]) -> None:
    whole = ast.parse(TEXT).body
    got = top_statements(TEXT, top_starts(ast.parse(TEXT)), keep)

    assert got is not None
    assert _dumps(got) == _dumps([n for n in whole if n.lineno in lines])


HEADERS = textwrap.dedent(
    """\
    class\\
      Continued: pass
    def\tTabbed(): pass
    class ConfigX:
        name = "def Config"
        def Configured(self): pass
    \fdef fed(): pass
    async \\
      def later(): pass
    """
)


@pytest.mark.parametrize(
    ("name", "defined", "top"),
    [
        ("Continued", [1], [1]),
        ("Tabbed", [3], [3]),
        ("Config", [4], []),  # the name in a string's text; `ConfigX` and `Configured` not
        ("Configured", [4], []),  # a method's header: a class holding it is kept
        ("fed", [7], [7]),  # a form feed at the margin
        ("later", [8], [8]),
        ("name", [], []),
    ],
)
def test_a_header_is_found_where_the_name_is_written(
    name: str, defined: list[int], top: list[int]
) -> None:
    starts = top_starts(ast.parse(HEADERS))
    kept = top_statements(HEADERS, starts, defining(name))
    assert kept is not None and [_first(n) for n in kept] == defined
    kept = top_statements(HEADERS, starts, importing_or_defining(name))
    assert kept is not None and [_first(n) for n in kept] == top


def _first(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None)
    return decorators[0].lineno if decorators else node.lineno


def test_without_a_fitting_outline_the_whole_file_is_read() -> None:
    starts = top_starts(ast.parse(TEXT))
    assert top_statements(TEXT, None, defining("Config")) is None
    assert top_statements(TEXT, (), defining("Config")) is None
    assert top_statements(TEXT, (*starts, 500), any_import) is None  # not this text's
    assert top_statements(TEXT, (1, 5), any_import) is None  # cut inside a statement
    assert top_statements(TEXT.replace("\n", "\r\n", 1), starts, any_import) is None
    module = top_module(TEXT, None, any_import)
    assert module is not None and len(module.body) == len(ast.parse(TEXT).body)
    assert top_module(None, starts, any_import) is None


PKG = {
    "pkg/__init__.py": "",
    "pkg/loader.py": """
        import logging

        logger = logging.getLogger(__name__)


        def load(path):
            try:
                return open(path)
            except OSError as e:
                logger.error("Could not read %s. Please set PKG_PATH to a readable file.", path)
                raise e
        """,
    "pkg/run.py": """
        import os
        from pkg.loader import load

        TABLE = {"a": 1}


        def start(path):
            try:
                return load(path)
            except OSError as e:
                raise RuntimeError("the run could not start") from e


        def other():
            return os.sep
        """,
}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("outline"), "pkg", PKG)


def test_a_page_reads_the_imports_it_follows_without_parsing_the_whole_file(
    pkg: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[str | None] = []
    parse = context.parse_module
    monkeypatch.setattr(context, "parse_module", lambda text: parsed.append(text) or parse(text))
    [version] = pkg.versions("pkg")
    run = pkg.file_text(version.id, "pkg/run.py")

    page = page_with_message(pkg, "pkg", "the run could not start")

    assert any("PKG_PATH" in s.text for s in page.solutions)  # found through `from ... import`
    assert pkg.file_outline(version.id, "pkg/run.py") == (2, 3, 5, 8, 15)
    assert run not in parsed


def test_the_statements_that_may_bind_a_handler_s_name() -> None:
    keep = binding({"ParseError", "Exception"})
    assert keep("ParseError = ValueError\n", 1, 2)
    assert keep("from .errors import (\n    ParseError,\n)\n", 1, 4)
    assert keep("class ParseError(Exception):\n    pass\n", 1, 3)
    assert keep("from .errors import *\n", 1, 2)
    # a class of another name whose bases write it, a function whose body does
    assert not keep("class Failed(Exception):\n    pass\n", 1, 3)
    assert not keep("def parse(text):\n    raise ParseError(text)\n", 1, 3)
    assert not keep("ParseErrors = {}\n", 1, 2)
