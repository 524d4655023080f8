"""A private method refusing an object a public method set up another way: the page says
not to call the public methods that reach it on an object made with that one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.explain import build_page
from errdex.store.base import Store

FILES = {
    "queries/__init__.py": "from queries.query import Query",
    "queries/query.py": """
        class QueryError(Exception):
            pass


        class Query:
            _statement = None

            def __init__(self, entities):
                self.entities = entities

            def from_statement(self, statement):
                self._statement = statement
                return self

            def reset(self):
                self._statement = None
                return self

            def subquery(self, name=None):
                return (name, self._select_only())

            def cte(self, name=None):
                return (name, self._select_only())

            def _select_only(self):
                if self._statement is not None:
                    raise QueryError("Can't call this method on a Query that uses from_statement()")
                return self.entities
        """,
}


def test_the_methods_that_reach_the_check_are_not_for_such_an_object(tmp_path: Path) -> None:
    for store in indexed_package(tmp_path, "queries", FILES):
        page = page_in_function(store, "queries", "Query._select_only")
        assert page.solutions[0].text == (
            "Don't call `subquery()` or `cte()` on a `Query` made with `from_statement()`: "
            "`from_statement()` sets `self._statement`, and `Query._select_only`, which those "
            "call, refuses an object that has one. Make it without `from_statement()` to call "
            "them."
        )


CHAINS = {
    "statements/__init__.py": "from statements.stmt import Statement, decorated",
    "statements/stmt.py": """
        class StatementError(Exception):
            pass


        def decorated(*checks):
            def wrap(fn):
                return fn
            return wrap


        class Statement:
            _limit = None
            _criteria = ()
            _defaults = False
            _checking = True

            def __init__(self, table):
                self.table = table

            @decorated()
            def with_defaults(self, *cols):
                self._defaults = True
                return self

            def limit(self, count):
                self._limit = make_clause(count)
                return self

            def where(self, *criteria):
                self._criteria += criteria
                return self

            def checking(self, value):
                self._checking = value
                return self

            def counted(self, count):
                self._counted = count

            def returning(self, *cols):
                if self._defaults:
                    raise StatementError("with_defaults() is already configured")
                return cols

            def get(self, ident):
                self._no_criteria("get", ordered=False)
                return ident

            @decorated(_no_criteria)
            def group(self, *cols):
                return self

            def lookup(self, ident):
                if self._checking:
                    raise StatementError("checked")
                return ident

            def _no_criteria(self, name, ordered=True):
                if self._criteria or self._limit is not None or (ordered and self._order):
                    raise StatementError("%s() called on a statement with criteria" % name)


        def make_clause(value):
            return value
        """,
}


def test_a_chain_step_that_set_the_state_the_call_refuses(tmp_path: Path) -> None:
    for store in indexed_package(tmp_path, "statements", CHAINS):
        page = page_in_function(store, "statements", "Statement.returning")
        assert page.solutions[0].text == (
            "Don't call `returning()` on a `Statement` made with `with_defaults()`: "
            "`with_defaults()` sets `self._defaults`, and `returning()` refuses an object that "
            "has one. Make it without `with_defaults()` to call it."
        )


def test_each_side_of_an_or_a_chain_step_sets_and_the_callers_by_decorator(
    tmp_path: Path,
) -> None:
    for store in indexed_package(tmp_path, "statements", CHAINS):
        page = page_in_function(store, "statements", "Statement._no_criteria")
        assert page.solutions[0].text == (
            "Don't call `get()` or `group()` on a `Statement` made with `where()` or `limit()`: "
            "each of those sets one of `self._criteria` or `self._limit`, and "
            "`Statement._no_criteria`, which those call, refuses an object that has one. Make "
            "it without any of those to call them."
        )


def test_no_chain_for_a_state_the_class_starts_set_or_a_step_that_is_no_chain(
    tmp_path: Path,
) -> None:
    files = dict(CHAINS)
    files["statements/stmt.py"] = CHAINS["statements/stmt.py"].replace(
        "if self._checking:", "if self._counted:"
    )
    for store in indexed_package(tmp_path, "statements", CHAINS):
        page = page_in_function(store, "statements", "Statement.lookup")
        assert not [s for s in page.solutions if "made with" in s.text]
    for store in indexed_package(tmp_path, "statements", files):
        page = page_in_function(store, "statements", "Statement.lookup")
        assert not [s for s in page.solutions if "made with" in s.text]


def test_a_chain_step_of_a_base_class_in_the_same_file(tmp_path: Path) -> None:
    files = {
        "inserts/__init__.py": "from inserts.dml import Insert",
        "inserts/dml.py": """
            class InsertError(Exception):
                pass


            class ValuesBase:
                _values = None

                def values(self, **kw):
                    self._values = dict(kw)
                    return self


            class Insert(ValuesBase):
                def __init__(self, table):
                    self.table = table

                def from_select(self, names, select):
                    if self._values:
                        raise InsertError("This construct already inserts value expressions")
                    self._select = (names, select)
                    return self
            """,
    }
    for store in indexed_package(tmp_path, "inserts", files):
        page = page_in_function(store, "inserts", "Insert.from_select")
        assert page.solutions[0].text == (
            "Don't call `from_select()` on an `Insert` made with `values()`: `values()` sets "
            "`self._values`, and `from_select()` refuses an object that has one. Make it "
            "without `values()` to call it."
        )


# A statement built by the user's chain of calls, handed on to a compiler in another module
# of the package, which checks private attributes those calls set.
HANDED = {
    "stmts/__init__.py": "from stmts.dml import Insert, insert",
    "stmts/dml.py": """
        class UpdateBase:
            _returning = ()
            _return_defaults = False
            _fetch_options = None
            _where_criteria = ()

            def returning(self, *cols, sort_by_parameter_order=False):
                self._returning += cols
                if sort_by_parameter_order:
                    self._sort_by_parameter_order = True
                return self

            def return_defaults(self):
                self._return_defaults = True
                return self

            def fetch(self, count, percent=False, with_ties=False):
                self._fetch = count
                self._fetch_options = {"with_ties": with_ties, "percent": percent}
                return self

            def where(self, *criteria):
                self._where_criteria += criteria
                return self


        class ValuesBase(UpdateBase):
            def values(self, **kw):
                if not kw:
                    raise ValueError("values() needs at least one value")
                self._values = kw
                return self


        class Insert(ValuesBase):
            _sort_by_parameter_order = False
            _multi = False

            def __init__(self, table):
                self.table = table


        def insert(table):
            return Insert(table)
        """,
    "stmts/compiler.py": """
        from __future__ import annotations

        from typing import TYPE_CHECKING

        from stmts import crud

        if TYPE_CHECKING:
            from stmts.dml import Insert, ValuesBase


        class CompileError(Exception):
            pass


        class State:
            _multi = False

            def __init__(self, stmt):
                self._multi = stmt._multi


        class Compiler:
            def visit_insert(self, insert_stmt, **kw):
                params = crud.get_params(self, insert_stmt, State(insert_stmt))
                if params:
                    if (
                        self.implicit or insert_stmt._returning
                    ) and insert_stmt._sort_by_parameter_order:
                        raise CompileError("RETURNING cannot be sorted here")
                return params

            def check_fetch(self, select):
                if select._fetch_options is not None and (
                    select._fetch_options["percent"] or select._fetch_options["with_ties"]
                ):
                    raise CompileError("PERCENT and WITH TIES need TOP here")

            def check_sync(self, statement, sync):
                if statement._where_criteria and sync == "evaluate":
                    raise CompileError(
                        "bulk synchronize of persistent objects not supported with WHERE "
                        "criteria. add synchronize_session=None execution option to bypass "
                        "synchronize of persistent objects."
                    )
        """,
    "stmts/crud.py": """
        from __future__ import annotations

        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from stmts.compiler import State
            from stmts.dml import ValuesBase


        class CompileError(Exception):
            pass


        def get_params(compiler, stmt: ValuesBase, compile_state: State):
            if stmt._returning and stmt._return_defaults:
                raise CompileError("Can't compile returning() and return_defaults() together")
            if compile_state._multi:
                raise CompileError("multi")
            return stmt._values
        """,
}


@pytest.fixture(scope="module")
def stmts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """HANDED indexed once for the tests that read it as it is."""
    yield from indexed_package(tmp_path_factory.mktemp("stmts"), "stmts", HANDED)


def test_both_chain_steps_that_set_what_a_handed_statement_is_refused_for(
    stmts: Store,
) -> None:
    site = next(
        s
        for s in stmts.list_sites("stmts")
        if s.site.function == "get_params" and "together" in str(s.site.message)
    )
    page = build_page(stmts, site.id)
    assert page.solutions[0].text == (
        "Don't call both `UpdateBase.returning()` and `UpdateBase.return_defaults()` on "
        "one object: `UpdateBase.returning()` sets `_returning` and "
        "`UpdateBase.return_defaults()` sets `_return_defaults` on the object it is called "
        "on, and `get_params` raises when its `stmt` has both set. Keep only one of those "
        "calls."
    )


def test_a_chain_step_under_its_own_switch_is_named_with_it(stmts: Store) -> None:
    page = page_in_function(stmts, "stmts", "Compiler.visit_insert")
    assert page.solutions[0].text == (
        "Build the object without `UpdateBase.returning(sort_by_parameter_order=True)`: it "
        "sets `_sort_by_parameter_order` on the object it is called on, and "
        "`Compiler.visit_insert` raises when its `insert_stmt` has it set."
    )


def test_no_chain_step_for_an_object_annotated_as_another_class(tmp_path: Path) -> None:
    """`compile_state._multi` is the compile state's own (annotated `State`): the chain
    step `ValuesBase.multi()` sets another object's, and is not named."""
    files = dict(HANDED)
    files["stmts/dml.py"] = HANDED["stmts/dml.py"].replace(
        "def values(self, **kw):",
        "def multi(self):\n"
        "                self._multi = True\n"
        "                return self\n\n"
        "            def values(self, **kw):",
    )
    for store in indexed_package(tmp_path, "stmts", files):
        site = next(
            s
            for s in store.list_sites("stmts")
            if s.site.function == "get_params"
            and s.site.message is not None
            and s.site.message.text == "multi"
        )
        page = build_page(store, site.id)
        assert not [s for s in page.solutions if "Build the object" in s.text]


def test_a_chain_step_setting_a_dict_of_its_arguments_is_named_with_those_the_test_reads(
    stmts: Store,
) -> None:
    page = page_in_function(stmts, "stmts", "Compiler.check_fetch")
    assert page.solutions[0].text == (
        "Build the object without `UpdateBase.fetch(percent=True)` or "
        "`UpdateBase.fetch(with_ties=True)`: each sets `_fetch_options` on the object it "
        "is called on, and `Compiler.check_fetch` raises when its `select` has it set."
    )


def test_no_chain_step_left_out_where_the_message_says_its_own_way(stmts: Store) -> None:
    """Leaving `where()` out of an UPDATE would change what it does: the message's option
    is the way out."""
    page = page_in_function(stmts, "stmts", "Compiler.check_sync")
    assert page.solutions
    assert not [s for s in page.solutions if "Build the object" in s.text]
