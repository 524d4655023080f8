"""A visitor method's check on an attribute of the object it visits (`visit_VARCHAR(self,
type_)`, `type_.length is None`): the way out is said as the call that builds that object
(`VARCHAR(length=...)`), with the classes whose visitor methods hand their objects on to
it (`String`, `Unicode`, whose constructor takes the attribute too); not where the method's
name is no class of the package, nor for an attribute no constructor takes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain import build_page
from errdex.store import Store

VISITED = {
    "typeset/__init__.py": """
        from typeset.sql.types import String, Unicode, Enum, VARCHAR
        from typeset.dialect.types import NVARCHAR


        def __getattr__(name):
            raise AttributeError(f"module 'typeset' has no attribute {name!r}")
        """,
    "typeset/sql/__init__.py": "",
    "typeset/sql/types.py": """
        class TypeEngine:
            def compile(self, compiler):
                if compiler is None:
                    raise TypeError("a compiler is needed")
                return getattr(compiler, "visit_" + self.__visit_name__)(self)


        class String(TypeEngine):
            __visit_name__ = "string"

            def __init__(self, length=None, collation=None):
                self.length = length
                self.collation = collation


        class Unicode(String):
            __visit_name__ = "unicode"


        class Enum(String):
            __visit_name__ = "enum"

            def __init__(self, *enums, **kw):
                super().__init__(max(len(e) for e in enums))
                self.enums = enums


        class VARCHAR(String):
            __visit_name__ = "VARCHAR"


        class Text(String):
            __visit_name__ = "text"
        """,
    "typeset/sql/compiler.py": """
        class CompileError(Exception):
            pass


        class GenericTypeCompiler:
            def visit_string(self, type_, **kw):
                return self.visit_VARCHAR(type_, **kw)

            def visit_unicode(self, type_, **kw):
                return self.visit_VARCHAR(type_, **kw)

            def visit_enum(self, type_, **kw):
                return self.visit_VARCHAR(type_, **kw)

            def visit_VARCHAR(self, type_, **kw):
                return "VARCHAR(%d)" % type_.length

            def visit_unary(self, unary, **kw):
                if unary.modifier is None:
                    raise CompileError("Unary expression needs a modifier")
                return unary.modifier
        """,
    "typeset/dialect/__init__.py": "",
    "typeset/dialect/types.py": """
        from ..sql import types as sqltypes


        class NVARCHAR(sqltypes.String):
            __visit_name__ = "NVARCHAR"

            def __init__(self, length=None, national=True):
                if length == 0:
                    raise ValueError("a length of 0")
                super().__init__(length=length)
                self.national = national
        """,
    "typeset/dialect/base.py": """
        from .types import NVARCHAR
        from ..sql import compiler
        from ..sql.types import VARCHAR, Unicode


        class DialectTypeCompiler(compiler.GenericTypeCompiler):
            def visit_VARCHAR(self, type_, **kw):
                if type_.length is not None:
                    return "VARCHAR(%d)" % type_.length
                else:
                    raise compiler.CompileError("VARCHAR requires a length")

            def visit_NVARCHAR(self, type_, **kw):
                if type_.length is None:
                    raise compiler.CompileError("NVARCHAR requires a length")
                return "NATIONAL VARCHAR(%d)" % type_.length

            def visit_Unicode(self, type_, **kw):
                if type_.collation_name is None:
                    raise compiler.CompileError("Unicode requires a collation name")
                return "NVARCHAR"
        """,
    "typeset/other/__init__.py": "",
    "typeset/other/base.py": """
        from ..sql import compiler
        from ..sql.types import VARCHAR, Unicode


        class OtherTypeCompiler(compiler.GenericTypeCompiler):
            def visit_string(self, type_, **kw):
                return "TEXT"

            def visit_VARCHAR(self, type_, **kw):
                if type_.length is None:
                    raise compiler.CompileError("VARCHAR requires a length on other")
                return "VARCHAR(%d)" % type_.length

            def visit_Unicode(self, type_, **kw):
                if type_.collation is None:
                    raise compiler.CompileError("Unicode requires a collation on other")
                return "NVARCHAR"


        class LegacyTypeCompiler:
            def visit_text(self, type_, **kw):
                return self.visit_VARCHAR(type_, **kw)
        """,
}


@pytest.fixture(scope="module")
def visited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("visited"), "typeset", VISITED)


def first_solution(store: Store, function: str) -> str | None:
    """The first way out of the last site of `function`."""
    sites = [s for s in store.list_sites("typeset") if s.site.function == function]
    site = max(sites, key=lambda s: s.site.line)
    page = build_page(store, site.id)
    return page.solutions[0].text if page.solutions else None


def test_the_visited_object_is_said_as_the_call_that_builds_it(visited: Store) -> None:
    # the compiler hands the method the `VARCHAR` the user built, or a `String` or
    # `Unicode` (no constructor of its own: `String`'s), which the base's visitor methods
    # hand on as they are; `Enum`'s constructor takes no `length`
    assert first_solution(visited, "DialectTypeCompiler.visit_VARCHAR") == (
        "Pass `length` to the `VARCHAR` (or the `String` or `Unicode` visited as one) you "
        "build: `VARCHAR(length=...)`; `DialectTypeCompiler.visit_VARCHAR` is handed that "
        "object when it is visited, and raises when its `length` is None."
    )


def test_a_class_imported_from_a_module_of_the_package(visited: Store) -> None:
    # the dialect's own `NVARCHAR`, its constructor in another module; no method hands on
    assert first_solution(visited, "DialectTypeCompiler.visit_NVARCHAR") == (
        "Pass `length` to the `NVARCHAR` you build: `NVARCHAR(length=...)`; "
        "`DialectTypeCompiler.visit_NVARCHAR` is handed that object when it is visited, "
        "and raises when its `length` is None."
    )


def test_no_class_of_that_name_or_no_constructor_taking_it_gets_nothing_here(
    visited: Store,
) -> None:
    # `visit_unary`: no class `unary` in the package; `visit_Unicode`: `collation_name` is
    # no parameter of `Unicode`'s constructor (`String`'s)
    for function, argument in (
        ("GenericTypeCompiler.visit_unary", "unary"),
        ("DialectTypeCompiler.visit_Unicode", "type_"),
    ):
        # the method's own argument, as for any check of one (an R), not the built object
        found = first_solution(visited, function)
        assert found is not None and found.startswith(
            f"Pass for the argument `{argument}` of `{function}` a value whose "
        ), found


def test_a_method_the_class_overrides_or_another_class_defines_hands_nothing_on(
    visited: Store,
) -> None:
    # the dialect renders `String` itself (`visit_string` returns "TEXT"): a `String` never
    # reaches its `visit_VARCHAR`; `LegacyTypeCompiler` hands `Text` on, but it is no base
    # of the dialect's compiler; `Unicode` still reaches it through the base's method
    assert first_solution(visited, "OtherTypeCompiler.visit_VARCHAR") == (
        "Pass `length` to the `VARCHAR` (or the `Unicode` visited as one) you build: "
        "`VARCHAR(length=...)`; `OtherTypeCompiler.visit_VARCHAR` is handed that object "
        "when it is visited, and raises when its `length` is None."
    )


def test_a_class_visited_under_another_name_is_not_the_one_the_method_is_named_for(
    visited: Store,
) -> None:
    # `Unicode` declares `__visit_name__ = "unicode"`: its objects go to `visit_unicode`,
    # never to `visit_Unicode`, though its constructor (`String`'s) takes `collation`
    found = first_solution(visited, "OtherTypeCompiler.visit_Unicode")
    assert found == (
        "Pass for the argument `type_` of `OtherTypeCompiler.visit_Unicode` a value whose "
        "`collation` is set (not None)."
    )


BUILT = {
    "tmpl/__init__.py": """
        from tmpl.environment import Environment


        def __getattr__(name):
            raise AttributeError(f"module 'tmpl' has no attribute {name!r}")
        """,
    "tmpl/nodes.py": """
        class Node:
            def set_ctx(self, ctx):
                if ctx not in ("load", "store"):
                    raise ValueError(f"unknown context {ctx!r}")
                self.ctx = ctx


        class Call(Node):
            def __init__(self, func, args, dyn_args=None):
                self.func = func
                self.args = args
                self.dyn_args = dyn_args
        """,
    "tmpl/parser.py": """
        from .nodes import Call


        class Parser:
            def parse_call(self, func, args):
                return Call(func, args, None)
        """,
    "tmpl/environment.py": """
        from .parser import Parser


        class Environment:
            def from_string(self, source):
                if not source:
                    raise ValueError("an empty template")
                return Parser().parse_call(source, [])
        """,
    "tmpl/compiler.py": """
        from .nodes import Call


        class TemplateError(Exception):
            pass


        class CodeGenerator:
            def visit_Call(self, node, frame):
                if node.dyn_args is None:
                    raise TemplateError("a call needs its dynamic arguments here")
                return node.func
        """,
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("built"), "tmpl", BUILT)


def test_an_object_the_package_builds_from_the_user_s_text_is_no_call_of_theirs(
    built: Store,
) -> None:
    # the parser builds each `Call` of the template's text; the package hands users no
    # `Call` (its top package exports `Environment` alone, `nodes` lists no `__all__`): a
    # user writes no `Call(..., dyn_args=...)`
    (site,) = [s for s in built.list_sites("tmpl") if s.site.function == "CodeGenerator.visit_Call"]
    page = build_page(built, site.id)
    assert "raises `TemplateError` when all of these hold: `node.dyn_args` is None" in (
        page.what_it_means
    )
    # not offered: "Pass `dyn_args` to the `Call` you build: `Call(..., dyn_args=...)`"
    assert [s.text for s in page.solutions] == [
        "Pass for the argument `node` of `CodeGenerator.visit_Call` a value whose `dyn_args` "
        "is set (not None)."
    ]
