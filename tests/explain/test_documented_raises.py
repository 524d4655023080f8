"""The docstring of a public function the user calls says when it raises (a `Raises`
entry, a "Raises X if ..." sentence): where no rule on the code gives a way out, the page
says to call it only where that condition does not hold, quoted as written. A failure of
the world, a method the package calls itself, a private one and an entry of another raise
say nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.explain.build import gather_facts
from errdex.explain.documented_raises import documented_raise_solution
from errdex.store import Store

DOC = {
    "doc/__init__.py": "from doc.results import FileLoader, Loader, Pool, Result, Session\n",
    "doc/purge.py": """
        from doc.results import CURRENT


        def purge(limit):
            return CURRENT.deleted_keys(limit=limit)
        """,
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

            def scalar(self, statement):
                \"\"\"The first column of the first row.

                Raises:
                    RequestError: If the statement is not a :class:`~doc.results.Select`.
                        Use :meth:`.execute` for any other statement.
                \"\"\"
                if not self._context.is_select(statement):
                    raise RequestError("Statement is not a select.")
                return self._context.first

            def cached(self, key):
                \"\"\"Look a key up.

                Raises KeyError if the key is unknown. Raises RuntimeError when the cache
                was closed.
                \"\"\"
                if self._context.closed:
                    raise RuntimeError("cache closed")
                return self._context.cache[key]

            def deleted_keys(self, limit=None):
                \"\"\"Raises RequestError if the executed statement is not a delete().\"\"\"
                if not self._context.isdelete:
                    raise RequestError("Statement is not a delete() construct.")
                return self._context.keys

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


        class Pool:
            def __init__(self, name):
                \"\"\"A pool of one name.

                Raises:
                    LookupError: If the pool registry holds no slot for the name.
                \"\"\"
                if not REGISTRY.slot(name):
                    raise LookupError("No registry slot for this pool.")
                self.name = name


        class Loader:
            def load(self):
                \"\"\"Raises NotImplementedError if the loader has no source to read.\"\"\"
                raise NotImplementedError("Loaders read their source in load().")


        class FileLoader(Loader):
            def load(self):
                return 1


        CURRENT = Result(None)


        REGISTRY = {}
        """,
}


@pytest.fixture(scope="module")
def doc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("doc"), "doc", DOC)


def texts(store: Store, function: str) -> list[str]:
    return [s.text for s in page_in_function(store, "doc", function).solutions]


def said(done: str, raised: str, condition: str, of: str = "") -> list[str]:
    """The one way out, as the rule words it: `done` "only where" it does not hold (`of`
    the object it is called on), or `done` "an argument `x` for which" it does not."""
    where = "" if done.startswith("Give ") else " only where"
    return [
        f"{done}{where} the reason its docstring gives for `{raised}` does not hold{of}: it "
        f"raises it “{condition}”."
    ]


def test_the_docstrings_condition_is_the_way_out(doc: Store) -> None:
    of_result = " of the `Result` it is called on"
    assert texts(doc, "Result.inserted_keys") == said(
        "Call `Result.inserted_keys`",
        "RequestError",
        "if the executed statement is not an insert() construct",
        of_result,
    )
    assert texts(doc, "Session.commit") == said(
        "Call `Session.commit`",
        "RuntimeError",
        "when the session was not begun with begin()",
        " of the `Session` it is called on",
    )
    # the why quotes no docstring sentence that holds the condition again
    page = page_in_function(doc, "doc", "Result.inserted_keys")
    assert not [q for q in page.why if "insert() construct" in q.text], page.why


def test_no_way_out_from_the_world_another_raise_or_not_the_users_call(doc: Store) -> None:
    assert texts(doc, "Result.rows") == []  # a timeout: no call avoids it
    assert texts(doc, "Result.columns") == []  # the entry is of another check
    assert texts(doc, "Result._keys") == []  # private
    assert texts(doc, "Session.flush") == []  # the package calls it itself (`close`)


def test_a_later_sentence_of_this_exception_and_a_google_entry_with_roles(doc: Store) -> None:
    # the first "Raises" sentence names another exception: the next one is read
    # (of the object's state: its argument `key` is not named)
    assert texts(doc, "Result.cached") == said(
        "Call `Result.cached`",
        "RuntimeError",
        "when the cache was closed",
        " of the `Result` it is called on",
    )
    # only the entry's first sentence, a Sphinx role written as code; of the argument the
    # condition names: the caller's input
    assert texts(doc, "Result.scalar") == said(
        "Give `Result.scalar` an argument `statement` for which",
        "RequestError",
        "if the statement is not a `Select`",
    )


def test_a_constructor_and_not_an_override_or_a_method_the_package_calls(doc: Store) -> None:
    assert texts(doc, "Pool.__init__") == said(
        "Give `Pool` an argument `name` for which",
        "LookupError",
        "if the pool registry holds no slot for the name",
    )
    assert texts(doc, "Result.deleted_keys") == []  # the package calls it (through CURRENT)
    # a default FileLoader replaces: its page says so, and the docstring's rule is none
    (loader,) = [s for s in doc.list_sites("doc") if s.site.function == "Loader.load"]
    facts = gather_facts(loader)
    facts.source_text = doc.file_text(loader.version_id, loader.file)
    assert documented_raise_solution(facts) is None
