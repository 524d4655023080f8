"""The earlier tests of an `if`/`elif` chain as the path holds them
(`chain_branches.chain_arms`), read by `kept_argument` and `inputs.with_chain_values`."""

from __future__ import annotations

import textwrap

from errdex.explain.chain_branches import chain_arms
from errdex.explain.page import ConditionView
from errdex.extract import extract_file

SOURCE = """
    def pick(mode, load):
        if mode == 1:
            begin()
        elif mode == 2:
            end()
        if load == "inline":
            raise ValueError("inline")
        elif load in ("a", "b"):
            pass
        elif load is not None:
            raise ValueError("unknown load")
        if load == "x":
            pass
        elif load == "y":
            raise ValueError("y")
    """


def conditions(message: str) -> list[ConditionView]:
    facts = extract_file("pkg/pick.py", textwrap.dedent(SOURCE).encode())
    (site,) = [s for s in facts.sites if s.message is not None and s.message.text == message]
    return [
        ConditionView(text=c.statement, test=c.test, kind=c.kind, holds=c.holds, line=c.line)
        for c in site.conditions
    ]


def test_the_earlier_arms_of_the_raises_own_chain_nearest_first() -> None:
    held = conditions("unknown load")
    arms = chain_arms(held, held[-1])
    assert [a.test for a in arms] == ['load in ("a", "b")', 'load == "inline"']


def test_an_earlier_chain_that_exits_is_no_arm() -> None:
    held = conditions("y")  # the chain above raises: an exit, not an arm of this chain
    assert [a.test for a in chain_arms(held, held[-1])] == ['load == "x"']


def test_the_first_test_of_a_chain_has_no_earlier_arm() -> None:
    held = conditions("inline")
    assert chain_arms(held, held[-1]) == []
