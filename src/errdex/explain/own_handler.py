"""A raise that its own function's `try` catches: the `except` that takes it, and what that
handler does instead.

`try: default = getattr(cls, name, MISSING); if default is MISSING: raise AttributeError`
`except AttributeError: ...` (pydantic's `collect_model_fields`) raises only to jump to its
handler; a tool parser's `raise UnexpectedAstError(...)` inside `try ... except Exception:
logger.exception(...); return ...` is logged and the output is taken as plain text. Such an
error never leaves the function as itself, so "the traceback's frames above this one" do not
exist: the page says where it is caught and what the user meets instead (the handler's log
line, its return, or the error it raises in its place). Only a handler whose whole effect
is read here counts: one that raises the error again (`raise`, `raise e`, a `safe_reraise`),
hands it to a call other than a log's, or raises only on some of its paths leaves the page as
it was. The handler is the first of its `try` that matches the raised class; which one
matches is known for a built-in class (and for a class of the package, when it is the first
handler of its `try`).
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass

from errdex.explain.context import Facts, async_function_at, function_span, lines_of
from errdex.explain.plain import code, listed
from errdex.explain.why_texts import ALL_LOG_METHODS, is_log_call, logged_text
from errdex.facts import SiteKind

__all__ = ["OwnHandler", "own_handler", "swallowed"]

_BROAD = ("Exception", "BaseException")
# classes `except Exception` does not catch
_NOT_EXCEPTIONS = frozenset({"BaseException", "SystemExit", "KeyboardInterrupt", "GeneratorExit"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
# the error handed to these keeps it in a text: no way for it to be raised again
_TEXT_CALLS = frozenset({"str", "repr", "type", "format"})
_MAX_RETURNED = 80  # a returned expression longer than this is "a value"


@dataclass(frozen=True)
class OwnHandler:
    """The `except` clause of the site's own function that catches its error."""

    line: int
    end: int
    caught: str  # the clause as written: `except (KeyError, ValueError)`
    does: tuple[str, ...]  # what it does, in words: "logs “...”", "returns `x`"
    instead: tuple[str, int] | None  # the class it raises in its place, and that line

    def sentence(self, where: str) -> str:
        """The sentence of "What it means"; `where` names the function (or module) the
        site is in, as code."""
        clause = f"{code(self.caught)} at line {self.line} of the same `try`"
        if self.instead is not None:
            name, line = self.instead
            return (
                f"The {clause} catches it and raises {code(name)} in its place (line {line}): "
                f"that is the error a user meets, not this one."
            )
        lines = f"line {self.line}" if self.end == self.line else f"lines {self.line}-{self.end}"
        done = listed(list(self.does)) if self.does else "runs instead"
        return (
            f"The {clause} catches it: its handler ({lines}) {done}. So the error does not "
            f"leave {where} as itself: what a user meets instead is what that handler does."
        )


def own_handler(facts: Facts) -> OwnHandler | None:
    """The handler of the site's function that catches its raise; None when none does, or
    when what that handler does is not read here (worked out once a page)."""
    return facts.once("own_handler", lambda: _own_handler(facts))


def swallowed(facts: Facts) -> bool:
    """Whether the site's own function catches its error and raises nothing in its place."""
    found = own_handler(facts)
    return found is not None and found.instead is None


def _own_handler(facts: Facts) -> OwnHandler | None:
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.ASSERT) or facts.source_text is None:
        return None
    if not _try_above(facts):
        return None
    name = site.function.rpartition(".")[2]
    scope: ast.AST | None = (
        facts.source_tree()
        if site.function == "<module>"
        else facts.site_function() or async_function_at(facts.source_text, name, site.line)
    )
    if scope is None:
        return None
    raised = _raised(facts)
    if raised is None:
        return None
    for node in _tries(scope, site.line):
        for index, handler in enumerate(node.handlers):
            catches = _catches(handler, raised)
            if catches is None:
                return None  # whether it takes the error is not known: nor is which does
            if not catches:
                continue
            if index and raised.builtin is None:
                return None  # an earlier handler of a class of the package might take it
            return _described(handler)
    return None


