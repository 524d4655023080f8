"""Where a generator's or a coroutine's body runs: where the calls of it in a caller are
iterated or awaited (`explain/deferred_calls.py`)."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator

import pytest

from errdex.explain import deferred_calls
from errdex.explain.deferred_calls import Deferred, name_lines, runs_where_called

CALLER = textwrap.dedent(
    """
    def caller(data):
        for item in gen(data):
            print(item)
        items = list(gen(data))
        text = ", ".join(gen(data))
        pairs = sorted(enumerate(gen(data)))
    """
)


def test_each_call_of_a_caller_is_read_on_one_map_of_its_parents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    function = ast.parse(CALLER).body[0]
    calls = [call for call, _ in name_lines(function, "gen")]
    assert len(calls) == 4
    walked: list[ast.AST] = []
    walk = deferred_calls.walk

    def counted(node: ast.AST) -> Iterator[ast.AST]:
        walked.append(node)
        return walk(node)

    monkeypatch.setattr(deferred_calls, "walk", counted)
    assert runs_where_called(function, calls, Deferred.ITERATED)
    assert walked == [function]  # the function walked once, not once a call


def test_a_call_only_made_there_is_not_run_there() -> None:
    function = ast.parse(CALLER + "    made = gen(data)\n").body[0]
    calls = sorted((call for call, _ in name_lines(function, "gen")), key=lambda c: c.lineno)
    assert not runs_where_called(function, calls, Deferred.ITERATED)
    assert runs_where_called(function, calls[:-1], Deferred.ITERATED)
    assert not runs_where_called(function, calls[:1], Deferred.AWAITED)  # not awaited
