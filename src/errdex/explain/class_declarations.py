"""What a class's own body declares of the values a setting takes, and the classes it is
read from: shared by `explain/value_picked.py` (the class a value picks) and
`explain/stand_ins.py` (the members standing in for it).

A class declares the values it serves as a literal list (`supported_kv_cache_dtypes =
["auto", "fp8"]`) or a method testing its argument against literals
(`supports_kv_cache_dtype(cls, x)` returning `x.startswith("fp8")`): `own_values`. Its base
is followed through the version's files by the names each file imports (`class_named`,
`values_of_base`), and a registry's members to the class paths it gives them
(`member_classes`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from errdex.explain.context import kept_module, top_class_in
from errdex.explain.imported_class import module_paths
from errdex.explain.plain import code
from errdex.extract.module import module_name, resolve_relative
from errdex.extract.shapes import without_docstring
from errdex.store.base import Store, StoredSite

# `supported_kv_cache_dtypes`, `supports_kv_cache_dtype`: the setting's name inside
_LISTED = re.compile(r"supported_(?P<name>[a-z]\w*?)s")


_TESTED = re.compile(r"supports_(?P<name>[a-z]\w*)")


MOST_HOPS = 4  # bases followed from the class to the one declaring the values


def member_classes(
    store: Store, stored: StoredSite, registry: str, members: tuple[str, ...]
) -> dict[str, tuple[str, str, ast.ClassDef]]:
    """Member → (file, text, class) of the class path the registry gives it."""
    text = store.file_text(stored.version_id, registry)
    tree = kept_module(text) if text is not None else None
    if tree is None:
        return {}
    paths: dict[str, str] = {}
    for node in ast.walk(tree):
        target, value = assigned(node) if isinstance(node, ast.stmt) else (None, None)
        if target in members and isinstance(value, ast.Constant) and isinstance(value.value, str):
            paths[target] = value.value
    out = {}
    for member, path in paths.items():
        module, _, name = path.rpartition(".")
        kept = _module_file(store, stored, module) if module else None
        cls = top_class_in(kept[1], name) if kept is not None else None
        if kept is not None and cls is not None:
            out[member] = (kept[0], kept[1], cls)
    return out


Own = tuple[tuple[str, ...], str | None, str]  # values, prefix, where it is declared


def supports_value(value: str, values: tuple[str, ...], prefix: str | None) -> bool:
    return value in values or (prefix is not None and value.startswith(prefix))


def own_values(cls: ast.ClassDef) -> dict[str, Own]:
    """Setting → (values, prefix, where) of what the class declares it supports: a method
    `supports_X(cls, x)` testing its argument against literals decides (one testing it
    some other way: nothing to tell of X); else a literal list `supported_Xs`."""
    listed: dict[str, Own] = {}
    tested: dict[str, Own | None] = {}
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef):
            matched = _TESTED.fullmatch(statement.name)
            if matched is not None:
                found = _method_values(statement)
                tested[matched["name"]] = (
                    None
                    if found is None
                    else (*found, f"{code(statement.name)}, line {statement.lineno}")
                )
            continue
        target, value = assigned(statement)
        matched = _LISTED.fullmatch(target or "")
        if matched is not None and value is not None and (values := _literals(value)):
            where = f"{code(matched[0])}, line {statement.lineno}"
            listed[matched["name"]] = (values, None, where)
    out = {name: own for name, own in listed.items() if name not in tested}
    for name, own in tested.items():
        if own is None:
            continue
        values, prefix, where = own
        examples = listed.get(name, ((), None, ""))[0]
        if prefix is not None and examples and all(v.startswith(prefix) for v in examples):
            values = examples  # the list the method stands for: values to show
        out[name] = (values, prefix, where)
    return out


def assigned(statement: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        return (target.id if isinstance(target, ast.Name) else None), statement.value
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id, statement.value
    return None, None


def _literals(node: ast.expr) -> tuple[str, ...]:
    """The strings of a literal list, tuple or set of strings; () for anything else."""
    if not isinstance(node, ast.List | ast.Tuple | ast.Set) or not node.elts:
        return ()
    out = tuple(
        e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
    )
    return out if len(out) == len(node.elts) else ()


def _method_values(method: ast.FunctionDef) -> tuple[tuple[str, ...], str | None] | None:
    """The values a `supports_X(cls, x)` accepts when its body only tests `x` against
    literals: `return x.startswith("p")` (prefix `p`), `return x == "v"`, `return x in
    ("a", "b")`, after an `if x is None: return False`."""
    params = [a.arg for a in method.args.args]
    if len(params) != 2 or method.args.vararg or method.args.kwarg:
        return None
    arg = params[1]
    body = method_body(method)
    if len(body) == 2 and _refuses_none(body[0], arg):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    test = body[0].value
    prefix = startswith_argument(test, lambda subject: is_name(subject, arg))
    if isinstance(prefix, ast.Constant) and isinstance(prefix.value, str) and prefix.value:
        return (), prefix.value
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and is_name(test.left, arg):
        right = test.comparators[0]
        if isinstance(test.ops[0], ast.Eq) and isinstance(right, ast.Constant):
            return ((right.value,), None) if isinstance(right.value, str) else None
        if isinstance(test.ops[0], ast.In):
            values = _literals(right)
            return (values, None) if values else None
    return None


def startswith_argument(node: ast.expr, subject: Callable[[ast.expr], bool]) -> ast.expr | None:
    """The argument of `x.startswith(arg)` whose `x` is the subject; None for anything else."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "startswith"
        and subject(node.func.value)
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.args[0]
    return None


