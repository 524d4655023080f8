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

from errdex.ast_walk import walk
from errdex.extract.block_flow import statement_blocks
from errdex.extract.field_defaults import literal_text
from errdex.extract.init_attrs import ClassText
from errdex.extract.shapes import is_name
from errdex.extract.textscan import name_start

_MAX_CALL = 4000  # characters read back from `**kwargs` for the call it is handed to


def kwargs_passing(whole: ClassText) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """(class called with the constructor's `**` parameter → the keywords it does not take
    from it; key → the literal the constructor gives it when the caller leaves it out)."""
    init = whole.init
    if init is None or init.args.kwarg is None or not init.body:
        return {}, {}
    kwargs = init.args.kwarg.arg
    body = whole.init_body
    if not body or not _class_given(body, kwargs):
        return {}, {}
    try:
        tree = ast.parse(textwrap.dedent("".join(body)))
    except (SyntaxError, ValueError, RecursionError):
        return {}, {}
    into: dict[str, set[str]] = {}
    taken: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.Name) and node.id == kwargs and not isinstance(node.ctx, ast.Load):
            return {}, {}  # bound anew (assigned, a loop's or `with`'s target, deleted)
        key = _taken_key(node, kwargs)
        if key == "":
            return {}, {}  # a key taken out by a name: any keyword may be
        if key is not None:
            taken.add(key)
        if not isinstance(node, ast.Call):
            continue
        if not any(k.arg is None and is_name(k.value, kwargs) for k in node.keywords):
            continue
        callee = _callee(node.func)
        if callee and callee[:1].isupper():
            named = into.setdefault(callee, set())
            named.update(k.arg for k in node.keywords if k.arg is not None)
    if not into:
        return {}, {}
    overridden = _overridden(tree.body, kwargs, frozenset(), frozenset())
    if overridden is None:
        return {}, {}  # a key set by a name, or a mapping merged in: any keyword may be
    taken |= overridden
    defaults: dict[str, str] = {}
    for stmt in tree.body:
        found = _default_given(stmt, kwargs)
        if found is not None and found[0] not in taken:
            defaults.setdefault(*found)  # the first one given holds: the key is in after it
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
        if (
            start >= 0
            and text[start] == "("
            and text[name_start(text, start) : start][:1].isupper()
        ):
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
            and is_name(func.value, kwargs)
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
        and is_name(test.comparators[0], kwargs)
    ):
        return None
    key = _string(test.left)
    if key is None or not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
        return None
    target = assign.targets[0]
    if not (
        isinstance(target, ast.Subscript)
        and is_name(target.value, kwargs)
        and _string(target.slice) == key
    ):
        return None
    value = literal_text(assign.value)
    return (key, value) if value is not None else None


def _overridden(
    body: list[ast.stmt], kwargs: str, given: frozenset[str], absent: frozenset[str]
) -> set[str] | None:
    """The keys the constructor sets over whatever the caller gave (`kwargs["k"] = v`,
    `kwargs.update(k=v)`, under no test or a test of something else), so the caller's
    keyword does not reach the call: not a key set only when left out (under `"k" not in
    kwargs`), nor the caller's own value converted (under `"k" in kwargs` to anything but
    a literal, or a value that reads `kwargs`). None when a key is set by a name."""
    out: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(stmt, ast.If):
            present, missing = _keys_tested(stmt.test, kwargs)
            inner = _overridden(stmt.body, kwargs, given | present, absent | missing)
            if isinstance(stmt.test, ast.BoolOp):
                present = missing = frozenset()  # the `else` of `a and b`: either may fail
            other = _overridden(stmt.orelse, kwargs, given | missing, absent | present)
            if inner is None or other is None:
                return None
            out |= inner | other
            continue
        for block in statement_blocks(stmt):
            found = _overridden(block, kwargs, given, absent)
            if found is None:
                return None
            out |= found
        for key, reads, literal in _keys_set(stmt, kwargs):
            if key is None:
                return None
            if key in absent or reads or (key in given and not literal):
                continue  # a default, or the caller's own value converted
            out.add(key)
    return out


def _keys_tested(test: ast.expr, kwargs: str) -> tuple[frozenset[str], frozenset[str]]:
    """(keys `test` holds are in `kwargs`, keys it holds are not): `"k" in kwargs`, `"k"
    not in kwargs`, alone or as conjuncts of an `and`."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    present: set[str] = set()
    missing: set[str] = set()
    for part in parts:
        if not (
            isinstance(part, ast.Compare)
            and len(part.ops) == 1
            and is_name(part.comparators[0], kwargs)
            and (key := _string(part.left)) is not None
        ):
            continue
        if isinstance(part.ops[0], ast.In):
            present.add(key)
        elif isinstance(part.ops[0], ast.NotIn):
            missing.add(key)
    return frozenset(present), frozenset(missing)


def _keys_set(stmt: ast.stmt, kwargs: str) -> list[tuple[str | None, bool, bool]]:
    """The keys a simple statement sets in `kwargs` (None for one set by a name or a mapping
    merged in), each with whether the value reads `kwargs` itself and whether it is a
    literal (no conversion of what the caller gave)."""
    out: list[tuple[str | None, bool, bool]] = []
    if isinstance(stmt, ast.Assign):
        reads = any(is_name(n, kwargs) for n in walk(stmt.value))
        literal = literal_text(stmt.value) is not None
        for target in stmt.targets:
            if isinstance(target, ast.Subscript) and is_name(target.value, kwargs):
                out.append((_string(target.slice), reads, literal))
    elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "update"
            and is_name(func.value, kwargs)
        ):
            return out
        reads = any(is_name(n, kwargs) for a in call.args for n in walk(a))
        out += [(k.arg, reads, True) for k in call.keywords]
        for arg in call.args:
            if isinstance(arg, ast.Dict):
                out += [(_string(k) if k is not None else None, reads, True) for k in arg.keys]
            else:
                out.append((None, reads, True))
    return out


def _taken_key(node: ast.AST, kwargs: str) -> str | None:
    """The key `kwargs.pop("k", ...)` or `del kwargs["k"]` takes out."""
    if isinstance(node, ast.Call):
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "pop"
            and is_name(func.value, kwargs)
            and node.args
        ):
            return _string(node.args[0]) or ""
    if isinstance(node, ast.Delete):
        for target in node.targets:
            if isinstance(target, ast.Subscript) and is_name(target.value, kwargs):
                return _string(target.slice) or ""
    return None


def _callee(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
