"""Ways out of a check on a state a public method has not put the object in yet: call it
first.

`if not self._started: raise RuntimeError(...)` in `Worker.run`, where only `start()` sets
`self._started = True`; `if self._session is None: raise ...` where `open()` or `__enter__`
assigns it. No argument of `run` decides that: the order of the user's own calls does. The
way out is the method that sets it, called first (or the call made inside the `with`
block); for a property, its setter or a subclass's keyword (`set_later`). Offered only
where no public method takes the state away again (then a call made after that one is as
likely, and `call_order` reads that case) and the constructor does not set it itself.
"""

from __future__ import annotations

import ast
import re
import textwrap

from errdex.ast_walk import walk
from errdex.explain.call_order import (
    BLOCK_ENDS,
    BLOCK_STARTS,
    Methods,
    awaited,
    is_own,
    own_assignments,
    reached_calls,
    same_kind,
    state_checks,
    user_called,
)
from errdex.explain.context import Facts
from errdex.explain.fix_forms import instance_name
from errdex.explain.page import ConditionView, ExampleFix, Solution
from errdex.explain.plain import code, your_values
from errdex.explain.set_later import set_later_solution
from errdex.explain.user_call import method_arguments, required_arguments
from errdex.facts import SiteKind

# A message that says what has not happened yet ("has not been started", "No input generator
# registered", "must be called before", "only available after").
_NOT_YET = re.compile(
    r"\b(?:not|never|no|before|first|after|yet|uninitiali[sz]ed|unset)\b", re.IGNORECASE
)


