"""What the site's own file says around it, read when its page is built.

The stored facts say which conditions hold on the way to a site; the page also needs what
only the source around it says: which earlier guards are no way out because their other
branch fails too, which names are the function's parameters (the caller's input) or were
set from its class's constructor, what the `try` of an `except` did, and the comments and
docstring that say why. One file is parsed once per page; nothing of it is run.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass, field

from errdex.extract.shapes import OWN_OBJECT

_MAX_COMMENT = 400
_MAX_DOC = 600


@dataclass(frozen=True)
class TryRead:
    """What the `try` of an except clause did: the modules it imported, the calls it made."""

    imports: tuple[str, ...] = ()
    calls: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class SourceRead:
    """The facts of the site's function that only its source holds."""

    function: str = ""
    params: tuple[str, ...] = ()  # without self/cls
    # `self.attr` → the parameter of the class's `__init__` assigned to it as it is
    init_params: dict[str, str] = field(default_factory=dict)
    # `if` line → whether its body, and its else branch, always fail (raise)
    other_side: dict[int, tuple[bool, bool]] = field(default_factory=dict)
    # `if` line → whether its body, and its else branch, log a warning or warn: for a site
    # that is itself a warning, such a branch is the same trouble said another way
    warns: dict[int, tuple[bool, bool]] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)  # line → its comment
    docstring: str | None = None
    tries: dict[int, TryRead] = field(default_factory=dict)  # except line → its try
    # where the site sits when no branch condition says it: the `else` of a loop (it runs
    # when the loop ends without `break`), an except clause
    placement: str | None = None

    def other_branch_fails(self, line: int, holds: bool, warning: bool = False) -> bool:
        """Whether making the `if` test at `line` come out the other way fails too (the
        branch the path does not take raises, or warns when the site is a warning): such
        a guard is no way out."""
        sides = self.other_side.get(line)
        if sides is None:
            return False
        body_fails, else_fails = sides
        if warning:
            body_warns, else_warns = self.warns.get(line, (False, False))
            body_fails, else_fails = body_fails or body_warns, else_fails or else_warns
        # `holds`: the test is true on the path, so the way out is the else branch.
        return else_fails if holds else body_fails

    def comments_near(self, lines: list[int]) -> list[str]:
        """The comments just above each line (a block of `#` lines) and on it, in order."""
        out: list[str] = []
        for line in lines:
            block: list[str] = []
            above = line - 1
            while above in self.comments and above not in lines:
                block.insert(0, self.comments[above])
                above -= 1
            if line in self.comments:
                block.append(self.comments[line])
            text = " ".join(block).strip()
            if text and text not in out:
                out.append(text[:_MAX_COMMENT])
        return out


def read_source(text: str | None, line: int, function: str) -> SourceRead:
    """What the source of the function holding `line` says (empty when it does not parse)."""
    if not text:
        return SourceRead()
    return _read(text, line, function)


