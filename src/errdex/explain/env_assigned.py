"""The environment variable that sets a local the check tests, under its own `if`.

vllm's `init_nvfp4_linear_kernel` starts with `force_kernel = None`, sets it to CUTLASS or
emulation under `if envs.VLLM_BATCH_INVARIANT:` (the comment above says the variable
"overrides --linear-backend") and to a W4A16 kernel in the `elif`; the raise tests
`force_kernel is not None` and `use_a16 and force_kernel not in a16_kernels`. The way out
is the variable: the values set under it fail the check, the others (members of
`a16_kernels`) do not. The rule reads the site's function: each assignment of the local
before the site, whether it lies in the body of an `if` that tests an environment variable
(`envs.NAME`, `os.environ.get("NAME")`, `os.getenv("NAME")`), and whether its value is
a member of the tuple the check requires (then it passes the check). When every value
that may fail the check is set under the same variable, unsetting it is the way out.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import Change, ConditionView, Solution
from errdex.explain.plain import code
from errdex.link.expression_texts import parse_expression

_FALSY = (None, False, 0, "")
_MAX_LISTED = 3


@dataclass(frozen=True)
class _Assigned:
    value: ast.expr
    line: int
    variable: str | None  # the variable whose `if` body holds it, if any


def env_assigned_solution(facts: Facts, conditions: list[ConditionView]) -> Solution | None:
    """ "Unset `NAME`", when every value of a tested local that can fail the check is set
    under `if` on that variable; None otherwise."""
    tested = _tested_locals(conditions, facts)
    function = facts.site_function() if tested else None  # parsed only for a tested local
    if function is None:
        return None
    line = facts.stored.site.line
    tuples = _local_tuples(facts)
    for name in tested:
        assigned = _assignments(function, name, line)
        if not assigned:
            continue
        members = _required_members(conditions, name, tuples)
        failing = [a for a in assigned if not _passes(a.value, members)]
        variables = {a.variable for a in failing}
        if not failing or len(variables) != 1 or None in variables:
            continue
        (variable,) = variables
        assert variable is not None
        values = ", ".join(code(ast.unparse(a.value)) for a in failing[:_MAX_LISTED])
        lines = ", ".join(str(a.line) for a in failing[:_MAX_LISTED])
        text = (
            f"Unset the environment variable `{variable}`: where it is set, "
            f"`{name}` is {values} (line{'s' if len(failing) > 1 else ''} {lines}), "
            "which this check refuses"
        )
        if members is not None:
            text += "; the values set without it pass"
        return Solution(
            text=text + ".",
            knob=variable,
            # the first condition on the local: what the setting decides, no context
            condition=next(c.text for c in conditions if name in _names(c.text)),
            kind="setting",
            change=Change(form="env", target=variable, before="1", after=None),
        )
    return None


def _tested_locals(conditions: list[ConditionView], facts: Facts) -> list[str]:
    """The locals the conditions test that start out empty (`force_kernel = None`)."""
    first = {
        b.name: b.value
        for b in facts.bindings
        if b.origin == "local" and b.value in ("None", "False", "0", "''", '""')
    }
    names: list[str] = []
    for condition in conditions:
        for node in walk(parse_expression(condition.text) or ast.Constant(None)):
            if isinstance(node, ast.Name) and node.id in first and node.id not in names:
                names.append(node.id)
    return names


def _names(text: str) -> set[str]:
    node = parse_expression(text)
    return {n.id for n in walk(node) if isinstance(n, ast.Name)} if node else set()


def _local_tuples(facts: Facts) -> dict[str, set[str]]:
    """The locals bound to a tuple, list or set of names: `a16_kernels = (A, B)`."""
    out: dict[str, set[str]] = {}
    for binding in facts.bindings:
        node = parse_expression(binding.value)
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            out[binding.name] = {ast.unparse(e) for e in node.elts}
    return out


def _required_members(
    conditions: list[ConditionView], name: str, tuples: dict[str, set[str]]
) -> set[str] | None:
    """The members `name` must be one of to pass: the check tests `name not in T`."""
    for condition in conditions:
        for node in walk(parse_expression(condition.text) or ast.Constant(None)):
            if (
                isinstance(node, ast.Compare)
                and len(node.ops) == 1
                and isinstance(node.ops[0], ast.NotIn)
                and isinstance(node.left, ast.Name)
                and node.left.id == name
            ):
                right = node.comparators[0]
                if isinstance(right, ast.Name) and right.id in tuples:
                    return tuples[right.id]
                if isinstance(right, ast.Tuple | ast.List | ast.Set):
                    return {ast.unparse(e) for e in right.elts}
    return None


def _passes(value: ast.expr, members: set[str] | None) -> bool:
    """Whether the value set passes the check: a member of what it requires, or empty."""
    if isinstance(value, ast.Constant) and value.value in _FALSY:
        return True
    return members is not None and ast.unparse(value) in members


def _assignments(function: ast.FunctionDef, name: str, line: int) -> list[_Assigned]:
    """Each `name = value` before `line` but the first, with the variable whose `if` body
    holds it."""
    found: list[_Assigned] = []

    def walk(body: list[ast.stmt], variable: str | None) -> None:
        for statement in body:
            if statement.lineno >= line:
                return
            if isinstance(statement, ast.Assign | ast.AnnAssign):
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                if statement.value is not None and any(
                    isinstance(t, ast.Name) and t.id == name for t in targets
                ):
                    found.append(_Assigned(statement.value, statement.lineno, variable))
            elif isinstance(statement, ast.If):
                tested = _env_tested(statement.test)
                walk(statement.body, tested or variable)
                walk(statement.orelse, variable)
            elif isinstance(statement, ast.For | ast.While | ast.With | ast.Try):
                for inner in ("body", "orelse", "finalbody"):
                    walk(getattr(statement, inner, []) or [], variable)

    walk(function.body, None)
    return found[1:] if found and _empty(found[0].value) else found


def _empty(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value in _FALSY


def _env_tested(test: ast.expr) -> str | None:
    """The variable an `if` test reads as true: `envs.NAME`, `os.environ.get("NAME")`,
    `os.getenv("NAME")`."""
    if (
        isinstance(test, ast.Attribute)
        and isinstance(test.value, ast.Name)
        and test.value.id == "envs"
        and test.attr.isupper()
    ):
        return test.attr
    if isinstance(test, ast.Call) and test.args and isinstance(test.args[0], ast.Constant):
        callee = ast.unparse(test.func)
        if callee in ("os.environ.get", "os.getenv") and isinstance(test.args[0].value, str):
            return test.args[0].value
    return None
