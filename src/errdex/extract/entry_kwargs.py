"""A constructor's `**kwargs` handed to another class (`ClassFact.kwargs_into`), and the
values it gives a key the caller left out (`ClassFact.kwargs_defaults`).

vllm's `LLM.__init__(self, model, ..., **kwargs)` builds `EngineArgs(model=model, ...,
**kwargs)`: every field of `EngineArgs` it does not give by name is a keyword of `LLM`
(`LLM(model, disable_log_stats=False)`), and `if "disable_log_stats" not in kwargs:
kwargs["disable_log_stats"] = True` is the value that keyword takes when left out, whatever
`EngineArgs` declares. Read from the constructor's text, which the skeleton may have
blanked (`init_attrs`): parsed only when its own `**` parameter is passed on as `**name`.
A constructor that rebinds the parameter keeps no fact; a key it pops or deletes is, for
every class, one the caller's keyword does not reach.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Sequence

from errdex.ast_walk import walk
from errdex.extract.field_defaults import literal_text
from errdex.extract.init_attrs import block_of, indent_of

_MAX_CALL = 4000  # characters read back from `**kwargs` for the call it is handed to


def kwargs_passing(
    cls: ast.ClassDef, lines: Sequence[str]
) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """(class called with the constructor's `**` parameter → the keywords it does not take
    from it; key → the literal the constructor gives it when the caller leaves it out)."""
    init = next(
        (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )
    if init is None or init.args.kwarg is None or not init.body:
        return {}, {}
    kwargs = init.args.kwarg.arg
    body = block_of(lines, init.body[0].lineno, indent_of(lines[init.lineno - 1]))
    if not body or not _class_given(body, kwargs):
        return {}, {}
    try:
        tree = ast.parse(textwrap.dedent("".join(body)))
    except (SyntaxError, ValueError, RecursionError):
        return {}, {}
    into: dict[str, set[str]] = {}
    taken: set[str] = set()
    for node in walk(tree):
        if _binds(node, kwargs):
            return {}, {}
        key = _taken_key(node, kwargs)
        if key == "":
            return {}, {}  # a key taken out by a name: any keyword may be
        if key is not None:
            taken.add(key)
        if not isinstance(node, ast.Call):
            continue
        if not any(k.arg is None and _is_name(k.value, kwargs) for k in node.keywords):
            continue
        callee = _callee(node.func)
        if callee and callee[:1].isupper():
            named = into.setdefault(callee, set())
            named.update(k.arg for k in node.keywords if k.arg is not None)
    if not into:
        return {}, {}
    defaults = {
        key: value
        for stmt in tree.body
        if (found := _default_given(stmt, kwargs)) is not None
        for key, value in (found,)
        if key not in taken
    }
    return {c: tuple(sorted(named | taken)) for c, named in into.items()}, defaults


def _class_given(body: list[str], kwargs: str) -> bool:
    """Whether the text hands `**kwargs` to a call of a capitalised name (`EngineArgs(...,
    **kwargs)`), read back from each `**kwargs` to its open parenthesis: most constructors
    hand theirs to `super().__init__`, which is parsed for nothing."""
    text = "".join(body)
    mark = f"**{kwargs}"
    at = text.find(mark)
    while at >= 0:
        depth = 0
        start = at - 1
        while start >= 0 and start > at - _MAX_CALL:
            char = text[start]
            if char in ")]}":
                depth += 1
            elif char in "([{":
                if depth == 0:
                    break
                depth -= 1
            start -= 1
        if start >= 0 and text[start] == "(":
            end = start
            while end > 0 and (text[end - 1].isalnum() or text[end - 1] == "_"):
                end -= 1
            if text[end:start][:1].isupper():
                return True
        at = text.find(mark, at + len(mark))
    return False


def _default_given(stmt: ast.stmt, kwargs: str) -> tuple[str, str] | None:
    """`if "k" not in kwargs: kwargs["k"] = LITERAL`, or `kwargs.setdefault("k", LITERAL)`,
    at the constructor's own level: (k, the literal as `repr` writes it)."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "setdefault"
            and _is_name(func.value, kwargs)
            and len(call.args) == 2
            and not call.keywords
        ):
            key, value = _string(call.args[0]), literal_text(call.args[1])
            return (key, value) if key is not None and value is not None else None
        return None
    if not isinstance(stmt, ast.If) or stmt.orelse or len(stmt.body) != 1:
        return None
    test, assign = stmt.test, stmt.body[0]
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.NotIn)
        and _is_name(test.comparators[0], kwargs)
    ):
        return None
    key = _string(test.left)
    if key is None or not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
        return None
    target = assign.targets[0]
    if not (
        isinstance(target, ast.Subscript)
        and _is_name(target.value, kwargs)
        and _string(target.slice) == key
    ):
        return None
    value = literal_text(assign.value)
    return (key, value) if value is not None else None


def _binds(node: ast.AST, name: str) -> bool:
    """Whether `node` binds `name` anew (an assignment, a loop or `with` target, `del`):
    not a key set or deleted in it (`kwargs["k"] = v`)."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign | ast.Delete):
        targets = list(node.targets)
    elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For | ast.NamedExpr):
        targets = [node.target]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        targets = [node.optional_vars]
    while targets:
        target = targets.pop()
        if isinstance(target, ast.Tuple | ast.List):
            targets.extend(target.elts)
        elif isinstance(target, ast.Starred):
            targets.append(target.value)
        elif _is_name(target, name):
            return True
    return False


def _taken_key(node: ast.AST, kwargs: str) -> str | None:
    """The key `kwargs.pop("k", ...)` or `del kwargs["k"]` takes out."""
    if isinstance(node, ast.Call):
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "pop"
            and _is_name(func.value, kwargs)
            and node.args
        ):
            return _string(node.args[0]) or ""
    if isinstance(node, ast.Delete):
        for target in node.targets:
            if isinstance(target, ast.Subscript) and _is_name(target.value, kwargs):
                return _string(target.slice) or ""
    return None


def _callee(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
