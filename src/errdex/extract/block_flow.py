"""How the statements around a line flow: where a line sits in its function (the
definitions that hold it, the loop `else` or except clause around it), whether a block
leaves, fails or warns, and what a `try` runs; read from the parsed file for `reading.py`.
"""

from __future__ import annotations

import ast
import bisect
from collections import deque
from collections.abc import Iterable, Iterator

from errdex.extract.conditions import child_nodes
from errdex.lazy_re import lazy_compile
from errdex.reading_facts import TryRead

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFS = (*_FUNCTIONS, ast.ClassDef)  # made once, not at each test
_MAX_CALLEES = 16  # names a `try` calls, kept to tell what its `except` can catch
_WARN_NAME = lazy_compile(r"(?:warn|warning|error|critical|exception)(?:_once)?")
# The function and the class a line's statement is in: the innermost of each, None outside
# any (`Enclosing.chain` finds them by the line; the walker as it walks, `Walker.holders`).
Holders = tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, ast.ClassDef | None]
# What may stand before `def` or `class` on a line that defines one.
_LINE_HEAD = lazy_compile(r"[ \t\f]*(?:async[ \t\f]+)?")


def def_starts(text: str) -> list[int]:
    """Where each line that starts with `def`, `async def` or `class` starts."""
    out: list[int] = []
    for at in _def_words(text):
        start = text.rfind("\n", 0, at) + 1
        head = _LINE_HEAD.match(text, start)
        if head is not None and head.end() == at:
            out.append(start)
    return out


def _def_words(text: str) -> list[int]:
    """Where `def` or `class` is followed by no word character, in order: what the pattern
    `(?:def|class)\\b` finds, found with `str.find`, four times faster (the two words
    share no start for the regex engine to jump to)."""
    found: list[int] = []
    for word in ("def", "class"):
        at = text.find(word)
        while at != -1:
            after = text[at + len(word) : at + len(word) + 1]
            if not (after.isalnum() or after == "_"):
                found.append(at)
            at = text.find(word, at + 1)
    return sorted(found)


def line_numbers(text: str, offsets: list[int]) -> list[int]:
    """The line of each of the sorted `offsets`, counting newlines once."""
    out: list[int] = []
    line, at = 1, 0
    for offset in offsets:
        line += text.count("\n", at, offset)
        at = offset
        out.append(line)
    return out


def placement_of(nodes: list[ast.stmt], line: int) -> str | None:
    """Where the line sits when no branch condition says it: the `else` of a loop (the
    innermost), else the first except clause holding it."""
    placement: str | None = None
    for node in nodes:
        if isinstance(node, ast.For | ast.AsyncFor | ast.While) and _holds(node.orelse, line):
            header = (
                ast.unparse(node.target) + " in " + ast.unparse(node.iter)
                if isinstance(node, ast.For | ast.AsyncFor)
                else "while " + ast.unparse(node.test)
            )
            loop = f"for {header}" if not header.startswith("while ") else header
            placement = (
                f"in the `else` of the loop `{' '.join(loop.split())[:80]}` (line {node.lineno}): "
                "it runs when the loop ends without a `break`"
            )
        elif isinstance(node, ast.Try | ast.TryStar):
            for handler in node.handlers:
                if _holds(handler.body, line) and placement is None:
                    caught = ast.unparse(handler.type) if handler.type else "any exception"
                    placement = f"in the clause `except {caught}` (line {handler.lineno})"
    return placement


def _holds(block: list[ast.stmt], line: int) -> bool:
    return bool(block) and block[0].lineno <= line <= (block[-1].end_lineno or block[-1].lineno)


class Enclosing:
    """The classes and functions that hold a line, for the lines of one file."""

    def __init__(self, tree: ast.Module, text: str) -> None:
        self.tree = tree
        self._text = text
        self._def_lines: list[int] | None = None
        self._starts: dict[int, list[int]] = {}

    @property
    def def_lines(self) -> list[int]:
        """The lines where a def or class starts: a statement that has none inside has no
        def inside to look for. Found when a line first sits in such a statement (most
        files' sites are in functions whose chain needs none)."""
        if self._def_lines is None:
            self._def_lines = line_numbers(self._text, def_starts(self._text))
        return self._def_lines

    def chain(self, line: int) -> list[ast.AST]:
        """The classes and functions that hold `line`, outermost first."""
        chain: list[ast.AST] = []
        body: list[ast.stmt] = self.tree.body
        while True:
            inner = self._holding(body, line)
            if inner is None:
                return chain
            if isinstance(inner, _DEFS):
                chain.append(inner)
                body = inner.body
                continue
            # defs nested in an `if`/`try`/`with` of the body: each one holding the line (a
            # class under `if TYPE_CHECKING:` holds its methods' lines as a top-level one does)
            end = inner.end_lineno or inner.lineno
            after = bisect.bisect_right(self.def_lines, inner.lineno)
            if after == len(self.def_lines) or self.def_lines[after] > end:
                return chain
            holding = _defs_holding(inner, line)
            if not holding:
                return chain
            chain.extend(holding)
            body = holding[-1].body  # type: ignore[attr-defined]

    def _holding(self, body: list[ast.stmt], line: int) -> ast.stmt | None:
        """The first statement of `body` that holds `line` (statements of one line may
        share it)."""
        starts = self._starts.get(id(body))
        if starts is None:
            starts = self._starts[id(body)] = [s.lineno for s in body]
        at = bisect.bisect_right(starts, line) - 1
        if at < 0:
            return None
        at = bisect.bisect_left(starts, starts[at])
        stmt = body[at]
        return stmt if line <= (stmt.end_lineno or stmt.lineno) else None


