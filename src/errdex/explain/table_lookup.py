"""Ways out of a failed lookup in a module's table: `EMOJI[name]` under `except KeyError`.

A function that looks its argument up in a module-level mapping and turns the `KeyError`
into its own error (rich's `Emoji("...")` raising `NoEmoji`) fails on a value the user
gave: the way out is a key the table holds. When the table is a literal (in the site's file
or in the module it is imported from), a few of its keys are named, as the index read them.
"""

from __future__ import annotations

import ast
import posixpath
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts, function_span, lines_of, parse_module
from errdex.explain.inputs import public_name
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.user_call import call_change
from errdex.facts import ConditionKind
from errdex.store.base import Store, StoredSite

_KEY_ERRORS = frozenset({"KeyError", "LookupError"})
_SHOWN_KEYS = 4
# `opener = binary_streams.get(name)`: a local set from a table's `.get` of one name.
_GOT = re.compile(r"^\s*(\w+)\s*=\s*(\w+)\.get\((\w+)\)\s*$", re.MULTILINE)
# dunders a user calls with arguments, by the class's name (or an instance's)
_CALLED = frozenset({"__init__", "__new__", "__call__"})


def lookup_table(facts: Facts) -> tuple[str, str, int, str | None] | None:
    """(the table, the argument used as its key, the lookup's line, the function of the
    module that makes the lookup or None when the `try` makes it itself) of the `try`
    whose `except KeyError` holds the site, when the key is an argument of the function
    (passed as it is to that function) and the table a name of the module."""
    site = facts.stored.site
    if not any(
        c.kind == ConditionKind.EXCEPT and _KEY_ERRORS & set(_names(c.test))
        for c in facts.conditions
    ):
        return _got(facts)
    found = facts.site_function()
    tree = facts.source_tree()
    if found is None or tree is None:
        return None
    params = {a.arg for a in [*found.args.posonlyargs, *found.args.args, *found.args.kwonlyargs]}
    local = {n.id for n in walk(found) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    module = module_names(tree)
    for node in walk(found):
        if not isinstance(node, ast.Try):
            continue
        handlers = [h for h in node.handlers if _KEY_ERRORS & set(_names(_type(h)))]
        if not any(h.lineno <= site.line <= (h.end_lineno or h.lineno) for h in handlers):
            continue
        for statement in node.body:
            for sub in walk(statement):
                if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
                    helped = _helper_lookup(tree, sub, params - local, module)
                    if helped is not None:
                        return helped
                if isinstance(sub, ast.Subscript) and _class_table(facts, sub.value) is not None:
                    key = sub.slice
                    if isinstance(key, ast.Name) and key.id in params and key.id not in local:
                        return ast.unparse(sub.value), key.id, sub.lineno, None
                if not (isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name)):
                    continue
                table = sub.value.id
                key = sub.slice
                if table in local or table in params or table not in module:
                    continue
                if isinstance(key, ast.Name) and key.id in params and key.id not in local:
                    return table, key.id, sub.lineno, None
    return None


