"""The value of a setting that picks the code a site sits in: a class that supports only
values its base does not.

A backend declares the values of a setting it serves (`supported_kv_cache_dtypes =
["octave_k3v4", "octave_k3v3"]`, or `supports_kv_cache_dtype(cls, kv_cache_dtype)` that
returns `kv_cache_dtype.startswith("turboquant_")`), and the selection picks a backend only
for a value it supports. When none of those values is one its base declares for every
backend (`AttentionBackend.supported_kv_cache_dtypes = ["auto", "float16", "bfloat16"]`), the
class's code runs only because the user gave the setting such a value: a value of the base's
(`--kv-cache-dtype auto`) picks other code and avoids the check. Choosing another backend
alone does not: the backend the user names must support the value as well, and no backend
made for the base's values does.

Only what the code states is followed: the setting is a flag of the version named as the
attribute is (`kv_cache_dtype`, `--kv-cache-dtype`), the values are literals, the base's
list is a literal of a class the files of the version hold, and the class is the only one
of its file that derives from that base (a file of several backends sharing code, one of
them restricted, says nothing of the others).
"""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Callable

import msgspec

from errdex.ast_walk import walk
from errdex.explain.context import Facts, top_class_in
from errdex.explain.imported_class import module_paths
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.parse_cache import kept_parse
from errdex.explain.picked_value import ValuePicked
from errdex.explain.plain import code
from errdex.extract.module import module_name, resolve_relative
from errdex.facts import KnobKind, SiteKind
from errdex.store.base import Store, StoredSite

# `supported_kv_cache_dtypes`, `supports_kv_cache_dtype`: the setting's name inside
_LISTED = re.compile(r"supported_(?P<name>[a-z]\w*?)s")
_TESTED = re.compile(r"supports_(?P<name>[a-z]\w*)")
_MOST_HOPS = 4  # bases followed from the class to the one declaring the values
# What a class's body must hold for `_own_values` to find anything: a `def supports_X(`,
# or a statement assigning (or annotating) a `supported_Xs` name (`_declares`). Most files
# that name `supported_` only read such lists (`if x not in backend.supported_dtypes:`): no
# class of theirs is parsed. Both patterns open with a literal, which `re` scans for fast.
_DEF_TESTED = re.compile(r"def\s+supports_[a-z]")
_BOUND_LIST = re.compile(r"supported_[a-z]\w*s(?:[ \t)]|\\\n)*(?:=(?!=)|:)")


def value_picked(store: Store, stored: StoredSite, facts: Facts) -> ValuePicked | None:
    """The class of the site's file picked only for a value of a setting its base does
    not support, or None. Not for a log record or a warning (the program goes on)."""
    text = facts.source_text
    if stored.site.kind in (SiteKind.LOG, SiteKind.WARN) or text is None:
        return None
    if "supported_" not in text and "supports_" not in text:
        return None  # most files: no class declaring what it supports
    if not _declares(text):
        return None  # named, never declared: the file's classes are not parsed
    # the classes that may declare values first (in a file of many classes, a few): the
    # others declare none, and are read only once one class is found restricted
    declaring = facts.top_module(_declaring)
    if declaring is None:
        return None
    found = [
        picked
        for cls in declaring.body
        if isinstance(cls, ast.ClassDef)
        for name, own in _own_values(cls).items()
        if (picked := _restricted(store, stored, text, cls, name, own)) is not None
    ]
    if len(found) != 1 or found[0].flag not in store.defined_names(stored.version_id):
        return None
    picked = found[0]
    field = picked.flag[2:].replace("-", "_")
    if _reads(stored, field):
        return None  # a check of the value itself: the value that picked the code is no way out
    tree = facts.top_module(_classes)
    if tree is None:
        return None
    classes = [s for s in tree.body if isinstance(s, ast.ClassDef)]
    if not _reached_from(stored.site.function, picked.owner, classes):
        return None  # code of the file the class does not name: a helper others call too
    attribute = f"supported_{field}s"
    family = {picked.base, picked.owner}
    for other in classes:
        if other.name == picked.owner:
            continue
        # another class of the file on the same base (a sibling backend, one deriving
        # from this one): the file's code is not this class's alone
        if any(isinstance(b, ast.Name) and b.id in family for b in other.bases):
            return None
        if _base_values(store, stored, text, other, attribute) is not None:
            return None
    others = {
        link.setting: _standing_in(store, stored, link.file, link.others, picked, attribute)
        for link in stored.selections
        if link.how == "choose" and link.file is not None
    }
    return msgspec.structs.replace(picked, others=others)


