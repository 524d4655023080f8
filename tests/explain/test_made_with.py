"""A private method refusing an object a public method set up another way: the page says
not to call the public methods that reach it on an object made with that one."""

from __future__ import annotations

from pathlib import Path

from explain_samples import indexed_package, page_in_function

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
