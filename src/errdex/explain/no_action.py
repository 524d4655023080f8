"""Sites that need nothing done: code that never runs, a demo, a stop the user asked for.

A page of such a site has nothing to report to the project, and no way out to offer:
- code under `if TYPE_CHECKING:` runs for a type checker only (the constant is False at
  run time), so the error cannot happen;
- code under `if __name__ == "__main__":` runs only when the module itself is the script
  (`python -m rich.logging`, a demo), never on import (its ways out stay: an old entry
  point's warning names the new one);
- an error raised for `KeyboardInterrupt` (caught, or raised for a Ctrl-C character) is
  the program stopping because the user pressed Ctrl-C;
- an error of a private function that every caller catches (and raises nothing again)
  never reaches the user as itself.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Sequence

from errdex.ast_walk import walk
from errdex.explain.checked_before import checked_sentence
from errdex.explain.context import (
    Facts,
    async_function_at,
    function_at,
    function_span,
    lines_of,
)
from errdex.explain.deferred_calls import (
    Deferred,
    deferred_kind,
    every_call_recorded,
    name_lines,
    runs_where_called,
)
from errdex.explain.page import Caller, ConditionView
from errdex.explain.plain import code
from errdex.explain.private_names import private_name
from errdex.explain.unreached import passed_sentence
from errdex.extract.shapes import and_parts
from errdex.facts import ConditionKind, ErrorSite, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store import Store
from errdex.store.base import StoredSite

__all__ = ["caught_by_callers", "never_runs", "never_true_here", "no_action_sentence"]

_BROAD = ("Exception", "BaseException")

_TYPE_CHECKING = re.compile(r"^(?:\w+\.)?TYPE_CHECKING$")
_MAIN = re.compile(r"""^__name__\s*==\s*['"]__main__['"]$""")
_INTERRUPT = re.compile(r"\bKeyboardInterrupt\b")
_END_OF_INPUT = re.compile(r"\bEOFError\b")


def _holds(condition: ConditionView, pattern: re.Pattern[str]) -> bool:
    return condition.holds and bool(pattern.match(condition.test.strip()))


def never_runs(facts: Facts) -> str | None:
    """Why the site never runs when the program is used (None when it may)."""
    for condition in facts.held:
        if _holds(condition, _TYPE_CHECKING):
            return (
                f"It sits in a branch taken only when `{condition.text}` is true (line "
                f"{condition.line}), which is so only for a type checker reading the code: at "
                "run time the constant is False, so this never runs and there is nothing to "
                "fix or report."
            )
    return None


def never_true_here(facts: Facts) -> str | None:
    """Why this message is never the one raised at the site, when a test of its path is on
    a builtin class and so known false there (None when no such test is found)."""
    return facts.once("builtin_class_test", lambda: _builtin_class_test(facts))


def _builtin_class_test(facts: Facts) -> str | None:
    """A held `isinstance(N, T)` (or its `not`) on a builtin class's name the function
    does not bind, against builtin classes: its value is known, and when it is false the
    path never runs. A shared helper's variant read at its call (`assert_arg_type(cls_,
    type, "cls_")` into `if isinstance(argtype, tuple): raise ...("one of type ...")`) is
    the usual case: the builtin `type` is a class, never a tuple, so this call raises the
    helper's other message for the same input, and the ways out of the test they share
    (`not isinstance(arg, argtype)`) stay."""
    bound = {b.name for b in facts.bindings} | set(facts.read.params)
    for condition in facts.held:
        node = parse_expression(condition.text)  # what holds on the path, as the call reads
        if node is None:
            continue
        parts = and_parts(node)
        for part in parts:
            negative = isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not)
            inner = part.operand if isinstance(part, ast.UnaryOp) and negative else part
            known = _builtin_instance(inner, bound)
            if known is None or known != negative:
                continue  # not known, or true as the path needs it
            assert isinstance(inner, ast.Call)
            name, kinds = ast.unparse(inner.args[0]), ast.unparse(inner.args[1])
            helper = facts.stored.site.kind is SiteKind.HELPER
            where = f"line {condition.line}" + (" of the helper" if helper else "")
            outcome = (
                "this call raises the helper's other message for the same input, never this one"
                if helper
                else "it is never raised"
            )
            return (
                f"This message needs `{ast.unparse(part)}` to be true ({where}), and "
                f"`{name}` there is Python's built-in class `{name}`, which "
                f"{'is' if known else 'is never'} an instance of `{kinds}`: {outcome}."
            )
    return None