def _reached_from(function: str, owner: str, classes: list[ast.ClassDef]) -> bool:
    """Whether the site's code is the class's own: in the class, in a class of the file
    it names (`get_impl_cls` returning its `PackedImpl`), or in a private function of the
    file one of those names. A public function or class of the file that the class does
    not name may be called from other files, for whatever value the user chose."""
    top = function.split(".", 1)[0]
    if top == owner:
        return True
    bodies = {c.name: c for c in classes}
    named = _names_in(bodies[owner]) if owner in bodies else set()
    if top in named:
        return True
    if not top.startswith("_") or top in bodies or top == "<module>":
        return False
    return any(top in _names_in(bodies[n]) for n in named if n in bodies)


def _names_in(cls: ast.ClassDef) -> set[str]:
    """The bare names a class's body reads (a string annotation aside)."""
    return {n.id for n in walk(cls) if isinstance(n, ast.Name) and n.id != cls.name}


def _reads(stored: StoredSite, field: str) -> bool:
    """Whether the site's conditions or message name the setting's field."""
    word = re.compile(rf"\b{re.escape(field)}\b")
    texts = [c.test for c in stored.site.conditions]
    if stored.site.message is not None:
        texts.append(stored.site.message.text)
    return any(word.search(t) for t in texts)


def _standing_in(
    store: Store,
    stored: StoredSite,
    registry: str,
    members: tuple[str, ...],
    picked: ValuePicked,
    attribute: str,
) -> tuple[str, ...]:
    """The members, of those standing in, whose class supports a value `picked` supports:
    read from the class path the registry gives each member, and what the class declares
    (its own values, else its bases' list); a member not followed is left out."""
    classes = member_classes(store, stored, registry, members)
    setting = picked.flag[2:].replace("-", "_")
    out = []
    for member in members:
        if member not in classes:
            continue
        file, text, cls = classes[member]
        own = _own_values(cls).get(setting)
        if own is not None:
            values, prefix = own[0], own[1]
        else:
            base = _base_values(store, stored, text, cls, attribute, file)
            values, prefix = (base[1], None) if base is not None else ((), None)
        if any(_supports(v, values, prefix) for v in picked.values) or (
            picked.prefix is not None and any(v.startswith(picked.prefix) for v in values)
        ):
            out.append(member)
    return tuple(out)


def member_classes(
    store: Store, stored: StoredSite, registry: str, members: tuple[str, ...]
) -> dict[str, tuple[str, str, ast.ClassDef]]:
    """Member → (file, text, class) of the class path the registry gives it."""
    text = store.file_text(stored.version_id, registry)
    tree = _parsed(text) if text is not None else None
    if tree is None:
        return {}
    paths: dict[str, str] = {}
    for node in ast.walk(tree):
        target, value = _assigned(node) if isinstance(node, ast.stmt) else (None, None)
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


def _parsed(text: str) -> ast.Module | None:
    def parse() -> tuple[ast.Module | None, int]:
        try:
            return ast.parse(text), len(text)
        except (SyntaxError, ValueError):
            return None, len(text)

    return kept_parse(text, "value_picked:module", parse)


def _classes(chunk: str, start: int, end: int) -> bool:
    """The top-level statements that may be a class (decorated or not)."""
    return chunk.startswith(("class ", "@"))


def _declaring(chunk: str, start: int, end: int) -> bool:
    """The top-level statements that may be a class declaring values it supports."""
    return _classes(chunk, start, end) and _declares(chunk)


def _declares(text: str) -> bool:
    """Whether `text` may declare values a class supports: a `def supports_X`, or a
    `supported_Xs` that a statement opens with (after its line's indentation or brackets,
    or a `:` or `;`) and assigns or annotates."""
    if _DEF_TESTED.search(text) is not None:
        return True
    for found in _BOUND_LIST.finditer(text):
        before = text[text.rfind("\n", 0, found.start()) + 1 : found.start()].rstrip(" \t(")
        if before == "" or before.endswith((":", ";")):
            return True
    return False


_Own = tuple[tuple[str, ...], str | None, str]  # values, prefix, where it is declared


def _restricted(
    store: Store, stored: StoredSite, text: str, cls: ast.ClassDef, name: str, own: _Own
) -> ValuePicked | None:
    values, prefix, declared = own
    base = _base_values(store, stored, text, cls, f"supported_{name}s")
    if base is None:
        return None
    base_name, base_values = base
    if not base_values or any(_supports(v, values, prefix) for v in base_values):
        return None
    return ValuePicked(
        flag="--" + name.replace("_", "-"),
        owner=cls.name,
        declared=declared,
        base=base_name,
        base_values=base_values,
        values=values,
        prefix=prefix,
    )


def _supports(value: str, values: tuple[str, ...], prefix: str | None) -> bool:
    return value in values or (prefix is not None and value.startswith(prefix))


def _own_values(cls: ast.ClassDef) -> dict[str, _Own]:
    """Setting → (values, prefix, where) of what the class declares it supports: a method
    `supports_X(cls, x)` testing its argument against literals decides (one testing it
    some other way: nothing to tell of X); else a literal list `supported_Xs`."""
    listed: dict[str, _Own] = {}
    tested: dict[str, _Own | None] = {}
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
        target, value = _assigned(statement)
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


