"""The texts linking parses are worked out once per text (and arguments), and the parses
shared between link modules are never changed by the one that reads them."""

from __future__ import annotations

import ast

from errdex.facts import Condition, ConditionKind
from errdex.link.expression_texts import parse_expression
from errdex.link.guards import bind_expression, bind_guard
from errdex.link.held_true import positive_parts


def _condition(test: str) -> Condition:
    return Condition(test=test, kind=ConditionKind.IF, holds=True, line=3)


def test_a_guard_is_bound_to_each_call_s_own_arguments() -> None:
    condition = _condition("mode == 'fast' and n > limit")
    fast, truth = bind_guard(condition, {"mode": "'fast'", "n": "size"})
    slow, decided = bind_guard(condition, {"mode": "'slow'", "n": "size"})
    assert (fast.text, truth) == ("'fast' == 'fast' and size > limit", None)
    assert (slow.text, decided) == ("'slow' == 'fast' and size > limit", False)
    # asked again: the same answers, and the condition's own fields kept
    again, truth_again = bind_guard(condition, {"mode": "'fast'", "n": "size"})
    assert (again, truth_again) == (fast, truth)
    assert again.line == 3 and again.test == condition.test


def test_a_guard_that_cannot_be_bound_is_left_as_it_is() -> None:
    condition = _condition("ok")
    assert bind_guard(condition, {"ok": "not ("}) == (condition, None)
    assert bind_guard(_condition("a +"), {"a": "1"}) == (_condition("a +"), None)


def test_an_expression_naming_no_parameter_is_kept_as_written() -> None:
    assert bind_expression("len( shape )", {"size": "n"}) == "len( shape )"
    assert bind_expression("len( shape )", {"shape": "meta.shape"}) == "len(meta.shape)"
    # a parameter's name inside another name, or in a string, is no use of it
    assert bind_expression("shapes + 'shape'", {"shape": "x"}) == "shapes + 'shape'"


def test_binding_leaves_the_shared_parses_unchanged() -> None:
    value = parse_expression("meta.shape")
    tree = parse_expression("len(shape) > 2")
    assert value is not None and tree is not None
    before = ast.dump(value), ast.dump(tree)
    assert bind_expression("len(shape) > 2", {"shape": "meta.shape"}) == "len(meta.shape) > 2"
    bound, _ = bind_guard(_condition("len(shape) > 2"), {"shape": "meta.shape"})
    assert bound.text == "len(meta.shape) > 2"
    assert (ast.dump(value), ast.dump(tree)) == before
    assert bind_expression("len(shape) > 2", {"shape": "other"}) == "len(other) > 2"


def test_positive_parts_are_a_new_list_each_time() -> None:
    first = positive_parts("a and not (not b.c or x < 1)")
    assert first == ["a", "b.c"]
    first.append("changed")
    assert positive_parts("a and not (not b.c or x < 1)") == ["a", "b.c"]
    assert positive_parts("a and") == []
