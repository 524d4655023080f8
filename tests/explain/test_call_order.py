"""A state a public method's check refuses (`self._closed`, `self._state == State.CLOSED`):
the class is parsed for the methods that set it only when its text may assign it that
value."""

from __future__ import annotations

import ast
import textwrap

import pytest
from text_facts import text_facts

from errdex.explain import call_order, context, parse_cache
from errdex.explain.call_order import may_assign, state_checks, state_test
from errdex.explain.page import ConditionView
from errdex.facts import ConditionKind

CLIENT = textwrap.dedent(
    """\
    class Client:
        def __init__(self, opened):
            self._closed = opened.closed()
            self._state = State.OPEN
            self.label = "_closed"

        def send(self):
            if self._closed:
                raise RuntimeError("closed")
            if self._state == State.CLOSED:
                raise RuntimeError("closed")
    """
)


@pytest.mark.parametrize(
    ("text", "state", "may"),
    [
        ("self._closed = True", ("_closed", "True"), True),
        ("self._closed = opened.closed()", ("_closed", "True"), False),
        ("self._closed == True", ("_closed", "True"), False),  # compared, not assigned
        ("self._closed_too = True", ("_closed", "True"), False),
        ("other_self._closed = True", ("_closed", "True"), False),
        ("self.a = self._closed = True", ("_closed", "True"), True),
        ("(self . _closed) = (True)", ("_closed", "True"), True),
        ("self._closed = (\n    True\n)", ("_closed", "True"), True),  # goes on past the line
        ("self._closed = \\\n    True", ("_closed", "True"), True),
        ("self._state = State.CLOSED", ("_state", "State.CLOSED"), True),
        ("self._state = State.OPEN", ("_state", "State.CLOSED"), False),
        ("ｓelf._closed = True", ("_closed", "True"), True),  # read as `self`
    ],
)
def test_a_text_may_assign_a_state_only_where_it_sets_the_attribute_to_the_value(
    text: str, state: tuple[str, str], may: bool
) -> None:
    assert may_assign(text, state) is may


def _checked(text: str, tested: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """(the states `state_order_solution`'s checks yield, the class parses they cost)."""
    parse_cache.clear()
    parsed: list[int] = []
    real = context.class_at

    def counted(source: str, start: int) -> ast.ClassDef | None:
        parsed.append(start)
        return real(source, start)

    monkeypatch.setattr(context, "class_at", counted)
    monkeypatch.setattr(call_order, "user_method", lambda *_: ("pkg.Client", "Client", "send"))
    condition = ConditionView(text=tested, test=tested, kind=ConditionKind.IF, holds=True, line=8)
    found = list(state_checks([condition], text_facts(text), state_test, may_assign))
    return len(found), len(parsed)


def test_a_state_no_method_assigns_its_value_is_passed_over_unparsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `_closed` is set from a call and named in a string; `_state` is set another member
    assert _checked(CLIENT, "self._closed", monkeypatch) == (0, 0)
    assert _checked(CLIENT, "self._state == State.CLOSED", monkeypatch) == (0, 0)
    closing = CLIENT + "\n    def close(self):\n        self._state = State.CLOSED\n"
    assert _checked(closing, "self._state == State.CLOSED", monkeypatch) == (1, 1)
