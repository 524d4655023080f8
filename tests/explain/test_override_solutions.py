"""Defaults that subclasses replace: a base method that only raises, defined again by the
package's own subclasses. The way out is the user's subclass, or a class that defines it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.store import Store

SHELLS = {
    "shells/__init__.py": """
        from shells._types import AsyncStream

        __all__ = ["AsyncStream"]
        """,
    "shells/_types.py": """
        class AsyncStream:
            async def __aiter__(self):
                raise NotImplementedError("The '__aiter__' method must be implemented.")
                yield b""


        class _Hidden:
            def read(self):
                raise NotImplementedError("The 'read' method must be implemented.")
        """,
    "shells/_content.py": """
        from shells._types import AsyncStream, _Hidden


        class ByteStream(AsyncStream):
            async def __aiter__(self):
                yield b""


        class Plain(_Hidden):
            def read(self):
                return b""
        """,
    "shells/complete.py": """
        class ShellComplete:
            name = ""

            def source(self):
                return self.name

            def get_completion_args(self):
                raise NotImplementedError

            def format_completion(self, item):
                raise NotImplementedError


        class BashComplete(ShellComplete):
            def get_completion_args(self):
                return [], ""

            def format_completion(self, item):
                return item


        class ZshComplete(ShellComplete):
            def get_completion_args(self):
                return [], ""


        class _Internal(ShellComplete):
            def get_completion_args(self):
                return [], ""
        """,
    "shells/compiler.py": """
        class CompileError(Exception):
            pass


        class Compiler:
            def visit_replace(self, binary):
                raise CompileError(f"{self.name} does not support replacements")

            def visit_plain(self, binary):
                raise CompileError("never replaced")


        class _Helper:
            def visit_hidden(self):
                raise NotImplementedError
        """,
    "shells/dialects.py": """
        from shells.compiler import Compiler, _Helper


        class PGCompiler(Compiler):
            def visit_replace(self, binary):
                return "REGEXP_REPLACE"


        class LiteCompiler(Compiler):
            pass


        class Hidden(_Helper):
            def visit_hidden(self):
                return 1
        """,
}


@pytest.fixture(scope="module")
def shells(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shells"), "shells", SHELLS)


def page_in(store: Store, function: str) -> Page:
    (site,) = [s for s in store.list_sites("shells") if s.site.function == function]
    return build_page(store, site.id)


def test_a_default_every_subclass_defines_is_for_the_users_subclass(shells: Store) -> None:
    page = page_in(shells, "ShellComplete.get_completion_args")
    assert [(s.kind, s.text) for s in page.solutions] == [
        (
            "input",
            "Define `get_completion_args` in your subclass of `ShellComplete` "
            "(`shells.complete`): the base class leaves it to its subclasses and raises "
            "here; the package's own `BashComplete`, `ZshComplete` and 1 more each define it.",
        )
    ]


def test_a_default_with_a_message_names_the_subclasses_that_define_it(shells: Store) -> None:
    (solution,) = page_in(shells, "Compiler.visit_replace").solutions
    assert solution.text == (
        "Use a subclass of `Compiler` that defines `visit_replace`: `PGCompiler` "
        "(`shells.dialects`) (the base class raises this for every subclass without it), "
        "or define it in your own subclass."
    )


def test_no_way_out_when_no_subclass_defines_it_or_the_class_is_private(shells: Store) -> None:
    # `ZshComplete` has no `format_completion`: the package's own class reaches a bare
    # `NotImplementedError`, an internal path it does not support
    assert page_in(shells, "ShellComplete.format_completion").solutions == []
    assert page_in(shells, "Compiler.visit_plain").solutions == []
    assert page_in(shells, "_Helper.visit_hidden").solutions == []


def test_a_base_of_a_private_module_is_named_where_the_package_exports_it(
    shells: Store,
) -> None:
    # `AsyncStream` is defined in `shells._types` and imported from `shells`
    assert [s.text for s in page_in(shells, "AsyncStream.__aiter__").solutions] == [
        "Define `__aiter__` in your subclass of `AsyncStream` (`shells`): the base class "
        "leaves it to its subclasses and raises here; the package's own `ByteStream` "
        "(`shells._content`) defines it."
    ]
    # a class the package does not export is no user's to subclass
    assert page_in(shells, "_Hidden.read").solutions == []


DIALECTS = {
    "dbs/__init__.py": "",
    "dbs/sql/__init__.py": "",
    "dbs/sql/compiler.py": """
        class CompileError(Exception):
            pass


        class SQLCompiler:
            def visit_regexp_replace(self, binary):
                raise CompileError(f"{self.dialect.name} does not support replacements")


        class StrSQLCompiler(SQLCompiler):
            def visit_regexp_replace(self, binary):
                return "<regexp replace>"
        """,
    "dbs/dialects/__init__.py": "",
    "dbs/dialects/postgresql/__init__.py": "",
    "dbs/dialects/postgresql/base.py": """
        from dbs.sql.compiler import SQLCompiler


        class PGCompiler(SQLCompiler):
            def visit_regexp_replace(self, binary):
                return "REGEXP_REPLACE"
        """,
    "dbs/dialects/mysql/__init__.py": "",
    "dbs/dialects/mysql/base.py": """
        from dbs.sql.compiler import SQLCompiler


        class MySQLCompiler(SQLCompiler):
            def visit_regexp_replace(self, binary):
                return "REGEXP_REPLACE"
        """,
    "dbs/dialects/sqlite/__init__.py": "",
    "dbs/dialects/sqlite/base.py": """
        from dbs.sql.compiler import SQLCompiler


        class SQLiteCompiler(SQLCompiler):
            pass
        """,
}


@pytest.fixture(scope="module")
def dbs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("dbs"), "dbs", DIALECTS)


def test_classes_in_a_folder_of_dialects_are_named_by_the_dialect(dbs: Store) -> None:
    (site,) = [s for s in dbs.list_sites("dbs") if s.site.function.endswith("replace")]
    (solution,) = build_page(dbs, site.id).solutions
    # the user picks the database, not its compiler; `StrSQLCompiler` is no choice
    assert solution.text == (
        "Use the `mysql` or `postgresql` dialect: each defines `visit_regexp_replace` in its "
        "`SQLCompiler` subclass, and the base class raises this for every dialect without it. "
        "Writing a dialect of your own, define `visit_regexp_replace` in its subclass of "
        "`SQLCompiler`."
    )


CHOSEN = {
    "chosen/__init__.py": "",
    "chosen/engine/__init__.py": "",
    "chosen/engine/interfaces.py": """
        class Dialect:
            def get_view_names(self, connection):
                raise NotImplementedError()

            def do_ping(self, connection):
                raise NotImplementedError()

            def get_columns(self, connection):
                raise NotImplementedError()

            def do_recover(self, connection):
                raise NotImplementedError()

            def do_prepare(self, connection):
                raise NotImplementedError()
        """,
    "chosen/engine/default.py": """
        from chosen.engine.interfaces import Dialect


        class DefaultDialect(Dialect):
            def do_ping(self, connection):
                return True
        """,
    "chosen/dialects/__init__.py": "",
    "chosen/dialects/postgresql/__init__.py": "",
    "chosen/dialects/postgresql/base.py": """
        from chosen.engine.default import DefaultDialect


        class PGDialect(DefaultDialect):
            def get_view_names(self, connection):
                return []

            def do_ping(self, connection):
                return True

            def do_recover(self, connection):
                return []
        """,
    "chosen/dialects/oracle/__init__.py": "",
    "chosen/dialects/oracle/base.py": """
        from chosen.engine.default import DefaultDialect


        class OracleDialect(DefaultDialect):
            def do_recover(self, connection):
                '''Not for this driver.'''
                raise NotImplementedError("recover for oracle not implemented")

            def do_prepare(self, connection):
                raise NotImplementedError("prepare for oracle not implemented")
        """,
    "chosen/dialects/sqlite/__init__.py": "",
    "chosen/dialects/sqlite/base.py": """
        from chosen.engine.default import DefaultDialect


        class SQLiteDialect(DefaultDialect):
            pass
        """,
    "chosen/backends/__init__.py": "",
    "chosen/backends/fast.py": """
        from chosen.engine.interfaces import Dialect


        class FastDialect(Dialect):
            def get_columns(self, connection):
                return []
        """,
}


@pytest.fixture(scope="module")
def chosen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("chosen"), "chosen", CHOSEN)


def solutions(store: Store, function: str) -> list[str]:
    sites = [s for s in store.list_sites("chosen") if s.site.function == function]
    return [s.text for s in build_page(store, sites[0].id).solutions]


def test_a_bare_default_only_chosen_classes_define_names_the_choice(chosen: Store) -> None:
    # before: a bare `raise NotImplementedError` offered nothing
    assert solutions(chosen, "Dialect.get_view_names") == [
        "Use the `postgresql` dialect: it defines `get_view_names` in its `Dialect` subclass, "
        "and the base class raises this for every dialect without it. Writing a dialect of "
        "your own, define `get_view_names` in its subclass of `Dialect`."
    ]
    # `DefaultDialect`, outside the folder of choices, defines it for every dialect
    assert solutions(chosen, "Dialect.do_ping") == []
    # a module of a folder of choices (`backends/fast.py`) is no name a user writes
    assert solutions(chosen, "Dialect.get_columns") == []


def test_a_choice_that_defines_the_method_only_to_raise_is_no_way_out(chosen: Store) -> None:
    # `OracleDialect.do_recover` raises in its turn: only `postgresql` supports it
    assert solutions(chosen, "Dialect.do_recover") == [
        "Use the `postgresql` dialect: it defines `do_recover` in its `Dialect` subclass, "
        "and the base class raises this for every dialect without it. Writing a dialect of "
        "your own, define `do_recover` in its subclass of `Dialect`."
    ]
    # the only dialect that defines it refuses too: nothing to pick
    assert solutions(chosen, "Dialect.do_prepare") == []