def _builtin_instance(node: ast.expr, bound: set[str]) -> bool | None:
    """The value of `isinstance(N, T)` where `N` names a builtin class the function does
    not bind and `T` a builtin class (or a tuple of them); None for any other shape."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and node.func.id not in bound
        and len(node.args) == 2
        and not node.keywords
    ):
        return None
    subject = _builtin_class(node.args[0], bound)
    kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
    classes = [_builtin_class(k, bound) for k in kinds]
    if subject is None or not classes or any(c is None for c in classes):
        return None
    return isinstance(subject, tuple(c for c in classes if c is not None))


def _builtin_class(node: ast.expr, bound: set[str]) -> type | None:
    if not isinstance(node, ast.Name) or node.id in bound:
        return None
    found = getattr(builtins, node.id, None)
    return found if isinstance(found, type) else None


def _as_script(facts: Facts) -> str | None:
    """Where the site runs only when its module is the script: its demo or its old
    entry point (`python -m vllm.entrypoints.openai.api_server` warns to use `vllm
    serve`), whose ways out stay."""
    for condition in facts.held:
        if _holds(condition, _MAIN):
            return (
                f"It runs only when the module itself is run as a script (`python -m "
                f'{facts.stored.module}`, the `if __name__ == "__main__":` at line '
                f"{condition.line}), never when your code imports it."
            )
    return None


def no_action_sentence(facts: Facts) -> str | None:
    """What to say instead of "worth reporting to the project" when nothing is wrong."""
    ran = never_runs(facts) or _as_script(facts)
    if ran is not None:
        return ran
    if facts.caught_by:
        return caught_sentence(facts.caught_by, facts.stored.project)
    if facts.checked_by:
        return checked_sentence(facts.checked_by, facts.stored.project)
    if facts.passed_by:
        return passed_sentence(facts.passed_by, facts.stored.project, facts.stored.site.function)
    if facts.filled is not None:
        return facts.filled.sentence()
    caught = [c for c in facts.conditions if c.kind == ConditionKind.EXCEPT]
    raised = facts.stored.exception.name if facts.stored.exception else facts.stored.site.exception
    if any(_INTERRUPT.search(c.text) for c in caught):
        ended = any(_END_OF_INPUT.search(c.text) for c in caught)
        return "It happens when the user presses Ctrl-C (the process gets SIGINT)" + (
            ", or when the input ends (Ctrl-D, or a pipe with no more input): the program "
            "stops because it was asked to, or was given less input than it asks for; "
            "nothing is wrong in the code, and there is nothing to report."
            if ended
            else ": the program stops because it was asked to, nothing is wrong, and "
            "there is nothing to report."
        )
    if raised == "KeyboardInterrupt":
        return (
            "It raises `KeyboardInterrupt` to stop the program as Ctrl-C does: it was asked "
            "to stop (a Ctrl-C, or a signal its handler turns into one), nothing is wrong, "
            "and there is nothing to report."
        )
    return None


def caught_by_callers(store: Store, stored: StoredSite, callers: list[Caller]) -> list[Caller]:
    """The direct callers of a private function, when each calls it inside a `try` whose
    handler catches the error and does not raise it again: the error never leaves the
    package as itself. Empty when one does not, or when a caller's body was not read."""
    site = stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.RERAISE, SiteKind.ASSERT):
        return []
    if not _private(stored.module, site.function):
        return []
    direct = [c for c in callers if c.depth == 1]
    if not direct or not all(c.guard_known for c in direct):
        return []
    short = site.function.rpartition(".")[2]
    read: list[tuple[Caller, ast.FunctionDef, list[tuple[ast.Call, int]]]] = []
    info = stored.exception
    raised = info.name if info is not None else (site.exception or "")
    names = {raised, raised.rpartition(".")[2], *_BROAD}
    if site.kind == SiteKind.ASSERT:
        names.add("AssertionError")
    if info is not None:
        names.update(b.rpartition(".")[2] for b in info.bases)
    for caller in direct:
        # the page's store reads each file once (`explain/page_reads.py`)
        text = store.file_text(stored.version_id, caller.file)
        name = caller.function.rpartition(".")[2]
        span = function_span(text, name, caller.line)
        if text is None or span is None or not _has_handler(lines_of(text)[span[0] : span[1]]):
            return []  # no `except` in the caller: nothing there catches it
        function = function_at(text, name, caller.line)
        if function is None:
            return []
        # every call of it there (a link keeps one line a caller): each one caught
        calls = name_lines(function, short)
        lines = {call.lineno for call, _ in calls} | {caller.line}
        if not all(_caught_at(function, line, names) for line in lines):
            return []
        read.append((caller, function, calls))
    site_text = store.file_text(stored.version_id, stored.file)
    deferred = _deferred_at(site_text, site)
    if deferred is None:
        return direct
    # its body runs where it is iterated or awaited: that must be in the `try` too
    if not all(
        calls and runs_where_called(f, [c for c, _ in calls], deferred) for _, f, calls in read
    ):
        return []
    # a loop over a generator is no recorded call: each call in the files read must be one
    # of those read (`deferred_calls`)
    named: dict[str, set[int]] = {stored.file: set()}
    for caller, _, calls in read:
        named.setdefault(caller.file, set()).update(line for _, line in calls)
    for file, seen in named.items():
        text = site_text if file == stored.file else store.file_text(stored.version_id, file)
        if text is None or not every_call_recorded(text, short, seen):
            return []
    return direct