@functools.lru_cache(maxsize=64)
def _parsed(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


@functools.lru_cache(maxsize=256)
def _read(text: str, line: int, function: str) -> SourceRead:
    tree = _parsed(text)
    if tree is None:
        return SourceRead()
    chain = _enclosing(tree, line)
    func = next((n for n in reversed(chain) if isinstance(n, _FUNCTIONS)), None)
    cls = next((n for n in reversed(chain) if isinstance(n, ast.ClassDef)), None)
    scope: list[ast.stmt] = func.body if func is not None else tree.body
    other: dict[int, tuple[bool, bool]] = {}
    warns: dict[int, tuple[bool, bool]] = {}
    tries: dict[int, TryRead] = {}
    placement: str | None = None
    for node in _walk_scope(scope):
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
        if isinstance(node, ast.If):
            sides = (_fails(node.body), _fails(node.orelse))
            # a condition names the line of its `if`, or of its test when it starts later
            other[node.lineno] = other.setdefault(node.test.lineno, sides)
            warned = (_warns(node.body), _warns(node.orelse))
            warns[node.lineno] = warns.setdefault(node.test.lineno, warned)
        elif isinstance(node, ast.Try | ast.TryStar):
            read = _try_read(node.body)
            for handler in node.handlers:
                tries[handler.lineno] = read
    params: tuple[str, ...] = ()
    doc = None
    if func is not None:
        args = func.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        every += [a for a in (args.vararg, args.kwarg) if a is not None]
        params = tuple(a.arg for a in every if a.arg not in OWN_OBJECT)
        doc = ast.get_docstring(func)
    init_params: dict[str, str] = {}
    if cls is not None:
        init_params = _init_params(cls)
    lo = func.lineno if func is not None else 1
    hi = (func.end_lineno or line) if func is not None else line
    return SourceRead(
        function=function,
        params=params,
        init_params=init_params,
        other_side=other,
        warns=warns,
        comments=_comments(text, lo, hi),
        docstring=" ".join(doc.split())[:_MAX_DOC] if doc else None,
        tries=tries,
        placement=placement,
    )


def _holds(block: list[ast.stmt], line: int) -> bool:
    return bool(block) and block[0].lineno <= line <= (block[-1].end_lineno or block[-1].lineno)


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _enclosing(tree: ast.Module, line: int) -> list[ast.AST]:
    """The classes and functions that hold `line`, outermost first."""
    chain: list[ast.AST] = []
    body: list[ast.stmt] = tree.body
    while True:
        inner = None
        for stmt in body:
            if stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
                inner = stmt
                break
        if inner is None:
            return chain
        if isinstance(inner, (*_FUNCTIONS, ast.ClassDef)):
            chain.append(inner)
            body = inner.body
            continue
        # a def nested in an `if`/`try` of the body: look inside the statement's blocks
        nested = [
            s
            for s in ast.walk(inner)
            if isinstance(s, (*_FUNCTIONS, ast.ClassDef)) and s is not inner
        ]
        holding = [s for s in nested if s.lineno <= line <= (s.end_lineno or s.lineno)]
        if not holding:
            return chain
        body = [min(holding, key=lambda s: (s.end_lineno or s.lineno) - s.lineno)]


def _walk_scope(body: list[ast.stmt]) -> list[ast.stmt]:
    """Every statement of a function body, not descending into nested defs and classes."""
    out: list[ast.stmt] = []
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        out.append(stmt)
        if isinstance(stmt, (*_FUNCTIONS, ast.ClassDef)):
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(stmt, name, None)
            if isinstance(block, list):
                for child in reversed(block):
                    if isinstance(child, ast.stmt):
                        stack.append(child)
                    elif isinstance(child, ast.ExceptHandler | ast.match_case):
                        stack.extend(reversed(child.body))
    return out


def _fails(block: list[ast.stmt]) -> bool:
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
        return _fails(last.body) and _fails(last.orelse)
    return False


_WARN_CALL = re.compile(r"(?:^|\.)(?:warn|warning|error|critical|exception)(?:_once)?$")


def _warns(block: list[ast.stmt]) -> bool:
    """Whether a branch's own statements log a warning (or worse) or issue a warning."""
    for stmt in block:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            try:
                name = ast.unparse(stmt.value.func)
            except (ValueError, RecursionError):
                continue
            if _WARN_CALL.search(name):
                return True
    return False


def _try_read(body: list[ast.stmt]) -> TryRead:
    imports: list[str] = []
    calls: list[str] = []
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Import):
                imports.extend(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imports.append(node.module)
            elif isinstance(node, ast.Call):
                try:
                    calls.append(" ".join(ast.unparse(node).split())[:120])
                except (ValueError, RecursionError):
                    continue
    line = body[0].lineno if body else 0
    return TryRead(tuple(dict.fromkeys(imports)), tuple(dict.fromkeys(calls))[:3], line)


def _init_params(cls: ast.ClassDef) -> dict[str, str]:
    """`self.attr = param` (or `param or default`, `Type(param)`) in the class's `__init__`."""
    init = next((s for s in cls.body if isinstance(s, _FUNCTIONS) and s.name == "__init__"), None)
    if init is None:
        return {}
    args = init.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self"}
    out: dict[str, str] = {}
    for node in ast.walk(init):
        if not isinstance(node, ast.Assign | ast.AnnAssign):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = node.value
        source = _param_in(value, names) if value is not None else None
        if source is None:
            continue
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                out.setdefault(target.attr, source)
    return out


def _param_in(value: ast.expr, names: set[str]) -> str | None:
    """The parameter a value is as it is, or with a fallback or a conversion around it."""
    if isinstance(value, ast.Name) and value.id in names:
        return value.id
    if isinstance(value, ast.BoolOp) and isinstance(value.values[0], ast.Name):
        return value.values[0].id if value.values[0].id in names else None
    if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
        return _param_in(value.args[0], names)
    return None


def _comments(text: str, lo: int, hi: int) -> dict[int, str]:
    """The comments of lines `lo`..`hi` (a function): line → its text without `#`.

    A line scan, not the tokenizer (which costs more than parsing the file): a `#` counts
    when the quotes before it on its line are balanced, so a `#` inside a one-line string
    is not taken; a comment-like line inside a multi-line string may be.
    """
    out: dict[int, str] = {}
    for number, line in enumerate(text.splitlines()[lo - 1 : hi], lo):
        at = line.find("#")
        while at != -1 and (line.count('"', 0, at) % 2 or line.count("'", 0, at) % 2):
            at = line.find("#", at + 1)
        if at == -1:
            continue
        words = line[at:].lstrip("#").strip()
        if words and not words.startswith(_DIRECTIVES):
            out[number] = words
    return out


_DIRECTIVES = ("noqa", "type:", "fmt:", "pragma", "pylint:", "mypy:", "ruff:")
