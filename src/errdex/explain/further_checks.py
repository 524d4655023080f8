"""A setting a way out gives "a value" (any value) whose value the function checks again.

vllm's `get_num_sms_for_selection` raises "Cannot determine the target GPU's SM count; set
FLASH_ATTENTION_NUM_SMS ..." when the variable is unset; set, its value goes on to
`num_sms = int(override)` and `if num_sms <= 0: raise ValueError(...)`. And `patch()` of its
ptxas hook asserts `CUTE_DSL_PTXAS_PATH is not None`, then raises unless the path is an
executable file, then asserts a second variable. "Set it to a value" alone leads into those
checks: the way out names the lines the value (and the run) must get past as well.

A check of a second variable against a literal (`assert os.environ.get("CUTE_DSL_KEEP_PTX",
"0") == "1"`) is passed by no value of the first: its companion value is named
("and set `CUTE_DSL_KEEP_PTX=1` with it"), here or in another function of the file that reads
the same variable and makes that check at its top (`patch()`, for `_compile_ptx`'s assert of
the variable: the hook it installs is the only way there). Followed as written, the way out
then meets neither check.

Read from the site's function alone: a test of the same names (or of a local computed from
them) under which the function raises, and the checks that follow the site's statement in its
block. A test that is itself a None test of the names is the site's own condition (or its
other side), not a further check.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import replace

from errdex.ast_walk import walk
from errdex.explain.context import Facts, holding_path
from errdex.explain.knob_actions import KnobAction
from errdex.explain.page import ConditionView
from errdex.extract.conditions import dotted_names
from errdex.extract.knobs import env_read_of
from errdex.extract.shapes import is_none


def past_further_checks(action: KnobAction, condition: ConditionView, facts: Facts) -> KnobAction:
    """`action` with the lines of the checks its value must get past as well, when it sets a
    setting to any value and the function checks that value again (or goes straight on to
    other checks)."""
    if not action.any_value:
        return action
    function = facts.site_function()
    lines = further_check_lines(
        function, condition.test, facts.stored.site.line, condition.line or facts.stored.site.line
    )
    value_lines, other_lines = lines or ([], [])
    # a second variable the next check requires at one value: no value of this one passes
    # it, so its own value is said
    paired = [c for line in other_lines if (c := _companion_at(function, line, action.knob))]
    other_lines = [line for line in other_lines if all(line != c[0] for c in paired)]
    elsewhere = _companion_elsewhere(action.knob, function, facts) if not paired else None
    if not value_lines and not other_lines and not paired and elsewhere is None:
        return action
    text = action.text
    if value_lines:
        text += f" that gets past {_checks_at(value_lines)} as well"
    if other_lines:
        # a check of something else that the run meets next (a second variable): named, so
        # that the way out does not stop short of it
        text += f"{',' if value_lines else ''} and pass {_checks_at(other_lines)} after it too"
    for line, name, value in paired[:2]:
        # no parenthesis of its own: the solution's reason "(so that ...)" follows it
        text += f", and set `{name}={value}` with it, as the check at line {line} requires"
    if elsewhere is not None:
        line, name, value, owner = elsewhere
        text += (
            f", and set `{name}={value}` with it, as `{owner}` requires at line {line} "
            f"where it reads `{action.knob}` too"
        )
    return replace(action, text=text)


def _companion_at(
    function: ast.FunctionDef | None, line: int, knob: str
) -> tuple[int, str, str] | None:
    """(line, variable, value) of the check at `line` of `function` when it requires
    another environment variable than `knob` at one literal value."""
    if function is None:
        return None
    for node in walk(function):
        if isinstance(node, ast.If | ast.Assert) and node.lineno == line:
            found = required_env_value(node)
            return (line, *found) if found is not None and found[0] != knob else None
    return None


def _companion_elsewhere(
    knob: str, function: ast.FunctionDef | None, facts: Facts
) -> tuple[int, str, str, str] | None:
    """(line, variable, value, function) of a check, at the top of another function of the
    site's file that reads `knob` too, that requires a second environment variable at one
    literal value: setting `knob` for this check leads into that one wherever that function
    runs. Only for a variable the file reads once, into a module-level name (vllm's
    `CUTE_DSL_PTXAS_PATH = os.environ.get("CUTE_DSL_PTXAS_PATH", None)`), so that every
    reader of the name reads the setting."""
    if function is None or not knob.isupper() or knob not in (facts.source_text or ""):
        return None
    tree = facts.source_tree()
    if tree is None:
        return None
    names = {
        target.id
        for statement in tree.body
        if isinstance(statement, ast.Assign) and env_read_of(statement.value) == knob
        for target in statement.targets
        if isinstance(target, ast.Name)
    }
    if not names:
        return None
    for other in tree.body:
        if not isinstance(other, ast.FunctionDef) or other.name == function.name:
            continue
        if not any(isinstance(n, ast.Name) and n.id in names for n in walk(other)):
            continue
        for check in _checks_in(other.body):
            found = required_env_value(check)
            if found is not None and found[0] != knob:
                return check.lineno, *found, other.name
    return None


def required_env_value(check: ast.stmt) -> tuple[str, str] | None:
    """(variable, value) when `check` fails unless an environment variable equals a string
    literal: `assert os.environ.get("X", "0") == "1"`, or `if os.getenv("X") != "1":
    raise ...`."""
    if isinstance(check, ast.Assert):
        return _env_equals(check.test, ast.Eq)
    if isinstance(check, ast.If) and _raises(check.body):
        test = check.test
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return _env_equals(test.operand, ast.Eq)
        return _env_equals(test, ast.NotEq)
    return None


def _env_equals(test: ast.expr, op: type[ast.cmpop]) -> tuple[str, str] | None:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], op)):
        return None
    for read, literal in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
        name = env_read_of(read)
        if (
            name is not None
            and isinstance(literal, ast.Constant)
            and isinstance(literal.value, str)
        ):
            return name, literal.value
    return None


def _checks_at(lines: list[int]) -> str:
    if len(lines) == 1:
        return f"the check at line {lines[0]}"
    return "the checks at lines " + ", ".join(map(str, lines[:-1])) + f" and {lines[-1]}"


def further_check_lines(
    function: ast.FunctionDef | None, test: str, line: int, tested_at: int
) -> tuple[list[int], list[int]] | None:
    """The lines of `function`'s checks below `tested_at` (where `test` is tested), other
    than the one at `line`, that test the names of `test` (or a local computed from them)
    and raise; and apart, those of the checks that follow the statement at `line` in its
    block and test something else. (A check above the test runs whatever the setting: not
    one its value must get past.) None when there are neither."""
    if function is None:
        return None
    try:
        names = set(dotted_names(ast.parse(test, mode="eval").body))
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not names:
        return None
    _add_derived(function, names)
    found: set[int] = set()
    for node in walk(function):
        if not isinstance(node, ast.If | ast.Assert):
            continue
        if node.lineno <= tested_at or node.lineno <= line <= (node.end_lineno or node.lineno):
            continue  # above the test, the site's own check, or a branch holding it
        raising = isinstance(node, ast.Assert) or _raises(node.body)
        if raising and _tests(node.test, names):
            found.add(node.lineno)
    others: set[int] = set()
    for statement in _checks_following(function, line):
        checked = statement.test if isinstance(statement, ast.If | ast.Assert) else None
        same = checked is not None and _tests(checked, names)
        (found if same else others).add(statement.lineno)
    others -= found
    return (sorted(found), sorted(others)) if found or others else None


def _add_derived(function: ast.FunctionDef, names: set[str]) -> None:
    """Add the locals assigned from an expression reading `names` (`num_sms =
    int(override)`), two steps deep."""
    for _ in range(2):
        for node in walk(function):
            if isinstance(node, ast.Assign) and _any_of(_read_by(node.value), names):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))


def _any_of(read: Iterable[str], names: set[str]) -> bool:
    """Whether a dotted name of `read` is one of `names`, or an attribute of one
    (`requested.upper` of `requested`)."""
    return any(name in names or any(name.startswith(n + ".") for n in names) for name in read)


def _read_by(value: ast.expr) -> set[str]:
    """The names `value` reads, less those a comprehension in it binds (`[layout for layout
    in candidates]` reads `candidates`, not a `layout` of the function)."""
    bound = {
        name
        for node in walk(value)
        if isinstance(node, ast.comprehension)
        for name in dotted_names(node.target)
    }
    return set(dotted_names(value)) - bound


def _tests(test: ast.expr, names: set[str]) -> bool:
    """Whether `test` reads `names`, other than as a None test of them (the site's own
    condition, or its other side)."""
    if not _any_of(dotted_names(test), names):
        return False
    parts = test.values if isinstance(test, ast.BoolOp) else [test]
    return not all(_none_test(p) for p in parts)


def _none_test(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _none_test(node.operand)
    return (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is | ast.IsNot | ast.Eq | ast.NotEq)
        and is_none(node.comparators[0])
    )


def _raises(body: list[ast.stmt]) -> bool:
    return any(isinstance(node, ast.Raise) for stmt in body for node in walk(stmt))


def _checks_following(function: ast.FunctionDef, line: int) -> list[ast.stmt]:
    """The `assert`s and raising `if`s that the function meets once the site's check is
    passed: those after the site's statement in its block, or, for a site in the body of
    the `if` that guards it, after that `if` (the way out does not take its branch), up to
    the first statement that leaves."""
    path = holding_path(function.body, line)
    depth = len(path) - 1  # the site's own statement
    while depth > 0 and isinstance(path[depth - 1][0], ast.If):
        depth -= 1  # out of the guarding branch the way out skips
    if depth < 0:
        return []
    _, block, index = path[depth]
    return _checks_in(block[index + 1 :])


def _checks_in(statements: list[ast.stmt]) -> list[ast.stmt]:
    found: list[ast.stmt] = []
    for statement in statements:
        if isinstance(statement, ast.Return | ast.Raise):
            break
        if isinstance(statement, ast.Assert) or (
            isinstance(statement, ast.If) and _raises(statement.body)
        ):
            found.append(statement)
    return found
