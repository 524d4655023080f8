"""What "What it means" says of a site past a `for` loop that returns from its function: it
is reached only when the loop ran out, and, when the loop returns on a test of each item,
that no item passed it (`for c in CHOICES: if value == c: return c` then a raise: raised
when `value` equals no item of `CHOICES`). The condition is the extractor's
(`extract/loop_exits.py`, kind `ConditionKind.NO_MATCH`), bound to a caller's arguments
when the loop is a helper's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from errdex.explain.plain import code
from errdex.facts import ConditionKind, ConditionRecord
from errdex.link.expression_texts import negated_call


def ran_out_sentences(conditions: Iterable[ConditionRecord]) -> list[str]:
    """One sentence for each loop the site is reached past, in path order."""
    return [_sentence(c) for c in conditions if c.kind is ConditionKind.NO_MATCH]


def _sentence(condition: ConditionRecord) -> str:
    matched = _no_item(condition.text)
    if matched is None:
        # the text: a helper's loop, its iterable in the caller's terms
        header = condition.text if condition.text.startswith("for ") else condition.test
        return (
            f"It happens only when the loop {code(header)} runs to its end: the function "
            "that runs it returns from inside the loop otherwise."
        )
    target, iterable, test = matched
    return (
        f"It happens only when no item {code(target)} of {code(iterable)} passes "
        f"{code(test)}: the loop over it returns on the first item that does."
    )


def _no_item(text: str) -> tuple[str, str, str] | None:
    """(target, iterable, test) of `not any(TEST for TARGET in ITERABLE)`; None otherwise."""
    call = negated_call(text, "any")
    if not (
        call is not None
        and len(call.args) == 1
        and isinstance(call.args[0], ast.GeneratorExp)
        and len(call.args[0].generators) == 1
    ):
        return None
    made = call.args[0]
    loop = made.generators[0]
    target = loop.target
    # `k, v` rather than the `(k, v)` `ast.unparse` writes
    shown = (
        ", ".join(ast.unparse(e) for e in target.elts)
        if isinstance(target, ast.Tuple)
        else ast.unparse(target)
    )
    return shown, ast.unparse(loop.iter), ast.unparse(_without_false(made.elt))


def _without_false(test: ast.expr) -> ast.expr:
    """`a or b` of `a or (False and c) or b`: a helper's flag bound to a caller's `False`
    leaves a part no item can pass."""
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or)):
        return test
    kept = [v for v in test.values if not _surely_false(v)]
    if not kept or len(kept) == len(test.values):
        return test
    return kept[0] if len(kept) == 1 else ast.BoolOp(op=ast.Or(), values=kept)


def _surely_false(part: ast.expr) -> bool:
    return (
        isinstance(part, ast.BoolOp)
        and isinstance(part.op, ast.And)
        and any(isinstance(v, ast.Constant) and v.value is False for v in part.values)
    )