def _try_above(facts: Facts) -> bool:
    """Whether a `try:` line comes before the site in its function: read in the text, before
    anything is parsed."""
    site = facts.stored.site
    lines = lines_of(facts.source_text or "")
    if site.function == "<module>":
        start = 0
    else:
        span = function_span(facts.source_text, site.function.rpartition(".")[2], site.line)
        if span is None:
            return False
        start = span[0]
    return any(lines[at].strip() == "try:" for at in range(start, min(site.line, len(lines))))


def _tries(scope: ast.AST, line: int) -> list[ast.Try | ast.TryStar]:
    """The `try` statements whose body holds the statement on `line`, innermost first, not
    across a nested `def`, `lambda` or `class` (its raise leaves that function first)."""
    found: list[ast.Try | ast.TryStar] = []
    node: ast.AST = scope
    while True:
        child = next(
            (
                c
                for c in ast.iter_child_nodes(node)
                if isinstance(c, ast.stmt | ast.excepthandler)
                and c.lineno <= line <= (c.end_lineno or c.lineno)
            ),
            None,
        )
        if child is None or isinstance(child, _SCOPES):
            break
        if isinstance(child, ast.Try | ast.TryStar) and any(
            s.lineno <= line <= (s.end_lineno or s.lineno) for s in child.body
        ):
            found.append(child)
        node = child
    return found[::-1]


@dataclass(frozen=True)
class _Raised:
    names: frozenset[str]  # the class's name and its bases' last names
    builtin: type[BaseException] | None  # the class itself, when it is a built-in one
    exception: bool  # whether `except Exception` takes it


def _raised(facts: Facts) -> _Raised | None:
    site = facts.stored.site
    if site.kind == SiteKind.ASSERT:
        name = "AssertionError"
    else:
        written = (site.exception or "").rpartition(".")[2]
        name = facts.stored.exception.name if facts.stored.exception else written
    if not name.isidentifier():
        return None
    info = facts.stored.exception
    bases = {b.rpartition(".")[2] for b in info.bases} if info is not None else set()
    builtin = _builtin(name)
    if builtin is not None and info is not None and info.bases:
        builtin = None  # a class of the package named as a built-in one
    exception = not ({name, *bases} & _NOT_EXCEPTIONS)
    if builtin is not None:
        exception = issubclass(builtin, Exception)
    return _Raised(frozenset({name, *bases}), builtin, exception)


def _builtin(name: str) -> type[BaseException] | None:
    found = getattr(builtins, name, None)
    return found if isinstance(found, type) and issubclass(found, BaseException) else None


def _catches(handler: ast.ExceptHandler, raised: _Raised) -> bool | None:
    """Whether the handler takes the raised class: None when that is not known."""
    if handler.type is None:
        return True
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    unknown = False
    for kind in kinds:
        written = kind.attr if isinstance(kind, ast.Attribute) else getattr(kind, "id", None)
        if not isinstance(written, str):
            unknown = True
            continue
        caught = _builtin(written)
        if raised.builtin is not None:
            # a built-in class is no subclass of a package's one
            if caught is not None and issubclass(raised.builtin, caught):
                return True
            continue
        if written in raised.names or (written == "Exception" and raised.exception):
            return True
        if written == "BaseException":
            return True
        # a class of the package may derive from the caught one further up: not known
        unknown = True
    return None if unknown else False


