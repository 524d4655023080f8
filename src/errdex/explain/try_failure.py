"""A raise under `except`: what the `try` did that failed, and what is no way out of it.

The error is raised because a call of the `try` failed; the handler's own tests are not
what to change. A test of the caught error (`e.errno != errno.EEXIST`, `isinstance(e, X)`)
only sorts one failure from another: negated, it asks for another failure, which no user
picks. An `if` of the handler that picks between raising and going on without the `try`'s
work (`if raise_errors: raise` before `set_mocks(); return False`, `if not
ctx.resilient_parsing: raise` before `value = None`) only hides the failure: the handler's
other path swallows it, and what uses the result later fails instead. Neither is offered
as a way out; "What it means" says why, and the way out is the failed call and its input
(`explain/failed_call.py`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.hiding_flags import hidden_by_flag
from errdex.explain.page import ConditionView
from errdex.explain.plain import code
from errdex.explain.reraise import handler_of, holds
from errdex.extract.shapes import is_exit_call
from errdex.facts import ConditionKind, KnobKind, SiteKind

__all__ = ["caught_tests", "no_way_out_of_try", "swallowed", "try_failure_sentences"]

_RAISES = (SiteKind.RAISE, SiteKind.RERAISE)
_GATES = (ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE)
_LOGS = re.compile(r"(?:^|\.)(?:log|logger|logging|_logger|LOG|warnings)\.\w+$|^print$")
_Def = ast.FunctionDef | ast.AsyncFunctionDef
# the result of the function called again on a fallback argument: not what was asked for
_FALLBACK = "the fallback's result, not the one asked for"
_LATER = " (what uses the result later may fail instead)"


def caught_tests(condition: ConditionView, facts: Facts) -> bool:
    """Whether `condition` (inside the innermost `except` holding the site) tests the error
    it caught (or a local computed from it: `code = e.errno`) and nothing of the program's
    state beside it: no parameter, no other local, nothing of `self`. A test that reads a
    setting too (`not trust_remote_code and "..." in str(e)`) keeps that setting's way out."""
    if condition.kind is ConditionKind.EXCEPT:
        return False
    clause = facts.innermost_except()
    if clause is None or condition.line <= clause.line:
        return False
    caught = _from_caught(facts, clause)
    names = _names_read(condition.text)
    if not names & caught:
        return False
    state = {"self", "cls", *facts.read.params}
    state |= {b.name for b in facts.bindings if b.origin == "local"}
    return not (names - caught) & state


def _names_read(text: str) -> set[str]:
    """The names a test reads (`e` and `errno` of `e.errno != errno.EEXIST`, never the
    attribute `filename` of `e.filename`); its words when it does not parse."""
    try:
        node = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return set(re.findall(r"[A-Za-z_]\w*", text))
    return {n.id for n in walk(node) if isinstance(n, ast.Name)}


def _from_caught(facts: Facts, clause: ConditionView) -> set[str]:
    key = f"try_failure.caught:{clause.line}"
    if key not in facts.memo:
        caught = clause.text.partition(" as ")[2].strip()
        names: set[str] = set()
        if caught:
            pattern = re.compile(rf"\b{re.escape(caught)}\b")
            names = {caught} | {b.name for b in facts.bindings if pattern.search(b.value)}
        facts.memo[key] = names
    names = facts.memo[key]
    return names if isinstance(names, set) else set()


def swallowed(condition: ConditionView, facts: Facts) -> str | None:
    """What the handler does instead of raising, when `condition` is an `if` of the site's
    `except` clause that picks between the raise and a path going on without the `try`'s
    work (a return, a fallback value, a log record, the next item); None otherwise (a
    path that raises or exits, one that tries again, a test elsewhere)."""
    if condition.kind not in (*_GATES, ConditionKind.EARLY_EXIT):
        return None
    if facts.stored.site.kind not in _RAISES:
        return None
    clause = facts.innermost_except()
    if clause is None or condition.line <= clause.line:
        return None
    if _behind_setting(condition, facts):
        return None  # a setting that makes the failure fatal: turning it off is a choice
    if hidden_by_flag(condition, facts) is not None:
        return None  # a flag argument before a bare return: `explain/hiding_flags.py` says it
    key = f"try_failure.swallowed:{condition.line}:{condition.holds}"
    found = facts.once(key, lambda: _swallowed(condition, facts))
    return found if isinstance(found, str) else None


