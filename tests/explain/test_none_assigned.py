"""A check that a constructor-set attribute is None offers "give the keyword a value" only
when the keyword's None is what the attribute holds: not when the constructor sets the
attribute only under a condition on another keyword, nor when it reads a part of the
keyword (`config.size`) first, so a None keyword would have failed there."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

CONN = {
    "conn/__init__.py": "",
    "conn/parts.py": """
        class Connector:
            def __init__(self, config, role):
                self.worker = None
                if role == "worker":
                    self.worker = self._make(config)

            def _make(self, config):
                return [config]

            def load(self):
                if self.worker is None:
                    raise RuntimeError("no worker here")
                return self.worker


        class Engine:
            def __init__(self, config):
                self.size = config.size
                self.runner = build(config)

            def run(self):
                if self.runner is None:
                    raise RuntimeError("no runner")
                return self.runner


        class Hooks:
            def __init__(self, handler=None):
                self.handler = handler

            def fire(self):
                if self.handler is None:
                    raise ValueError("no handler given")
                return self.handler


        class Guarded:
            def __init__(self, sink=None, level=1):
                self.sink = None
                if sink is not None:
                    self.sink = sink

            def write(self):
                if self.sink is None:
                    raise ValueError("no sink given")
                return self.sink


        class Session:
            def __init__(self, pool, link=None):
                if link is None:
                    self.link = pool.open()
                else:
                    self.link = link

            def close(self):
                self.link = None

            def cursor(self):
                if self.link is None:
                    raise ValueError("closed")
                return self.link


        class Opened:
            def __init__(self, pool, link=None):
                if link is not None:
                    self.link = link
                else:
                    self.link = pool.open()

            def fetch(self, query):
                if self.link is None:
                    raise RuntimeError("no link to fetch " + query)
                return self.link.run(query)


        def build(config):
            return config
        """,
}


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("conn"), "conn", CONN)


def _solutions(store: Store, function: str) -> str:
    return "\n".join(s.text for s in page_in_function(store, "conn", function).solutions)


def test_an_attribute_set_only_under_another_keyword_names_no_argument(conn: Store) -> None:
    # before: "Give the argument `config` of `Connector` a value (it is None here)."; the
    # attribute is None when `role` is not "worker", whatever `config` is
    assert "`config`" not in _solutions(conn, "Connector.load")


def test_a_keyword_the_constructor_reads_a_part_of_is_never_the_none(conn: Store) -> None:
    # before: "Give the argument `config` of `Engine` a value (it is None here)."; a None
    # `config` fails on `config.size` before `self.runner` is set
    assert "`config`" not in _solutions(conn, "Engine.run")


def test_a_keyword_kept_as_it_is_still_names_the_argument(conn: Store) -> None:
    expected = "Give the argument `handler` of `Hooks` a value (it is None here)."
    assert expected in _solutions(conn, "Hooks.fire")


def test_a_guard_on_the_keyword_itself_still_names_the_argument(conn: Store) -> None:
    expected = "Give the argument `sink` of `Guarded` a value (it is None here)."
    assert expected in _solutions(conn, "Guarded.write")


@pytest.mark.parametrize("function", ["Session.cursor", "Opened.fetch"])
def test_a_keyword_whose_none_the_constructor_fills_is_never_the_none(
    conn: Store, function: str
) -> None:
    # a None `link` makes the constructor open one: the attribute is None because something
    # else set it so (`close`), and passing a link to the constructor does not undo that
    assert "`link`" not in _solutions(conn, function)