def _assigned(statement: ast.stmt) -> tuple[str | None, ast.expr | None]:
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
    body = _body(method)
    if len(body) == 2 and _refuses_none(body[0], arg):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    test = body[0].value
    prefix = startswith_argument(test, lambda subject: _is_name(subject, arg))
    if isinstance(prefix, ast.Constant) and isinstance(prefix.value, str) and prefix.value:
        return (), prefix.value
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and _is_name(test.left, arg):
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


def _body(method: ast.FunctionDef) -> list[ast.stmt]:
    """The method's statements, its docstring (or any bare constant) aside."""
    return [
        s
        for s in method.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]


def _refuses_none(statement: ast.stmt, arg: str) -> bool:
    """`if x is None: return False`."""
    return (
        isinstance(statement, ast.If)
        and not statement.orelse
        and isinstance(statement.test, ast.Compare)
        and _is_name(statement.test.left, arg)
        and len(statement.test.ops) == 1
        and isinstance(statement.test.ops[0], ast.Is)
        and isinstance(statement.test.comparators[0], ast.Constant)
        and statement.test.comparators[0].value is None
        and len(statement.body) == 1
        and isinstance(statement.body[0], ast.Return)
        and isinstance(statement.body[0].value, ast.Constant)
        and statement.body[0].value.value is False
    )


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _base_values(
    store: Store, stored: StoredSite, text: str, cls: ast.ClassDef, attribute: str, file: str = ""
) -> tuple[str, tuple[str, ...]] | None:
    """(base, its values) of the nearest base that declares `attribute` as a literal list,
    followed through the files of the version by the names each file imports (from `file`,
    the site's own by default); None when a base is not found, or declares the attribute
    some other way."""
    file = file or stored.file
    current = cls
    for _ in range(_MOST_HOPS):
        names = [b.id for b in current.bases if isinstance(b, ast.Name)]
        if len(names) != 1 or len(current.bases) != 1:
            return None  # no base, several, or one written otherwise: nothing to tell
        found = _class_named(store, stored, file, text, names[0])
        if found is None:
            return None
        file, text, current = found
        for statement in current.body:
            target, value = _assigned(statement)
            if target == attribute and value is not None:
                values = _literals(value)
                return (current.name, values) if values else None
    return None


_FROM_IMPORT = re.compile(
    r"^from[ \t]+(?P<module>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n]*)", re.M
)


def _class_named(
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


def value_picked_solution(picked: ValuePicked, stored: StoredSite) -> Solution | None:
    """Another value of the setting, one the base supports, with the command line of a
    selection of the site when one gives it. None for an `assert`: an invariant of the
    code, whichever value picked it (another backend is no way out of it either)."""
    if stored.site.kind == SiteKind.ASSERT:
        return None
    first, *rest = picked.base_values
    also = f" (or {', '.join(code(v) for v in rest)})" if rest else ""
    text = (
        f"Choose a value of {code(picked.flag)} that its base {code(picked.base)} declares: "
        f"{code(f'{picked.flag} {first}')}{also}. This code is in the file of "
        f"{code(picked.owner)}, which supports only {_supported(picked)} ({picked.declared}), "
        f"none of those {code(picked.base)} declares: it runs only when {code(picked.flag)} "
        "is given such a value, and another one picks other code."
    )
    return Solution(text=text, knob=picked.flag, kind="setting", fix=_fix(picked, stored))


def value_picked_context(picked: ValuePicked) -> str:
    """What "What it means" says when the way out offered is another value."""
    return (
        f"But a setting picks the code it is in: {code(picked.owner)} supports only "
        f"{_supported(picked)}, so it runs only when {code(picked.flag)} is given one of "
        f"them, and a value its base {code(picked.base)} declares avoids it."
    )


def _supported(picked: ValuePicked) -> str:
    if picked.prefix is not None:
        return f"values of {code(picked.flag)} that start with {code(picked.prefix)}"
    return f"{code(picked.flag)} " + ", ".join(code(v) for v in picked.values)


def _fix(picked: ValuePicked, stored: StoredSite) -> ExampleFix | None:
    """The command line with a value the class supports, then one of the base's; only
    when a setting of the site gives the command that takes flags of the version."""
    command = next((s.command for s in stored.selections if s.command), None)
    command = command or next(
        (k.command for k in stored.knobs if k.kind == KnobKind.FLAG and k.command), None
    )
    if command is None:
        return None
    given = picked.values[0] if picked.values else None
    if given is None:
        return None  # values named by a prefix: which one the user gave is theirs
    return ExampleFix(
        before=f"{command} {picked.flag} {shlex.quote(given)}",
        after=f"{command} {picked.flag} {shlex.quote(picked.base_values[0])}",
        note=f"{code(picked.flag)} picks the code this check is in; only the values "
        f"{code(picked.owner)} supports run it.",
    )