def _behind_setting(condition: ConditionView, facts: Facts) -> bool:
    """Whether a setting (an environment variable, a command-line flag) decides the test:
    its own purpose is to make the failure fatal (`if envs.VLLM_FORCE_AOT_LOAD: raise`),
    and the default it is turned back to is the program's own way on."""
    words = set(re.findall(r"\w+", condition.text))
    return any(
        k.kind in (KnobKind.ENV, KnobKind.FLAG)
        and (k.name in words or (k.behind or "").rpartition(".")[2] in words)
        for k in facts.knobs
    )


def _swallowed(condition: ConditionView, facts: Facts) -> str | None:
    function = facts.site_function()
    if function is None:
        return None
    line = facts.stored.site.line
    handler = handler_of(function, line)
    if handler is None:
        return None
    if condition.kind is ConditionKind.EARLY_EXIT:
        return _exit_fallback(handler, condition.line, line, function.name)
    found = _if_in(handler.body, condition.line, line)
    if found is None:
        return None
    statement, rest = found
    in_body = holds(statement.body, line)
    if in_body == holds(statement.orelse, line):
        return None  # the site is on neither side
    other = [*(statement.orelse if in_body else statement.body), *rest]
    if any(isinstance(n, ast.Raise) for s in other for n in walk(s)):
        return None  # the other path raises too: `explain/reraise.py` and the guards' facts
    if any(isinstance(n, ast.Call) and is_exit_call(n) for s in other for n in walk(s)):
        return None
    if _retries(function, handler, other):
        return None  # the loop around the `try` tries again: no hiding
    return _what(other, function.name)


def _exit_fallback(handler: ast.ExceptHandler, test_line: int, line: int, own: str) -> str | None:
    """For an exit of the handler before the raise (`if default is not None: return
    self.get_style(default)`): the fallback it returns, when that is the function called
    again on another argument; None for any other exit (its own way on: not read here)."""
    for statement in handler.body:
        if statement.lineno >= line:
            break
        if isinstance(statement, ast.If) and statement.test.lineno == test_line:
            body = statement.body
            returned = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
            if returned is not None and _called_again(returned, own):
                return _what(body, own)
    return None


def _if_in(
    block: list[ast.stmt], test_line: int, line: int
) -> tuple[ast.If, list[ast.stmt]] | None:
    """The `if` at `test_line` on the way to `line`, with the statements after it in its
    block (and in the blocks around it, up to the handler)."""
    for index, statement in enumerate(block):
        if not statement.lineno <= line <= (statement.end_lineno or statement.lineno):
            continue
        after = block[index + 1 :]
        if isinstance(statement, ast.If):
            if statement.lineno == test_line:
                return statement, after
            for inner in (statement.body, statement.orelse):
                found = _if_in(inner, test_line, line)
                if found is not None:
                    return found[0], [*found[1], *after]
        return None
    return None


def _retries(function: _Def, handler: ast.ExceptHandler, other: list[ast.stmt]) -> bool:
    """Whether a loop holds the handler's `try` and the other path may go round it again
    (a `continue`, or no `return`/`break` at all)."""
    loops = [
        n
        for n in walk(function)
        if isinstance(n, ast.For | ast.AsyncFor | ast.While)
        and n.lineno < handler.lineno <= (n.end_lineno or n.lineno)
    ]
    if not loops:
        return False
    leaves = any(isinstance(n, ast.Return | ast.Break) for s in other for n in walk(s))
    again = any(isinstance(n, ast.Continue) for s in other for n in walk(s))
    return again or not leaves


