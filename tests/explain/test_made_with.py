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
