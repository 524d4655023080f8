"""The docstring of a public function the user calls says when it raises (a `Raises`
entry, a "Raises X if ..." sentence): where no rule on the code gives a way out, the page
says to call it only where that condition does not hold, quoted as written. A failure of
the world, a method the package calls itself, a private one and an entry of another raise
say nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

DOC = {
    "doc/__init__.py": "from doc.results import Result, Session\n",
    "doc/results.py": """
        class RequestError(Exception):
            pass


        class Result:
            def __init__(self, context):
                self._context = context

            def inserted_keys(self):
                \"\"\"The keys the statement inserted.

                Raises :class:`~doc.results.RequestError` if the executed statement is
                not an insert() construct.
                \"\"\"
                if not self._context.isinsert:
                    raise RequestError("Statement is not an insert() construct.")
                return self._context.keys

            def rows(self):
                \"\"\"The rows fetched.

                Raises:
                    RequestError: If the connection to the server times out.
                \"\"\"
                if self._context.timed_out:
                    raise RequestError("Server took too long.")
                return self._context.rows

            def columns(self):
                \"\"\"The columns.

                Raises:
                    RequestError: If the engine was disposed of.
                \"\"\"
                if self._context.closed:
                    raise RequestError("Result is closed.")
                return self._context.columns

            def _keys(self):
                \"\"\"Raises RequestError if the executed statement is not an insert().\"\"\"
                if not self._context.isinsert:
                    raise RequestError("Statement is not an insert() construct.")


        class Session:
            def __init__(self):
                self._begun = False

            def commit(self):
                \"\"\"Commit the transaction.

                :raises RuntimeError: when the session was not begun with begin().
                \"\"\"
                if not self._begun:
                    raise RuntimeError("Session not begun")
                self._begun = False

            def flush(self):
                \"\"\"Raises:
                    RuntimeError: If the session was not begun with begin().
                \"\"\"
                if not self._begun:
                    raise RuntimeError("Session not begun")

            def close(self):
                self.flush()
        """,
}


@pytest.fixture(scope="module")
def doc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("doc"), "doc", DOC)


def texts(store: Store, function: str) -> list[str]:
    return [s.text for s in page_in_function(store, "doc", function).solutions]


def test_the_docstrings_condition_is_the_way_out(doc: Store) -> None:
    assert texts(doc, "Result.inserted_keys") == [
        "Call `Result.inserted_keys` only where the reason its docstring gives for "
        "`RequestError` does not hold: it raises it “if the executed statement is not an "
        "insert() construct”."
    ]
    assert texts(doc, "Session.commit") == [
        "Call `Session.commit` only where the reason its docstring gives for `RuntimeError` "
        "does not hold: it raises it “when the session was not begun with begin()”."
    ]


def test_no_way_out_from_the_world_another_raise_or_not_the_users_call(doc: Store) -> None:
    assert texts(doc, "Result.rows") == []  # a timeout: no call avoids it
    assert texts(doc, "Result.columns") == []  # the entry is of another check
    assert texts(doc, "Result._keys") == []  # private
    assert texts(doc, "Session.flush") == []  # the package calls it itself (`close`)