def _what(other: list[ast.stmt], own: str) -> str | None:
    """What the path that does not raise does, in words: its return of None, a bool or
    nothing, its next item, such a value it sets (after a log record it writes), the same
    function called again on a fallback argument in place of the one that failed (`return
    self.get_style(default)`: the result is the fallback's, not what was asked for); None
    when it works a value out of its own (`return self.as_hex()`, `backend = "outlines"`,
    `return default`): another way to the result, not the failure hidden."""
    logged = ""
    for statement in other:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            if _LOGS.search(ast.unparse(statement.value.func)):
                logged = "logs the failure and "
            continue  # a call of its own (mocks set in place of the work): what follows says
        if isinstance(statement, ast.Return):
            if statement.value is not None and _called_again(statement.value, own):
                shown = ast.unparse(statement.value)
                return f"{logged}returns {code(shown)} instead ({_FALLBACK})"
            if statement.value is not None and not _constant(statement.value):
                return None
            shown = ast.unparse(statement.value) if statement.value is not None else "None"
            return f"{logged}returns {code(shown)} instead"
        if isinstance(statement, ast.Continue):
            return f"{logged}skips to the next item"
        if isinstance(statement, ast.Break):
            return f"{logged}stops the loop there"
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            if not _constant(statement.value):
                return None
            target = code(ast.unparse(statement.targets[0]))
            return f"{logged}sets {target} to {code(ast.unparse(statement.value))} and goes on"
        if isinstance(statement, ast.Pass | ast.Expr):
            continue
        return None
    # nothing in its place: the code may not need the result then (an explicit choice of
    # the user's takes precedence), or ends returning None (`explain/hiding_flags.py`)
    return None


def _called_again(value: ast.expr, own: str) -> bool:
    """`self.get_style(default)` in `get_style`: the function itself (as a method of its own
    object, or by its name) called on other arguments, every one a plain name."""
    if not isinstance(value, ast.Call) or not (value.args or value.keywords):
        return False
    func = value.func
    if isinstance(func, ast.Attribute):
        owner = func.value
        same = func.attr == own and isinstance(owner, ast.Name) and owner.id in ("self", "cls")
    else:
        same = isinstance(func, ast.Name) and func.id == own
    given = [*value.args, *(k.value for k in value.keywords)]
    return same and all(isinstance(a, ast.Name) for a in given)


def _constant(value: ast.expr) -> bool:
    """None, a bool or an empty container: nothing in place of the `try`'s work (a string
    may name another way to it: a backend, a mode)."""
    if isinstance(value, ast.Constant):
        return value.value is None or isinstance(value.value, bool)
    if isinstance(value, ast.List | ast.Tuple | ast.Set):
        return not value.elts
    return isinstance(value, ast.Dict) and not value.keys


def no_way_out_of_try(condition: ConditionView, facts: Facts) -> bool:
    """A test of the caught error, or a switch that only swallows it: no way out."""
    if facts.stored.site.kind not in _RAISES:
        return False
    return caught_tests(condition, facts) or swallowed(condition, facts) is not None


def try_failure_sentences(facts: Facts, said: Callable[[ConditionView], bool]) -> list[str]:
    """What "What it means" says of the handler's tests that are no way out (but those
    `said` already: a guard whose other branch fails too, a switch the message advises)."""
    if facts.stored.site.kind not in _RAISES:
        return []
    out: list[str] = []
    tests = [c for c in facts.held if caught_tests(c, facts) and not said(c)]
    if tests:
        lines = ", ".join(str(c.line) for c in tests)
        out.append(
            f"The tests at lines {lines} read the error the `try` raised: they pick which "
            "failures are raised here and say what failed, not something to change."
            if len(tests) > 1
            else f"The test at line {lines} reads the error the `try` raised: it picks which "
            "failures are raised here and says what failed, not something to change."
        )
    for condition in facts.held:
        if caught_tests(condition, facts) or said(condition):
            continue
        instead = swallowed(condition, facts)
        if instead is None:
            continue
        words = condition.plain or code(condition.text)
        later = "" if instead.endswith(f"({_FALLBACK})") else _LATER
        out.append(
            f"The `if` at line {condition.line} ({words}) only picks whether the failure is "
            f"raised: otherwise the handler {instead}, which hides the failure rather than "
            f"avoiding it{later}, so it is not offered as a way out."
        )
        break
    return out