def _got(facts: Facts) -> tuple[str, str, int, str | None] | None:
    """The same for `opener = TABLE.get(name)` tested `if opener is None` (or `not
    opener`) before the site: the key an argument never rebound, the table a name of the
    module, `opener` never assigned again, the function one the package exports by a
    shorter path (`click.get_text_stream`). Read in the text first, the function then
    parsed alone: most sites make no such lookup."""
    tested = {
        c.text.removesuffix(" is None").removeprefix("not ")
        for c in facts.conditions
        if c.kind == ConditionKind.IF and (c.text.endswith(" is None") or c.text.startswith("not "))
    }
    if not facts.stored.public:
        return None  # not exported by a shorter path: likely a helper's argument, not a user's
    text = facts.source_text or ""
    tested = {t for t in tested if t.isidentifier() and _set_by_get(text, t)}
    site = facts.stored.site
    span = function_span(text, site.function.rpartition(".")[2], site.line) if tested else None
    if span is None:
        return None
    body = "\n".join(lines_of(text)[span[0] : span[1]])
    got = [m for m in _GOT.finditer(body) if m.group(1) in tested]
    if not got or len(re.findall(rf"\b{got[0].group(1)}\s*=(?!=)", body)) != 1:
        return None
    table, key = got[0].group(2), got[0].group(3)
    module = rf"^(?:{table}\s*[:=]|from\s+[\w.]+\s+import\s+(?:\([^)]*|[^\n]*)\b{table}\b)"
    if re.search(module, text, re.MULTILINE) is None:
        return None
    found = facts.site_function()
    if found is None:
        return None
    params = {a.arg for a in [*found.args.posonlyargs, *found.args.args, *found.args.kwonlyargs]}
    stored = {n.id for n in walk(found) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if table in stored | params or key not in params - stored:
        return None
    return table, key, span[0] + body.count("\n", 0, got[0].start()) + 1, None


def _set_by_get(text: str, name: str) -> bool:
    """Whether some line of the file reads `name = X.get(...)`: a literal search first (a
    pattern over a large file costs a millisecond or more)."""
    at = text.find(f"{name} = ")
    while at != -1:
        end = text.find("\n", at)
        if ".get(" in text[at : end if end != -1 else len(text)]:
            return True
        at = text.find(f"{name} = ", at + 1)
    return False


def _helper_lookup(
    tree: ast.Module, call: ast.Call, params: set[str], module: set[str]
) -> tuple[str, str, int, str | None] | None:
    """The lookup `TABLE[color]` a function of the module makes of the argument it is
    handed by position (`_interpret_color(fg)`), `color` never rebound in it."""
    name = call.func.id if isinstance(call.func, ast.Name) else None
    helper = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if helper is None:
        return None
    own = [a.arg for a in [*helper.args.posonlyargs, *helper.args.args]]
    stored = {
        n.id for n in walk(helper) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    for index, given in enumerate(call.args[: len(own)]):
        if isinstance(given, ast.Starred):
            return None
        if not (isinstance(given, ast.Name) and given.id in params) or own[index] in stored:
            continue
        for sub in walk(helper):
            if (
                isinstance(sub, ast.Subscript)
                and isinstance(sub.value, ast.Name)
                and sub.value.id in module
                and sub.value.id not in stored
                and isinstance(sub.slice, ast.Name)
                and sub.slice.id == own[index]
            ):
                return sub.value.id, given.id, sub.lineno, helper.name
    return None


def table_solution(facts: Facts) -> Solution | None:
    """ "Use one of the keys of `EMOJI` for the argument `name` of `Emoji`", or None."""
    site = facts.stored.site
    method = site.function.rpartition(".")[2]
    private_module = any(p.startswith("_") for p in facts.stored.module.split("."))
    if not public_name(site.function) or (private_module and facts.stored.public_path() is None):
        return None  # an internal function's argument: no call a user writes
    if method.startswith("__") and method not in _CALLED:
        return None  # `__getattr__`, `__getitem__`: a name written, no argument passed
    found = lookup_table(facts)
    if found is None:
        return None
    table, key, line, helper = found
    callee = site.function.removesuffix(".__init__")
    keys = facts.table_keys.get(table, [])
    shown = ", ".join(code(repr(k)) for k in keys[:_SHOWN_KEYS])
    example = f" (such as {shown}{', …' if len(keys) > _SHOWN_KEYS else ''})" if keys else ""
    lookup = f"the lookup {code(f'{table}[{key}]')} at line {line} found no such key"
    if f"{table}.get({key})" in lines_of(facts.source_text or "")[line - 1]:
        lookup = f"{code(f'{table}.get({key})')} at line {line} found no such key"
    if helper is not None:
        lookup = (
            f"{code(helper)}, which looks {code(key)} up in {code(table)} (line {line}), "
            "found no such key"
        )
    return Solution(
        text=(
            f"Pass for the argument {code(key)} of {code(callee)} one of the keys of "
            f"{code(table)}{example}: {lookup}."
        ),
        kind="input",
        change=call_change(facts, key, key.upper(), repr(keys[0])) if keys else None,
    )


def table_keys(store: Store, chosen: StoredSite, facts: Facts) -> dict[str, list[str]]:
    """The literal keys of the table a site's lookup reads, by the table's name: from a
    dict literal assigned at the top of the site's file or of the module it imports it from
    (the index's own copy of the file)."""
    table = lookup_table(facts)
    if table is None:  # most sites: the file is not parsed for nothing
        return {}
    tree = facts.source_tree()
    if tree is None:
        return {}
    name = table[0]
    if name.startswith("self."):
        found = _class_table(facts, ast.parse(name, mode="eval").body)
        own = [
            k.value
            for k in (found.keys if found is not None else ())
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
        ]
        return {name: own} if own else {}
    keys = literal_keys(tree, name)
    if keys is None:
        path = imported_from(tree, name, chosen.file)
        other = store.file_text(chosen.version_id, path) if path is not None else None
        other_tree = parse_module(other)
        keys = literal_keys(other_tree, name) if other_tree is not None else None
    return {name: keys} if keys else {}


def _class_table(facts: Facts, node: ast.expr) -> ast.Dict | None:
    """The dict literal a table `self.NAME` is: assigned in the body of the site's class
    (`splitters = {"row": ..., "column": ...}`), never assigned on an instance."""
    if not (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    ):
        return None
    cls = facts.own_class()
    if cls is None or any(
        isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Store)
        and n.attr == node.attr
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
        for n in walk(cls)
    ):
        return None  # an instance's own table, which its code may fill
    for statement in cls.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and statement.targets[0].id == node.attr
            and isinstance(statement.value, ast.Dict)
        ):
            return statement.value
    return None


def literal_keys(tree: ast.Module, name: str) -> list[str] | None:
    for statement in tree.body:
        value = None
        if (
            isinstance(statement, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)
        ) or (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and statement.target.id == name
        ):
            value = statement.value
        if isinstance(value, ast.Dict):
            return [
                k.value
                for k in value.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            ]
    return None


def imported_from(tree: ast.Module, name: str, file: str) -> str | None:
    """The path, in the version, of the module a `from ... import name` at the top of the
    file reads it from."""
    for statement in tree.body:
        if not isinstance(statement, ast.ImportFrom):
            continue
        if not any((a.asname or a.name) == name and a.name == name for a in statement.names):
            continue
        parts = (statement.module or "").split(".") if statement.module else []
        if statement.level:
            base = posixpath.dirname(file)
            for _ in range(statement.level - 1):
                base = posixpath.dirname(base)
            return posixpath.join(base, *parts) + ".py"
        return posixpath.join(*parts) + ".py" if parts else None
    return None


def module_names(tree: ast.Module) -> set[str]:
    """The names bound at the top of a module: assigned, or imported by name."""
    names: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            names |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names.add(statement.target.id)
        elif isinstance(statement, ast.ImportFrom):
            names |= {a.asname or a.name for a in statement.names}
    return names


def _type(handler: ast.ExceptHandler) -> str:
    return ast.unparse(handler.type) if handler.type is not None else ""


def _names(test: str) -> list[str]:
    """The exception names an `except` clause's text names (`except (KeyError, X)`)."""
    cleaned = test.removeprefix("except").strip().strip("()")
    return [n.strip().rpartition(".")[2] for n in cleaned.split(",") if n.strip()]
