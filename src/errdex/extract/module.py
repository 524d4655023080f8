"""Module-level facts: the module's dotted name, its imports and its literal constants."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from errdex.extract.conditions import walk
from errdex.extract.textscan import occurrences
from errdex.lazy_re import lazy_compile

# Constants bigger than this are left out: they are tables, not messages or settings.
_MAX_CONSTANT_ITEMS = 256
_MAX_CONSTANT_CHARS = 8_000


def module_name(path: str) -> tuple[str, bool]:
    """The dotted module name of a file path, and whether it is a package's `__init__`."""
    parts = path.removesuffix(".pyi").removesuffix(".py").split("/")
    if parts and parts[0] in ("src", "lib") and len(parts) > 1:
        parts = parts[1:]
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(p for p in parts if p) or "__init__", is_package


def top_starts(tree: ast.Module) -> tuple[int, ...]:
    """The lines (1-based) that start the module's top-level statements (a decorated
    definition at its first decorator), each the first line after the statement before it
    ends (`x = (1,\n 2); y = 3`: `y` starts no chunk of its own): the file cut there is
    its top-level statements, each in one piece a page may parse alone."""
    starts: list[int] = []
    end = 0
    for stmt in tree.body:
        decorators = getattr(stmt, "decorator_list", None)
        first = decorators[0].lineno if decorators else stmt.lineno
        if first > end:
            starts.append(first)
        end = max(end, stmt.end_lineno or stmt.lineno)
    return tuple(starts)


def collect_imports(
    tree: ast.Module, module: str, is_package: bool
) -> tuple[dict[str, str], tuple[str, ...]]:
    """Local name → imported dotted target, from module-level (and guarded) imports; and the
    modules imported with `*`, in order."""
    imports: dict[str, str] = {}
    stars: list[str] = []
    package = module if is_package else module.rpartition(".")[0]
    for stmt in _module_statements(tree.body):
        _bind_imports(stmt, package, imports, stars)
    return imports, tuple(dict.fromkeys(stars))


def _bind_imports(stmt: ast.stmt, package: str, imports: dict[str, str], stars: list[str]) -> None:
    """Bind the names an import statement binds in `imports` (its `*` modules in `stars`)."""
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.asname:
                imports[alias.asname] = alias.name
            else:
                root = alias.name.split(".")[0]
                imports[root] = root
    elif isinstance(stmt, ast.ImportFrom):
        base = resolve_relative(package, stmt.module, stmt.level)
        for alias in stmt.names:
            if alias.name == "*":
                stars.append(base)
                continue
            imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name


def import_twins(
    tree: ast.Module, module: str, is_package: bool, kept: dict[str, str]
) -> dict[str, str]:
    """Module-level name → the other of two imports that bind it in two branches of one
    `if`/`else` or `try`/`except` (`if not HAS_CYEXTENSION: from ._py_util import f` / `else:
    from .cyextension.util import f`; `try: from ._speedups import f` / `except ImportError:
    from ._native import f`): the one `collect_imports` does not keep (it keeps the last).
    One of the two is often compiled, no module of the version: the link then takes the
    twin that is Python source, so the name still reaches a function whose callers count.
    `kept`: the file's imports (`collect_imports`)."""
    package = module if is_package else module.rpartition(".")[0]
    twins: dict[str, str] = {}
    for node in _module_blocks(tree.body):
        branches = (
            [node.body, node.orelse]
            if isinstance(node, ast.If)
            else [node.body, *(handler.body for handler in node.handlers)]
        )
        bound: list[dict[str, str]] = []
        for branch in branches:
            imports: dict[str, str] = {}
            for stmt in branch:  # the branch's own imports, not a nested block's
                _bind_imports(stmt, package, imports, [])
            bound.append(imports)
        for name in dict.fromkeys(name for imports in bound for name in imports):
            target = kept.get(name)
            others = {b[name] for b in bound if b.get(name) not in (None, target)}
            if (
                target is not None
                and len(others) == 1
                and any(b.get(name) == target for b in bound)
            ):
                twins[name] = others.pop()
    return twins


