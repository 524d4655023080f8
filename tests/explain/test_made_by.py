"""A class that checks it was made by the class whose constructor takes it as a default asks
for that maker; a check of a class that takes another class by default gets no such way
out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, offered, page_in_function

from errdex.store import Store

FILES = {
    "shards/__init__.py": "",
    "shards/session.py": """
        class Query:
            def __init__(self, entities, session=None):
                self.entities = entities
                self.session = session


        class ShardedQuery(Query):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                assert isinstance(self.session, ShardedSession)

            def merge(self, other):
                if not isinstance(other, ShardedSession):
                    raise TypeError("merge() takes a ShardedSession")
                return other


        class Session:
            def __init__(self, query_cls=Query):
                self.query_cls = query_cls


        class ShardedSession(Session):
            def __init__(self, shards=None, query_cls=ShardedQuery):
                super().__init__(query_cls=query_cls)
                self.shards = shards


        class Checked:
            def __init__(self, session):
                assert isinstance(session, Session)
                self.session = session
        """,
}


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shards"), "shards", FILES)


def test_a_class_made_by_another_asks_for_its_maker(shards: Store) -> None:
    page = page_in_function(shards, "shards", "ShardedQuery.__init__")
    assert page.solutions[0].text == (
        "Make the `ShardedQuery` through a `ShardedSession`, whose `query_cls=` defaults to "
        "it: this check (line 11) needs `self.session` to be a `ShardedSession`; a "
        "`ShardedQuery` given as `query_cls=` to a class that is no `ShardedSession` fails it."
    )


def test_a_class_no_maker_takes_by_default_gets_none(shards: Store) -> None:
    page = page_in_function(shards, "shards", "Checked.__init__")
    assert not any(s.text.startswith("Make the") for s in page.solutions)
    assert offered(page) == [
        "Pass the argument `session` of `Checked` as an instance of `Session`."
    ]


def test_an_argument_the_user_hands_a_method_is_no_maker(shards: Store) -> None:
    # `merge(other)` checks what the user passes it, not how the query was made
    page = page_in_function(shards, "shards", "ShardedQuery.merge")
    assert not any(s.text.startswith("Make the") for s in page.solutions)
    assert offered(page) == [
        "Pass the argument `other` of `ShardedQuery.merge` as an instance of `ShardedSession`."
    ]
