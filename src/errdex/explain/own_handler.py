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
it was; so does a handler with a statement not read here (an `if`, a loop, a `with`, a
nested `def`, an `assert`), which may leave on some of its paths only, and one that keeps the
error's text (`error = f"{exc}"`, `error = traceback.format_exc()`: a later line may raise
it) or `sys.exc_info()`. The handler is the first of its `try` that matches the raised class;
which one matches is known for a built-in class against the names the file binds (a class it
defines or imports is no built-in one; `ParseError = ValueError`, `errors.ConnectionError` are
not known), and for a class of the package whose chain of bases is all read.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass

from errdex.ast_walk import SCOPES, walk, walk_scope
from errdex.explain.context import Facts, async_function_at, function_span, lines_of
from errdex.explain.outline import binding
from errdex.explain.plain import code, listed
from errdex.explain.why_texts import ALL_LOG_METHODS, is_log_call, text_literal
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import is_exit_call
from errdex.facts import SiteKind

__all__ = ["OwnHandler", "caught_without_replacement", "own_handler"]

_BROAD = ("Exception", "BaseException")
# the error handed to these keeps it in a text: no way for it to be raised again
_BASES_READ = 8  # the linker reads this many of a class's bases (`Namespace.bases`)
_TEXT_CALLS = frozenset({"str", "repr", "type", "format"})
_MAX_RETURNED = 80  # a returned expression longer than this is "a value"
# the statements of a handler whose whole effect is read here (a `raise` only as its last)
_READ = (
    ast.Expr,
    ast.Assign,
    ast.AnnAssign,
    ast.AugAssign,
    ast.Return,
    ast.Continue,
    ast.Break,
    ast.Pass,
    ast.Raise,
    ast.Import,
    ast.ImportFrom,
    ast.Delete,
    ast.Global,
    ast.Nonlocal,
)
# what leaves a handler on a path of its own (or hands a value out on the way)
_EXITS = (ast.Return, ast.Continue, ast.Break, ast.Raise, ast.Yield, ast.YieldFrom)
_ASSIGNS = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)
# calls that hand the error being handled to whoever keeps their value
_EXC_INFO = frozenset({"sys.exc_info", "sys.exception", "exc_info"})
# calls that give the text of the error being handled, with its traceback
_TRACEBACK_TEXT = frozenset(
    {
        f"{module}{call}"
        for module in ("traceback.", "")
        for call in ("format_exc", "format_exception", "format_exception_only")
    }
)
_TRY = re.compile(r"\s*try\s*:")


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


def caught_without_replacement(facts: Facts) -> bool:
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
    tries = _tries(scope, site.line)
    bound = _Bound(facts, tries)
    for node in tries:
        for handler in node.handlers:
            catches = _catches(handler, raised, bound)
            if catches is None:
                return None  # whether it takes the error is not known: nor is which does
            if not catches:
                continue  # known not to (a raised class of the package never gets here)
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
    return any(_TRY.match(lines[at]) for at in range(start, min(site.line, len(lines))))


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
        if child is None or isinstance(child, SCOPES):
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
    exception: bool | None  # whether `except Exception` takes it; None: not known


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
    if builtin is not None:
        exception: bool | None = issubclass(builtin, Exception)
    else:
        exception = _an_exception(info.bases if info is not None else (), facts.stored.module)
    return _Raised(frozenset({name, *bases}), builtin, exception)


def _an_exception(bases: tuple[str, ...], module: str) -> bool | None:
    """Whether a class of the package with these bases (the linker's, nearest first) is an
    `Exception`: True when one is a built-in subclass of it; False when the chain is all
    read (built-in classes and the package's own) and none is; None when a base is not
    resolved (`asyncio.CancelledError` is no `Exception`) or the chain is cut at the
    linker's limit."""
    found = [_builtin(b.removeprefix("builtins.")) for b in bases if b.startswith("builtins.")]
    if any(c is not None and issubclass(c, Exception) for c in found):
        return True
    package = module.partition(".")[0] + "."
    read = all(b.startswith(("builtins.", package)) or b == "object" for b in bases)
    if not found or not read or len(bases) >= _BASES_READ:
        return None
    return False


def _builtin(name: str) -> type[BaseException] | None:
    found = getattr(builtins, name, None)
    return found if isinstance(found, type) and issubclass(found, BaseException) else None


def _catches(handler: ast.ExceptHandler, raised: _Raised, classes: _Bound) -> bool | None:
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
        if raised.builtin is not None:
            bound = classes.of(kind)
            if isinstance(bound, type):
                if issubclass(raised.builtin, bound):
                    return True
            elif bound is None:
                # `socket.error` (OSError), `ParseError = ValueError`, `_ERRORS` (a tuple
                # that may hold the class), a name the file does not bind
                unknown = True
            # else a class of a package: a built-in class is no subclass of it
            continue
        if written in raised.names or written == "BaseException":
            return True
        if written == "Exception" and raised.exception is not None:
            if raised.exception:
                return True
            continue
        # a class of the package may derive from the caught one further up: not known
        unknown = True
    return None if unknown else False