def _deferred_at(text: str | None, site: ErrorSite) -> Deferred | None:
    """Whether the site's function is a generator or a coroutine (`deferred_calls`)."""
    name = site.function.rpartition(".")[2]
    function = function_at(text, name, site.line) or async_function_at(text, name, site.line)
    return None if function is None else deferred_kind(function)


def _has_handler(lines: Sequence[str]) -> bool:
    return any(line.lstrip().startswith("except") for line in lines)


def _private(module: str, qualname: str) -> bool:
    """Whether no user is meant to call the function: a `_name` in its module or name."""
    parts = [*module.split("."), *(p for p in qualname.split(".") if p != "<locals>")]
    return any(private_name(p) for p in parts)


def _caught_at(function: ast.FunctionDef, line: int, names: set[str]) -> bool:
    """Whether `line` sits in the body of a `try` whose first handler of one of `names`
    raises nothing again and hands the exception to nothing (a helper given it, such as
    SQLAlchemy's `_handle_dbapi_exception(e, ...)`, may raise it wrapped)."""
    for node in walk(function):
        if not isinstance(node, ast.Try) or not node.body:
            continue
        if not node.body[0].lineno <= line <= (node.body[-1].end_lineno or 0):
            continue
        # Python runs the first handler that matches: an earlier `except X: raise` wins
        handler = next((h for h in node.handlers if _catches(h, names)), None)
        if handler is not None:
            return not any(
                isinstance(n, ast.Raise) or (isinstance(n, ast.Name) and n.id == handler.name)
                for n in walk(handler)
            )
    return False


def _catches(handler: ast.ExceptHandler, names: set[str]) -> bool:
    if handler.type is None:
        return True
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    for kind in kinds:
        written = kind.attr if isinstance(kind, ast.Attribute) else getattr(kind, "id", "")
        if written in names:
            return True
    return False


def caught_sentence(callers: list[Caller], project: str) -> str:
    places = ", ".join(f"{code(c.function)} ({c.file}:{c.line})" for c in callers[:3])
    more = f" and {len(callers) - 3} more" if len(callers) > 3 else ""
    return (
        f"Every caller in {project} catches it and raises nothing again: {places}{more}. "
        "It never reaches your code as an exception: where a log shows it, the program "
        "went on after it with what that handler does instead."
    )