def first_call_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "First call `start()` on your `Worker` object, then `run`"; else None. Only for a
    `raise` whose message says the object is not there yet (an `assert` holds an invariant
    of the package's own calls, a log line reports)."""
    site = facts.stored.site
    if site.kind != SiteKind.RAISE or site.message is None:
        return None
    if not _NOT_YET.search(site.message.text):
        return None
    for target, member, condition, missing, methods in state_checks(conditions, facts, _missing):
        setters = same_kind(methods, member, _setters(methods, *missing, member))
        if setters:
            return _solution(target, member, setters, missing, condition, methods, facts)
        attr, true = missing
        if (
            not true
            and _starts_without(methods, attr)
            and _starts_none(methods, attr)
            and not _constructor_sets(methods, attr, true)
        ):
            later = set_later_solution(target, member, attr, condition, facts)
            if later is not None:
                return later
    return None


def _missing(text: str) -> tuple[str, bool] | None:
    """(`_started`, True) of `not self._started`: the attribute, and whether it must be
    true (else only set, not None: `self._session is None`)."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and is_own(node.operand):
        return node.operand.attr, True
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is | ast.Eq)
        and is_own(node.left)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    ):
        return node.left.attr, False
    return None


def _setters(methods: Methods, attr: str, true: bool, own: str) -> list[str]:
    """The public methods (and `__enter__`) that set the attribute, directly or through
    methods of the class they call. None unless the constructor starts the object without
    it (assigns it None, or a false literal) and sets it through none of its calls, and no
    other method takes it away again."""
    if not _starts_without(methods, attr):
        return []
    # a method that tests it itself is no first step (it fills it in when missing, or
    # refuses it in turn)
    sets = {n for n, m in methods.items() if _assigns(m, attr, true) and not _tests(m, attr)}
    if true and any(_from_data(m, attr) for m in methods.values()):
        return []  # a truth the data decides (`self.supports_comments = uds`)
    if _constructor_sets(methods, attr, true):
        return []  # the constructor sets it itself (`self.prepare()`)
    reach = reached_calls(methods)
    return [
        name
        for name in methods
        if (name in sets or reach[name] & sets)
        and name != own
        and (user_called(name) or name in BLOCK_STARTS)
        and not methods[name].decorator_list
    ]


def _starts_without(methods: Methods, attr: str) -> bool:
    """Whether the constructor starts the object without the attribute (assigns it None,
    or a false literal) and no other method takes it away again."""
    init = methods.get("__init__")
    if init is None or not _resets(init, attr):
        return False  # not known to start without it (a class attribute, a base class's)
    # taken away again: a call made after one that sets it is as likely
    return not any(_resets(m, attr) for n, m in methods.items() if n != "__init__")


def _constructor_sets(methods: Methods, attr: str, true: bool) -> bool:
    """Whether the constructor sets the attribute to a value that passes the check, itself
    or through a method of the class it calls (`self._sock = None; self._open()`)."""
    sets = {n for n, m in methods.items() if _assigns(m, attr, true)}
    return bool(sets & {"__init__", *reached_calls(methods).get("__init__", ())})


def _starts_none(methods: Methods, attr: str) -> bool:
    """Whether the constructor assigns the attribute the None literal (not another false
    one): what "leaves it None" says."""
    init = methods.get("__init__")
    return init is not None and any(
        isinstance(v, ast.Constant) and v.value is None for v in _values(init, attr)
    )


def _values(method: ast.AST, attr: str) -> list[ast.expr]:
    """The values `self.attr = value` (or annotated) assigns in the method."""
    return [value for _, value in own_assignments(method, attr)]


def _assigns(method: ast.AST, attr: str, true: bool) -> bool:
    """`self.attr = value` with a value that makes the check pass: a true literal (for a
    truth test), anything but None (for a None test)."""
    for value in _values(method, attr):
        literal = isinstance(value, ast.Constant)
        if true and literal and value.value:  # type: ignore[attr-defined]
            return True
        if not true and not (literal and value.value is None):  # type: ignore[attr-defined]
            return True
    return False


def _tests(method: ast.AST, attr: str) -> bool:
    """Whether the method reads `self.attr` in the test of an `if`, `while` or `assert`."""
    return any(
        isinstance(node, ast.If | ast.While | ast.Assert | ast.IfExp)
        and any(is_own(n) and n.attr == attr for n in walk(node.test))
        for node in walk(method)
    )


def _from_data(method: ast.AST, attr: str) -> bool:
    """`self.attr = <anything but a literal>`."""
    return any(not isinstance(v, ast.Constant) for v in _values(method, attr))


def _resets(method: ast.AST, attr: str) -> bool:
    """`self.attr = None` (or False, 0, ...)."""
    return any(isinstance(v, ast.Constant) and not v.value for v in _values(method, attr))


def _solution(
    target: str,
    member: str,
    setters: list[str],
    missing: tuple[str, bool],
    condition: ConditionView,
    methods: Methods,
    facts: Facts,
) -> Solution:
    owner = target.rpartition(".")[2]
    attr, true = missing
    named = [m for m in setters if m not in BLOCK_STARTS and m not in BLOCK_ENDS]
    value = " to a true value" if true else ""
    if not named and setters[0] in BLOCK_ENDS:
        text = (
            f"Call {code(member)} on your {code(owner)} object after its "
            f"{code(BLOCK_ENDS[setters[0]])} block ends: leaving the block sets "
            f"{code('self.' + attr)}{value}, and {code(member)} refuses an object before that."
        )
    elif named:
        by = " or ".join(code(f"{m}()") for m in named)
        each = "each" if len(named) > 1 else "it"
        text = (
            f"First call {by} on your {code(owner)} object, then {code(member)}: {each} "
            f"sets {code('self.' + attr)}{value}, and {code(member)} refuses an object "
            "before that."
        )
    else:
        block = BLOCK_STARTS[setters[0]]
        text = (
            f"Call {code(member)} on your {code(owner)} object inside its {code(block)} "
            f"block: entering it sets {code('self.' + attr)}{value}, and {code(member)} "
            "refuses an object before that."
        )
    return Solution(
        text=text,
        condition=condition.text,
        kind="input",
        fix=call_first_fix(target, member, named or setters, methods, facts),
    )


def call_first_fix(
    target: str,
    member: str,
    setters: list[str],
    methods: Methods,
    facts: Facts,
) -> ExampleFix | None:
    """`worker.run()` → `worker.start()` then `worker.run()`; or the call moved into the
    `with` block."""

    required = required_arguments(facts, "")
    if required is None:
        return None
    owner = target.rpartition(".")[2]
    instance = instance_name(owner)
    made = f"{awaited(methods, member)}{instance}.{member}({', '.join(required)})"
    note = f"`{instance}` is your {code(owner)} object ({code(target)})."
    values = [r.rpartition("=")[2] for r in required]
    first = setters[0]
    if first in BLOCK_ENDS:  # the call moved out of the block, on the object the user holds
        block = f"{BLOCK_ENDS[first]} {instance}:\n    ...\n"
        fix_before = block + textwrap.indent(made, "    ")
        fix_after = block + made
    elif first not in BLOCK_STARTS:
        wanted = method_arguments(methods[first])
        values += [w.rpartition("=")[2] for w in wanted]
        called = f"{awaited(methods, first)}{instance}.{first}({', '.join(wanted)})"
        fix_before, fix_after = made, f"{called}\n{made}"
    else:
        module = target.rpartition(".")[0]
        head = f"from {module} import {owner}\n\n" if module else ""
        fix_before = f"{head}{instance} = {owner}()\n{made}"
        opened = f"{BLOCK_STARTS[first]} {owner}() as {instance}:\n"
        fix_after = f"{head}{opened}" + textwrap.indent(made, "    ")
        note += f" Keep {code(owner + '(...)')}'s own arguments as they are."
    if values:
        note += f" {your_values(values)}"
    return ExampleFix(before=fix_before, after=fix_after, note=note)
