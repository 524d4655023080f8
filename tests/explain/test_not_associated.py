"""A message that says the user's object is not yet part of its holder (a column not in a
table, an index on no table, a key with no column, a record bound to no `Registry` the
package hands out): the way out is to put it there first. A holder that is the program's
own (a worker, a class no public path or only a deep one reaches) gets nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, first_way_out, indexed_package, offered, page_with_message

from errdex.store import Store

FILES = {
    "tables/__init__.py": "from tables.schema import Column, Key, Index, Record, Registry\n",
    "tables/deep/__init__.py": '"""Internals."""\n',
    "tables/deep/inner/__init__.py": '"""Internals."""\n',
    "tables/deep/inner/pool.py": """
        class Pool:
            def __init__(self, size):
                if size < 1:
                    raise ValueError("size must be at least 1")
                self.size = size


        class Slot:
            def __init__(self):
                self.pool = None

            def take(self):
                if self.pool is None:
                    raise RuntimeError("Slot is not bound to a Pool; take cannot proceed")
        """,
    "tables/schema.py": """
        class InvalidRequest(Exception):
            pass


        class Column:
            def __init__(self, name, *keys):
                self.name = name
                self.table = None
                for key in keys:
                    key.parent = self


        class Key:
            def __init__(self, target):
                self.target = target
                self.parent = None

            def resolve(self):
                if self.parent is None:
                    raise InvalidRequest(
                        "this Key object does not yet have a parent Column associated with it."
                    )
                elif self.parent.table is None:
                    raise InvalidRequest(
                        "this Key's parent column is not yet associated with a Table."
                    )
                return self.parent.table


        class Index:
            def __init__(self, name):
                self.name = name
                self.table = None

            def create(self):
                if self.table is None:
                    raise InvalidRequest("Index '%s' is not associated with any table." % self.name)


        class Session:
            def __init__(self):
                self.worker = None

            def send(self):
                if self.worker is None:
                    raise InvalidRequest("this session is not associated with a worker.")


        class Registry:
            def __init__(self, name):
                if not name:
                    raise InvalidRequest("a registry needs a name")
                self.name = name

            def add(self, record):
                record.registry = self


        class Record:
            def __init__(self, key):
                self.key = key
                self.registry = None

            def load(self, attribute):
                if self.registry is None:
                    raise InvalidRequest(
                        "Parent record %s is not bound to a Registry; load of attribute '%s' "
                        "cannot proceed" % (self.key, attribute)
                    )

            def step(self):
                if self.registry is None:
                    raise InvalidRequest("Record %s is not bound to a Scheduler." % self.key)


        class Request:
            def __init__(self, name):
                self.name = name
                self.scheduler = None

            def step(self):
                if self.scheduler is None:
                    raise InvalidRequest(
                        "Request '%s' is not associated with any Scheduler." % self.name
                    )
        """,
}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("tables"), "tables", FILES)


def _first(store: Store, message: str) -> str:
    return first_way_out(store, "tables", message)


def test_an_object_not_yet_in_its_holder_is_put_there_first(tables: Store) -> None:
    assert _first(tables, "this Key's parent column").startswith(
        "Associate this Key's parent column with a Table first (add it to one), then make the "
        "call that raised: the message says"
    )
    assert _first(tables, "Index '").startswith(
        "Associate the Index “NAME” with a table first (add it to one), then make the call "
        "that raised"
    )


def test_an_object_with_no_holder_of_its_own_gets_one_first(tables: Store) -> None:
    assert _first(tables, "this Key object does not yet have").startswith(
        "Give this Key object a parent Column first (add it to one), then make the call that "
        "raised: the message says"
    )


def test_an_object_bound_to_no_holder_the_package_hands_out_is_added_to_one(
    tables: Store,
) -> None:
    assert _first(tables, "Parent record") == (
        "Add the parent record the message names to a `Registry` (`tables.Registry`) first, or "
        "keep it in the one it came from until this call, then make the call that raised: the "
        "message says “Parent record … is not bound to a Registry”."
    )


@pytest.mark.parametrize(
    "message",
    [
        "this session is not associated",
        # bound to a class no public path reaches, or only one deep in the package
        "Record ",
        "Slot is not bound",
        # a holder named as a class is no kind of code the user declares by its capital
        "Request '",
    ],
)
def test_a_holder_of_the_program_s_own_is_no_declaration(tables: Store, message: str) -> None:
    page = page_with_message(tables, "tables", message)
    assert not any(s.text.startswith(("Associate", "Add")) for s in page.solutions)
    assert offered(page) == [] and checks(page), message  # nothing else either