def resolve_local_imports(
    found: dict[str, tuple[int, str | None, str] | None],
    module: str,
    is_package: bool,
    imports: dict[str, str],
) -> dict[str, str]:
    """The names functions import themselves (`CallRecorder.local_imports`) as local name →
    "module.attr": those no module-level import binds, each imported one way in the file."""
    package = module if is_package else module.rpartition(".")[0]
    out: dict[str, str] = {}
    for name, source in found.items():
        if source is None or name in imports:
            continue
        level, written, attr = source
        base = resolve_relative(package, written, level)
        out[name] = f"{base}.{attr}" if base else attr
    return out


def resolve_relative(package: str, module: str | None, level: int) -> str:
    """The module `from .module import` names (`level` dots) in `package`."""
    if level == 0:
        return module or ""
    parts = package.split(".") if package else []
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    if module:
        parts.append(module)
    return ".".join(parts)


# What may follow `global `: names and commas up to the line's end or its comment.
_GLOBAL_NAMES = lazy_compile(r"[ \t]*(\w+(?:[ \t]*,[ \t]*\w+)*)[ \t]*(?:#|;|$)")


def collect_constants(tree: ast.Module, text: str = "") -> dict[str, Any]:
    """Module-level names bound exactly once, to a literal value (str, number, containers).

    A name that is also imported, assigned something computed, or bound twice (a fallback
    in `try`/`except ImportError`, a value chosen under `if`), or that a function of `text`
    declares `global` (it is rebound at run time), is not a constant.
    """
    constants: dict[str, Any] = {}
    bindings: dict[str, int] = {}
    for stmt in _module_statements(tree.body):
        for name in _bound_names(stmt):
            bindings[name] = bindings.get(name, 0) + 1
        target: ast.expr | None = None
        value: ast.expr | None = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        if not isinstance(target, ast.Name) or value is None:
            continue
        literal = literal_value(value)
        if literal is not _NOT_LITERAL:
            constants[target.id] = literal
    rebound = _global_names(text) if constants else set()
    return {
        name: value
        for name, value in constants.items()
        if bindings.get(name) == 1 and name not in rebound
    }


def _global_names(text: str) -> set[str]:
    """Names in `global` statements, read from the text: the bodies that hold them may
    have been blanked before parsing (see `skeleton`)."""
    names: set[str] = set()
    for at in occurrences(text, "global "):
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at)
        line = text[at + len("global ") : line_end if line_end != -1 else len(text)]
        if text[line_start:at].isspace() and (declared := _GLOBAL_NAMES.match(line)):
            names.update(n.strip() for n in declared.group(1).split(","))
    return names


def _bound_names(stmt: ast.stmt) -> list[str]:
    """Every name a module-level statement binds."""
    kind = type(stmt)  # (the parser makes no subclass of a node's class)
    if kind in _DEFINITIONS:
        return [stmt.name]  # type: ignore[attr-defined]
    if kind is ast.Import or kind is ast.ImportFrom:
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]  # type: ignore[attr-defined]
    targets: list[ast.expr]
    if kind is ast.Assign:
        targets = stmt.targets  # type: ignore[attr-defined]
    elif kind in _ONE_TARGET:
        targets = [stmt.target]  # type: ignore[attr-defined]
    else:
        return []
    return [
        n.id
        for t in targets
        # a plain name, the usual target, has nothing under it to walk
        for n in ((t,) if type(t) is ast.Name else walk(t))
        if isinstance(n, ast.Name)
    ]


_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_ONE_TARGET = frozenset({ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor})


_NOT_LITERAL: Any = object()