def _described(handler: ast.ExceptHandler) -> OwnHandler | None:
    """What the handler does, when all of it is read here: None when it may raise the
    error again or raises on some paths only."""
    name = handler.name
    raises = [n for n in _walk(handler) if isinstance(n, ast.Raise)]
    last = handler.body[-1]
    instead: tuple[str, int] | None = None
    if raises:
        raised = raises[0]
        if len(raises) > 1 or raised is not last or raised.exc is None:
            return None  # raised again, or raised on some paths only
        made = raised.exc.func if isinstance(raised.exc, ast.Call) else raised.exc
        written = ast.unparse(made)
        if name is not None and written == name:
            return None  # `raise e`: the same error
        instead = (written, raised.lineno)
    if any(_raising_call(n) for n in _walk(handler)):
        return None  # `with util.safe_reraise():`, `util.raise_(e)`: raised again
    if name is not None and _handed_on(handler, name):
        return None  # kept or handed to a call that may raise it later
    does = tuple(d for s in handler.body if (d := _done(s)) is not None)
    caught = "except" + (f" {ast.unparse(handler.type)}" if handler.type is not None else "")
    end = handler.end_lineno or handler.lineno
    return OwnHandler(handler.lineno, end, caught, does, instead)


def _walk(node: ast.AST) -> list[ast.AST]:
    """The nodes under `node`, not inside a nested function or class."""
    out: list[ast.AST] = []
    todo = list(ast.iter_child_nodes(node))
    while todo:
        child = todo.pop()
        if isinstance(child, _SCOPES):
            continue
        out.append(child)
        todo.extend(ast.iter_child_nodes(child))
    return out


def _raising_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return "raise" in called.lower()


def _handed_on(handler: ast.ExceptHandler, name: str) -> bool:
    """Whether the caught error is used other than in a log call, turned into text or named
    as the cause of the error raised in its place: kept (`self._error = e`), queued or
    handed to a call that may raise it later."""
    allowed: set[int] = set()
    for node in _walk(handler):
        inside: ast.AST | None = None
        if (
            isinstance(node, ast.Call)
            and (
                is_log_call(node, ALL_LOG_METHODS)
                or (isinstance(node.func, ast.Name) and node.func.id in _TEXT_CALLS)
            )
        ) or isinstance(node, ast.FormattedValue):
            inside = node
        elif isinstance(node, ast.Raise) and node.cause is not None:
            inside = node.cause
            allowed.add(id(node.cause))
        if inside is not None:
            allowed.update(id(n) for n in _walk(inside))
    return any(
        isinstance(n, ast.Name) and n.id == name and id(n) not in allowed for n in _walk(handler)
    )


def _done(statement: ast.stmt) -> str | None:
    """A statement of the handler's body in words: a log line (with the traceback, when it
    logs that), what it returns or sets, the call it makes, the loop it goes on with."""
    done = statement.value if isinstance(statement, ast.Expr) else None
    if isinstance(done, ast.Await):
        done = done.value  # `await self.send_error(...)`
    if isinstance(done, ast.Call):
        call = done
        text = logged_text(call)
        if text is not None:
            traced = isinstance(call.func, ast.Attribute) and call.func.attr == "exception"
            traced = traced or any(k.arg == "exc_info" for k in call.keywords)
            return f"logs “{text}”" + (" with the traceback" if traced else "")
        if is_log_call(call, ALL_LOG_METHODS):
            return None  # at a level a default logger does not show
        called = _called(call.func)
        return f"calls {code(called)}" if called else None
    if isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return "sets " + listed([code(ast.unparse(t)) for t in targets])
    if isinstance(statement, ast.Return):
        if statement.value is None:
            return "returns"
        value = ast.unparse(statement.value)
        return f"returns {code(value)}" if len(value) <= _MAX_RETURNED else "returns a value"
    if isinstance(statement, ast.Continue):
        return "goes on with the loop's next item"
    if isinstance(statement, ast.Break):
        return "leaves the loop"
    return None


def _called(func: ast.expr) -> str | None:
    """A callee's dotted name (`socket.send_json`), None for another expression."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        owner = _called(func.value)
        return f"{owner}.{func.attr}" if owner else None
    return None
