"""Sites that print alike, and pastes that say little: an exception printed without a
message (`pkg.nodes.Impossible` alone, as Python prints a package's exception whose `str()`
is empty), one text written with other names for its values, a message cut mid-word. The
sites are one result when nothing tells them apart; indexed into a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.match import lookup_text
from errdex.match.paste import parse_paste
from errdex.store.base import Store
from samples import indexed_store

PACKAGE = {
    "tpl/__init__.py": "",
    "tpl/nodes.py": """
        class Impossible(Exception):
            '''The node cannot do what was asked of it.'''

        class Const:
            def as_const(self, ctx):
                if ctx is None:
                    raise Impossible()
                return ctx

        class Filter:
            def as_const(self, ctx):
                if not ctx:
                    raise Impossible()
                return ctx

        def render(node):
            if node is None:
                raise ValueError("no node to render")
            return node
        """,
    "tpl/options.py": """
        def check(value):
            if value is None:
                raise ValueError("Invalid value")
            return value

        def parse(name, value):
            if not str(value).isdigit():
                raise ValueError(
                    f"Invalid value for the option {name}: expected a number, got {value!r}"
                )
            return int(value)
        """,
    "tpl/graphs.py": """
        class GraphError(Exception):
            pass

        def complete_graph(n):
            if n < 0:
                raise GraphError(f"Negative number of nodes not valid: {n}")
            return n

        def nodes_or_number(count):
            if count < 0:
                raise GraphError(f"Negative number of nodes not valid: {count}")
            return count

        def check_weights(weights, describe):
            for weight in weights:
                if weight < 0:
                    raise GraphError(describe(weight))
            return weights

        def check_nodes(nodes, explain):
            if not nodes:
                raise GraphError(explain(nodes))
            return nodes

        def lookup(table, key):
            if key not in table:
                raise KeyError(f"Negative number of nodes not valid: {key}")
            return table[key]
        """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = indexed_store(tmp_path_factory.mktemp("tpl"), "tpl", {"1.0": PACKAGE})
    yield db
    db.close()


def test_a_qualified_class_alone_is_read_as_an_exception() -> None:
    error = parse_paste("tpl.nodes.Impossible").errors[0]
    assert (error.exception, error.message) == ("tpl.nodes.Impossible", "")
    # A dotted name of a function or module is not a class: it stays a message.
    assert parse_paste("os.path.join").errors[0].exception is None


def test_raises_of_the_class_without_a_message_are_one_result(store: Store) -> None:
    result = lookup_text(store, "tpl.nodes.Impossible")
    best = result.matches[0]
    # The other site follows as a candidate of its own, marked as printing the same text.
    assert [m.same_text_as for m in result.matches[1:]] == [best.id]
    assert best.raised_at == 2
    assert {best.function, *(o.function for o in best.others)} == {
        "Const.as_const",
        "Filter.as_const",
    }
    assert not best.confident  # nothing in the paste says which of the two raised


def test_a_frame_still_tells_them_apart(store: Store) -> None:
    paste = """\
Traceback (most recent call last):
  File "/app/main.py", line 3, in <module>
    node.as_const(ctx)
  File "/venv/lib/python3.12/site-packages/tpl/nodes.py", line 14, in as_const
    raise Impossible()
tpl.nodes.Impossible"""
    best = lookup_text(store, paste).matches[0]
    assert (best.function, best.line, best.raised_at) == ("Filter.as_const", 14, 1)
    assert best.confident


def test_one_text_with_other_names_for_its_values_is_one_result(store: Store) -> None:
    best = lookup_text(store, "tpl.graphs.GraphError: Negative number of nodes not valid: -1")
    first = best.matches[0]
    assert first.raised_at == 2 and not first.confident
    assert {first.function, *(o.function for o in first.others)} == {
        "complete_graph",
        "nodes_or_number",
    }
    # Another class prints another line: the KeyError's raise is no part of it.
    assert all(m.function != "lookup" for m in [first, *first.others])


def test_a_message_cut_mid_word_is_read_as_cut(store: Store) -> None:
    # The class alone matches many raises of it; the cut text still finds its template.
    first = lookup_text(store, "tpl.graphs.GraphError: Negative number of nodes not va").matches[0]
    assert not first.guess  # the text, not the class alone, chose it
    assert {first.function, *(o.function for o in first.others)} == {
        "complete_graph",
        "nodes_or_number",
    }


def test_a_class_raised_with_computed_messages_is_never_claimed(store: Store) -> None:
    # The words of a guard rank one raise first; they are no evidence it is the one.
    result = lookup_text(store, "tpl.graphs.GraphError: a weight below zero")
    first = result.matches[0]
    assert (first.function, first.guess, first.confident) == ("check_weights", True, False)
    assert "check_nodes" in {m.function for m in result.matches}


def test_a_short_message_and_a_longer_one_it_starts(store: Store) -> None:
    # Exactly the short message: its own template, not the longer one it is a prefix of.
    assert lookup_text(store, "ValueError: Invalid value").matches[0].function == "check"
    # Cut at a word's end: the longer template read as cut beats the short one found
    # inside the paste with text left over.
    cut = lookup_text(store, "ValueError: Invalid value for the option").matches
    assert [m.function for m in cut[:2]] == ["parse", "check"]
    assert (
        lookup_text(store, "Invalid value for the option port: expected a numb").matches[0].function
        == "parse"
    )