def _defs_holding(stmt: ast.stmt, line: int) -> list[ast.stmt]:
    """The defs and classes inside `stmt` that hold `line`, outermost first (each holds the
    next: a block's statements that hold one line are one compound statement at most, as
    a `def` or `class` cannot follow a `;`): only blocks of statements that hold the line
    are looked into (a def is a statement)."""
    out: list[ast.stmt] = []
    stack = [stmt]
    while stack:
        node = stack.pop()
        if node is not stmt and isinstance(node, _DEFS):
            out.append(node)
        for block in statement_blocks(node):
            stack.extend(
                s for s in reversed(block) if s.lineno <= line <= (s.end_lineno or s.lineno)
            )
    return out


def statement_blocks(stmt: ast.stmt) -> Iterable[list[ast.stmt]]:
    """The blocks of statements right under `stmt`: its body, `else`, `finally`, and the
    body of each except clause or match case."""
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list):
            yield block
    for clause in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
        yield clause.body


def walk_scope(body: list[ast.stmt]) -> list[ast.stmt]:
    """Every statement of a function body, not descending into nested defs and classes."""
    out: list[ast.stmt] = []
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        out.append(stmt)
        for name in _SCOPE_BLOCKS.get(type(stmt), ()):
            for child in reversed(getattr(stmt, name)):
                if isinstance(child, ast.stmt):
                    stack.append(child)
                else:  # an except clause, a case of a match
                    stack.extend(reversed(child.body))
    return out


def block_leaves(block: list[ast.stmt]) -> bool:
    """Whether a branch may leave its block: a return, raise, break or continue in it
    (outside nested functions and classes).

    Only the blocks of its statements are looked into: an expression holds no statement,
    and walking every expression of every nested `if` again made this cost seconds."""
    stack: list[ast.stmt] = list(block)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.Return | ast.Raise | ast.Break | ast.Continue):
            return True
        for name in _SCOPE_BLOCKS.get(type(stmt), ()):
            for child in getattr(stmt, name):
                if isinstance(child, ast.stmt):
                    stack.append(child)
                else:  # an except clause, a case of a match
                    stack.extend(child.body)
    return False


# The blocks of each compound statement, in the order a function body runs them; a nested
# def or class is a scope of its own.
_SCOPE_BLOCKS: dict[type, tuple[str, ...]] = {
    kind: tuple(f for f in ("body", "orelse", "finalbody", "handlers", "cases") if f in fields)
    for kind in (
        ast.If,
        ast.For,
        ast.AsyncFor,
        ast.While,
        ast.With,
        ast.AsyncWith,
        ast.Try,
        ast.TryStar,
        ast.Match,
    )
    for fields in [kind._fields]
}


def block_fails(block: list[ast.stmt]) -> bool:
    """Whether a branch always ends in a failure: a raise, `assert False`, an `if` whose
    every branch fails."""
    if not block:
        return False
    last = block[-1]
    if isinstance(last, ast.Raise):
        return True
    if isinstance(last, ast.Assert):
        test = last.test
        return isinstance(test, ast.Constant) and not test.value
    if isinstance(last, ast.If):
        return block_fails(last.body) and block_fails(last.orelse)
    return False


def block_warns(block: list[ast.stmt]) -> bool:
    """Whether a branch's own statements log a warning (or worse) or issue a warning."""
    for stmt in block:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            # the called name's last part: a call of a call or of a subscript names none
            func = stmt.value.func
            last = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if isinstance(func, ast.Name | ast.Attribute) and _WARN_NAME.fullmatch(last or ""):
                return True
    return False


def try_read(body: list[ast.stmt]) -> TryRead:
    imports: list[str] = []
    calls: list[str] = []
    callees: dict[str, None] = {}
    for stmt in body:
        for node in _run_by(stmt):
            if isinstance(node, ast.Import):
                imports.extend(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imports.append(node.module)
            if isinstance(node, ast.Call) and len(callees) < _MAX_CALLEES:
                callees.update(dict.fromkeys(_callee_names(node.func)))
            if isinstance(node, ast.Call) and len(set(calls)) < 3:  # a page names three
                try:
                    calls.append(" ".join(ast.unparse(node).split())[:120])
                except (ValueError, RecursionError):
                    continue
    line = body[0].lineno if body else 0
    return TryRead(
        tuple(dict.fromkeys(imports)), tuple(dict.fromkeys(calls))[:3], line, tuple(callees)
    )


def _callee_names(func: ast.expr) -> list[str]:
    """The name a call calls (`parse` of `parser.parse`), and the class named as its
    receiver (`Parser` of `Parser.load`, `pkg.Parser.load`)."""
    if isinstance(func, ast.Name):
        return [func.id]
    if not isinstance(func, ast.Attribute):
        return []
    owner = func.value
    named = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", None)
    return [func.attr, *([named] if named and named[:1].isupper() else [])]


def _run_by(stmt: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of `stmt` in `ast.walk`'s order, but not the parts of a function it defines
    that defining it does not run (its signature, its body; the decorators run). Operator
    and context leaves (`Load()`, `Add()`) are left out: they hold nothing, and are no
    import or call (`child_nodes`, not `ast.iter_child_nodes`, which reads every field)."""
    queue: deque[ast.AST] = deque([stmt])
    while queue:
        node = queue.popleft()
        if isinstance(node, _FUNCTIONS):
            queue.extend(node.decorator_list)
        elif isinstance(node, ast.Lambda):
            queue.extend(node.args.defaults)
            queue.extend(d for d in node.args.kw_defaults if d is not None)
        else:
            queue.extend(child_nodes(node))
        yield node