def method_body(method: ast.FunctionDef) -> list[ast.stmt]:
    """The method's statements, its docstring (or any bare constant) aside."""
    return without_docstring(method.body)


def _refuses_none(statement: ast.stmt, arg: str) -> bool:
    """`if x is None: return False`."""
    return (
        isinstance(statement, ast.If)
        and not statement.orelse
        and isinstance(statement.test, ast.Compare)
        and is_name(statement.test.left, arg)
        and len(statement.test.ops) == 1
        and isinstance(statement.test.ops[0], ast.Is)
        and isinstance(statement.test.comparators[0], ast.Constant)
        and statement.test.comparators[0].value is None
        and len(statement.body) == 1
        and isinstance(statement.body[0], ast.Return)
        and isinstance(statement.body[0].value, ast.Constant)
        and statement.body[0].value.value is False
    )


def is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def values_of_base(
    store: Store, stored: StoredSite, text: str, cls: ast.ClassDef, attribute: str, file: str = ""
) -> tuple[str, tuple[str, ...]] | None:
    """(base, its values) of the nearest base that declares `attribute` as a literal list,
    followed through the files of the version by the names each file imports (from `file`,
    the site's own by default); None when a base is not found, or declares the attribute
    some other way."""
    file = file or stored.file
    current = cls
    for _ in range(MOST_HOPS):
        names = [b.id for b in current.bases if isinstance(b, ast.Name)]
        if len(names) != 1 or len(current.bases) != 1:
            return None  # no base, several, or one written otherwise: nothing to tell
        found = class_named(store, stored, file, text, names[0])
        if found is None:
            return None
        file, text, current = found
        for statement in current.body:
            target, value = assigned(statement)
            if target == attribute and value is not None:
                values = _literals(value)
                return (current.name, values) if values else None
    return None


_FROM_IMPORT = re.compile(
    r"^from[ \t]+(?P<module>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n]*)", re.M
)


def class_named(
    store: Store, stored: StoredSite, file: str, text: str, name: str
) -> tuple[str, str, ast.ClassDef] | None:
    """(file, text, class) of the class `name` as the file `file` sees it: its own, or
    imported by name from a module of the version."""
    own = top_class_in(text, name)
    if own is not None:
        return file, text, own
    module, is_package = module_name(file)
    package = module if is_package else module.rpartition(".")[0]
    for matched in _FROM_IMPORT.finditer(text):
        names = matched["names"].strip("() \t\n").replace("\n", " ")
        if name not in [n.strip().split(" as ")[0].strip() for n in names.split(",")]:
            continue
        written = matched["module"]
        level = len(written) - len(written.lstrip("."))
        source = resolve_relative(package, written.lstrip(".") or None, level)
        kept = _module_file(store, stored, source)
        defined = top_class_in(kept[1], name) if kept is not None else None
        return (kept[0], kept[1], defined) if kept is not None and defined is not None else None
    return None


def _module_file(store: Store, stored: StoredSite, module: str) -> tuple[str, str] | None:
    """(path, kept text) of the version's module `module`, found as `module_file_text`
    finds it (`a/b.py`, else `a/b/__init__.py`, under the site's own folder)."""
    for path in module_paths(stored, module):
        text = store.file_text(stored.version_id, path)
        if text is not None:
            return path, text
    return None