def literal_value(node: ast.expr) -> Any:
    """The JSON-able value of a literal expression, or `_NOT_LITERAL`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        # frozenset({...}), set([...]), tuple(...) of literals are constants too
        if node.func.id in ("frozenset", "set", "tuple", "list") and len(node.args) == 1:
            node = node.args[0]
        else:
            return _NOT_LITERAL
    if type(node) in _NEVER_LITERAL:
        return _NOT_LITERAL  # what `literal_eval` refuses, without its exception
    if _too_many_items(node):
        return _NOT_LITERAL  # never built, only to be dropped by `_jsonable`
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL
    return _jsonable(value)


# Kinds of expression `ast.literal_eval` refuses whatever they hold (it takes constants,
# containers, `set()`, signed numbers and complex sums): most module-level values that are
# no literal (`logger = init_logger(...)` is a call, refused before).
_NEVER_LITERAL = frozenset(
    {ast.Name, ast.Attribute, ast.Subscript, ast.Lambda, ast.JoinedStr, ast.Compare}
    | {ast.BoolOp, ast.IfExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp}
)


def _too_many_items(node: ast.expr) -> bool:
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return len(node.elts) > _MAX_CONSTANT_ITEMS
    return isinstance(node, ast.Dict) and len(node.keys) > _MAX_CONSTANT_ITEMS


def _jsonable(value: Any) -> Any:
    if isinstance(value, str):
        return value if len(value) <= _MAX_CONSTANT_CHARS else _NOT_LITERAL
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, tuple | list | set | frozenset):
        if len(value) > _MAX_CONSTANT_ITEMS:
            return _NOT_LITERAL
        items = [_jsonable(v) for v in value]
        if any(v is _NOT_LITERAL for v in items):
            return _NOT_LITERAL
        if isinstance(value, set | frozenset):
            items.sort(key=repr)
        return items
    if isinstance(value, dict):
        # Integer keys (`HTTP_STATUS_CODES = {400: "Bad Request"}`) are kept as JSON keeps
        # them, as text: a lookup by number reads them so.
        if len(value) > _MAX_CONSTANT_ITEMS or not all(
            isinstance(k, str) or (isinstance(k, int) and not isinstance(k, bool)) for k in value
        ):
            return _NOT_LITERAL
        if len({str(k) for k in value}) < len(value):
            return _NOT_LITERAL  # `{1: ..., "1": ...}`: no text keys can tell them apart
        out = {str(k): _jsonable(v) for k, v in value.items()}
        if any(v is _NOT_LITERAL for v in out.values()):
            return _NOT_LITERAL
        return out
    return _NOT_LITERAL


def _module_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """Module-level statements, looking inside `if`/`try` blocks (TYPE_CHECKING, fallbacks)."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.If) and is_type_checking(stmt.test):
            out.extend(_module_statements(stmt.orelse))  # the body only exists for checkers
        elif isinstance(stmt, ast.If):
            out.extend(_module_statements(stmt.body))
            out.extend(_module_statements(stmt.orelse))
        elif isinstance(stmt, ast.Try):
            out.extend(_module_statements(stmt.body))
            for handler in stmt.handlers:
                out.extend(_module_statements(handler.body))
        else:
            out.append(stmt)
    return out


def _module_blocks(body: list[ast.stmt]) -> Iterator[ast.If | ast.Try]:
    """The `if` and `try` statements at module level, and those nested in their blocks; an
    `if TYPE_CHECKING:` body only exists for checkers, so its imports are no twin."""
    for stmt in body:
        if isinstance(stmt, ast.If) and is_type_checking(stmt.test):
            yield from _module_blocks(stmt.orelse)
        elif isinstance(stmt, ast.If):
            yield stmt
            yield from _module_blocks(stmt.body)
            yield from _module_blocks(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            yield stmt
            yield from _module_blocks(stmt.body)
            for handler in stmt.handlers:
                yield from _module_blocks(handler.body)


def is_type_checking(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` / `if typing.TYPE_CHECKING:` / `if t.TYPE_CHECKING:`: a block
    only a type checker runs."""
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", None)
    return name == "TYPE_CHECKING"