class _Bound:
    """What the names of the site's file stand for at its top level, read once a page: a
    class it defines or imports, or something else it binds (`ParseError = ValueError`)."""

    def __init__(self, facts: Facts, tries: list[ast.Try | ast.TryStar]) -> None:
        self._facts = facts
        # the plain names the handlers write: the top-level statements that may bind one of
        # them are parsed (the first time a built-in error asks), not the whole file
        self._names = frozenset(
            n.id
            for node in tries
            for handler in node.handlers
            if handler.type is not None
            for n in walk(handler.type)
            if isinstance(n, ast.Name)
        )
        self._read = False
        self.classes: set[str] = set()
        self.others: set[str] = set()
        self.starred = False  # `from .errors import *`: any name may be bound

    def _bindings(self) -> None:
        self._read = True
        tree = self._facts.top_module(binding(self._names))
        for statement in tree.body if tree is not None else ():
            if isinstance(statement, ast.ClassDef):
                self.classes.add(statement.name)
            elif isinstance(statement, ast.Import | ast.ImportFrom):
                self.classes.update(_imported(statement))
            elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                self.others.add(statement.name)
            else:  # bound otherwise, or on some paths only (`try: from x import E`)
                self.others.update(_bound_in(statement))
        self.starred = "*" in self.classes

    def of(self, kind: ast.expr) -> type[BaseException] | bool | None:
        """The built-in class `kind` names, True for a class of a package (one the file
        defines or imports by that name, or a module's CapWords attribute not named as a
        built-in), None when not known (another dotted name, a name the file binds otherwise
        or not at all)."""
        if isinstance(kind, ast.Attribute):
            if isinstance(kind.value, ast.Name) and kind.value.id == "builtins":
                return _builtin(kind.attr)
            # `json.JSONDecodeError`, `exceptions.MalformedJSON`: a class of its module as
            # one imported by name is; not one spelt as a built-in (`errors.ConnectionError`
            # may be the package's own, `asyncio.TimeoutError` is the built-in one) nor an
            # alias's lower case (`socket.error` is `OSError`)
            written = kind.attr
            if hasattr(builtins, written) or not written[:1].isupper() or written.isupper():
                return None
            return True
        if not isinstance(kind, ast.Name):
            return None
        if not self._read:
            self._bindings()
        if kind.id in self.others:
            return None
        if kind.id in self.classes:
            return True
        return None if self.starred else _builtin(kind.id)


def _imported(statement: ast.Import | ast.ImportFrom) -> list[str]:
    return [(a.asname or a.name).partition(".")[0] for a in statement.names]


def _bound_in(statement: ast.stmt) -> set[str]:
    """The names a top-level statement binds: assigned, defined or imported anywhere in it."""
    found: set[str] = set()
    for node in walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found.update(_imported(node))
    return found


def _described(handler: ast.ExceptHandler) -> OwnHandler | None:
    """What the handler does, when all of it is read here: None when it may raise the
    error again or raises on some paths only."""
    unread = [s for s in handler.body if not isinstance(s, _READ)]
    leaves = isinstance(handler.body[-1], ast.Raise)
    if unread and not (leaves and all(_goes_on(s) for s in unread)):
        # an `if`, a loop, a `with`, a nested `def`: not all of it read here (one that
        # leaves on no path of its own before a last `raise` keeps what that raises)
        return None
    name = handler.name
    raises = [n for n in walk_scope(handler.body) if isinstance(n, ast.Raise)]
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
    if any(_raising_call(n) for n in walk_scope(handler.body)):
        return None  # `with util.safe_reraise():`, `util.raise_(e)`: raised again
    if _kept_info(handler, leaves):
        return None  # `self._exc = sys.exc_info()`, `error = traceback.format_exc()`
    if name is not None and _handed_on(handler, name, leaves):
        return None  # kept or handed to a call that may raise it later
    does = tuple(d for s in handler.body if (d := _done(s)) is not None)
    if not does and all(isinstance(s, ast.Pass) for s in handler.body):
        does = ("does nothing",)
    caught = "except" + (f" {ast.unparse(handler.type)}" if handler.type is not None else "")
    end = handler.end_lineno or handler.lineno
    return OwnHandler(handler.lineno, end, caught, does, instead)


def _goes_on(statement: ast.stmt) -> bool:
    """Whether no path of the statement leaves the handler (a return, raise, loop exit,
    yield or exit call anywhere in it)."""
    return not any(
        isinstance(n, _EXITS) or (isinstance(n, ast.Call) and is_exit_call(n))
        for n in walk(statement)
    )


def _raising_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return "raise" in called.lower()


def _kept_info(handler: ast.ExceptHandler, leaves: bool) -> bool:
    """Whether the handler keeps the error being handled, or its traceback's text, where a
    later line may raise it: `sys.exc_info()` anywhere but in a log call (`exc_info=` of a
    log line only shows it), `traceback.format_exc()` in a kept assignment."""
    kept = _kept(handler, leaves)
    logged = {
        id(n)
        for c in walk(handler)
        if isinstance(c, ast.Call) and is_log_call(c, ALL_LOG_METHODS)
        for n in walk(c)
    }
    for node in walk(handler):
        if not isinstance(node, ast.Call):
            continue
        called = dotted_name(node.func)
        if called in _EXC_INFO and id(node) not in logged:
            return True
        if called in _TRACEBACK_TEXT and id(node) in kept:
            return True
    return False


def _kept(handler: ast.ExceptHandler, leaves: bool) -> set[int]:
    """The nodes of the handler's assignments that keep a value past it: all but those to
    locals of a handler that `leaves` by its last `raise` (no later line reads them)."""
    return {
        id(n)
        for s in walk(handler)
        if isinstance(s, _ASSIGNS) and not (leaves and _local(s))
        for n in walk(s)
    }


def _handed_on(handler: ast.ExceptHandler, name: str, leaves: bool) -> bool:
    """Whether the caught error is used other than in a log call, turned into text that is
    not kept, or named as the cause of the error raised in its place: kept (`self._error =
    e`), its text kept (`error = f"{type(e).__name__}: {e}"`, which a later line may raise),
    queued, or handed to a call (or a callback made here: `lambda: fut.set_exception(e)`)
    that may raise it later. A handler that `leaves` by its last `raise` may keep the text in
    a local (`s = f"{e}"` for its log line): no later line reads it."""
    nodes = list(walk(handler))  # nested functions too: a callback may raise it later
    kept = _kept(handler, leaves)
    allowed: set[int] = set()
    for node in nodes:
        inside: ast.AST | None = None
        if (isinstance(node, ast.Call) and is_log_call(node, ALL_LOG_METHODS)) or (
            _as_text(node) and id(node) not in kept
        ):
            inside = node
        elif isinstance(node, ast.Raise) and node.cause is not None:
            inside = node.cause
        if inside is not None:
            allowed.update(id(n) for n in walk(inside))
    return any(isinstance(n, ast.Name) and n.id == name and id(n) not in allowed for n in nodes)


def _local(assignment: ast.AST) -> bool:
    """`s = ...`: an assignment to local names only."""
    if isinstance(assignment, ast.Assign):
        targets = assignment.targets
    elif isinstance(assignment, ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
        targets = [assignment.target]
    else:
        return False
    return all(isinstance(t, ast.Name) for t in targets)


def _as_text(node: ast.AST) -> bool:
    """`str(e)`, `type(e)`, an f-string's `{e}`."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in _TEXT_CALLS
    return isinstance(node, ast.FormattedValue)


def _done(statement: ast.stmt) -> str | None:
    """A statement of the handler's body in words: a log line (with the traceback, when it
    logs that), what it returns or sets, the call it makes, the loop it goes on with."""
    done = statement.value if isinstance(statement, ast.Expr) else None
    if isinstance(done, ast.Await):
        done = done.value  # `await self.send_error(...)`
    if isinstance(done, ast.Call):
        if is_log_call(done, ALL_LOG_METHODS):
            return _logged(done)
        called = dotted_name(done.func)
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


def _logged(call: ast.Call) -> str | None:
    """`logger.error(...)` in words: "logs “...”" (its text, or the expression it logs),
    with the traceback when it logs that; None at a level a default logger does not show
    (`debug`, `log(logging.DEBUG, ...)`)."""
    assert isinstance(call.func, ast.Attribute)  # is_log_call's
    method, args = call.func.attr, call.args
    if method == "log":
        level = args[0]
        if len(args) < 2 or "DEBUG" in ast.unparse(level):
            return None
        if isinstance(level, ast.Constant) and isinstance(level.value, int) and level.value < 20:
            return None  # below INFO
        args = args[1:]
    elif method in ("debug", "debug_once"):
        return None
    text = text_literal(args[0])
    if text is not None:
        said = f"“{text}”"
    else:
        written = ast.unparse(args[0])
        said = code(written) if len(written) <= _MAX_RETURNED else "a message"
    traced = method == "exception" or any(
        k.arg == "exc_info" and not (isinstance(k.value, ast.Constant) and not k.value.value)
        for k in call.keywords
    )
    return f"logs {said}" + (" with the traceback" if traced else "")
