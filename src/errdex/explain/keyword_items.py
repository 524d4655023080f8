"""Ways out of a check on each item of a mapping the user passed: a loop over its items.

httpx's `urlparse(url, **kwargs)` checks every component given as a keyword in a loop: `for
key, value in kwargs.items(): ... if not COMPONENT_REGEX[key].fullmatch(value): raise
InvalidURL(f"Invalid URL component '{key}'")`. The check reads only the loop's `key` and
`value`, no parameter, so the input rules find nothing to say; yet `value` is what the user
passed under the keyword `key` (`httpx.URL(path=...)`, which hands its own `**kwargs` on
to `urlparse`). The way out is phrased on those keywords: of the public call that hands its
own `**kwargs` on as they are (or the site's function, when the package exports it), each
keyword's value in the form the check takes; a table of patterns by name
(`COMPONENT_REGEX`) is shown key by key. A mapping passed as a named argument is said the
same way, as that argument's values, where the function never stores into it.
"""

from __future__ import annotations

import ast
import builtins

from errdex.ast_walk import walk
from errdex.explain.context import Entry, Facts, function_at, function_span, lines_of
from errdex.explain.entry_input import (
    CHECKS,
    MAX_DEPTH,
    caller_public_path,
    passes_keywords,
    reassigned,
    roots,
)
from errdex.explain.entry_solution import checked_change, entry_of
from errdex.explain.input_shapes import module_pattern_tables, more_shapes, shown_pattern
from errdex.explain.input_words import what_to_pass
from errdex.explain.outline import compiling
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.extract.module import module_name
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store.base import Store, StoredSite

_BUILTINS = frozenset(dir(builtins))
_MATCHERS = {"fullmatch": "matches as a whole", "match": "matches from its start"}
# what a mapping's method changes in place: a named mapping so changed is no longer the
# user's as they passed it
_MUTATORS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__"})


class _Loop(ast.NodeVisitor):
    """The innermost `for key, value in mapping.items():` whose body holds the line, with
    its (mapping, key, value)."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.found: tuple[ast.For, tuple[str, str, str]] | None = None

    def visit_For(self, node: ast.For) -> None:
        body = node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno
        if body[0] <= self.line <= body[1] and (items := _items_of(node)) is not None:
            self.found = node, items
        self.generic_visit(node)


def _items_of(loop: ast.For) -> tuple[str, str, str] | None:
    """(the mapping, the key's name, the value's name) of `for k, v in m.items():`."""
    target, over = loop.target, loop.iter
    if not (
        isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and all(isinstance(e, ast.Name) for e in target.elts)
        and isinstance(over, ast.Call)
        and not over.args
        and isinstance(over.func, ast.Attribute)
        and over.func.attr == "items"
        and isinstance(over.func.value, ast.Name)
    ):
        return None
    key, value = (e.id for e in target.elts if isinstance(e, ast.Name))
    return over.func.value.id, key, value


def keyword_items_solution(store: Store, chosen: StoredSite, facts: Facts) -> Solution | None:
    """ "Give each keyword argument you pass to `httpx.URL` a value that ...", or None."""
    site = chosen.site
    if site.kind != SiteKind.RAISE or site.message is None:
        return None
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return None  # what failed is the `try`'s call, which no condition here says
    if not _loops_over_items(facts.source_text, site.function, site.line):
        return None  # no loop over a mapping's items in the function: nothing parsed
    function = facts.site_function()
    checks = [c for c in facts.held if c.kind in CHECKS]
    if function is None or not checks:
        return None
    finder = _Loop(site.line)
    finder.visit(function)
    if finder.found is None:
        return None
    loop, (mapping, key, value) = finder.found
    packed = function.args.kwarg is not None and function.args.kwarg.arg == mapping
    named = not packed and mapping in facts.read.params and mapping not in ("self", "cls")
    if not (packed or named) or reassigned(function, mapping):
        return None  # a local the function built, or a mapping it rebinds
    if named and _changed(function, mapping):
        return None  # the function stores into the mapping: not as the user passed it
    if key in (*facts.read.params, mapping) or value in (*facts.read.params, mapping):
        return None
    check = checks[-1]  # the raise's own test
    start, end = loop.lineno, loop.end_lineno or loop.lineno
    if not start < check.line <= end:
        return None
    tables = module_pattern_tables(facts.top_module(compiling))
    read = roots(check.text)
    loop_names = {key, value}
    constants = {b.name for b in facts.bindings if b.origin == "constant"}
    if value not in read or not read <= loop_names | constants | set(tables) | _BUILTINS:
        return None  # a value beside the item's (the program's state): not the user's alone
    if _rebound_in_loop(loop, loop_names):
        return None  # the loop changes the item before the check
    entry = _entry(store, chosen, facts, mapping, packed)
    if entry is None:
        return None
    callee = code(site.function.removesuffix(".__init__"))
    said = f" (“{site.message.text}”)"
    if packed:
        given = f"each keyword argument you pass to {entry.named()}"
        reach = f"the keywords reach {callee} as {code('**' + mapping)}"
    else:
        given = f"each value of the mapping you pass to {entry.named()} as {code(entry.argument)}"
        reach = f"the mapping reaches {callee} as {code(mapping)}"
    table = _table_test(check.text, key, value, tables)
    if table is not None:
        name, verb = table
        keyed = "its name" if packed else "its key"
        shown = ", ".join(f"{code(k)}: {shown_pattern(p)}" for k, p in tables[name].items())
        return Solution(
            text=(
                f"Give {given} a value that the pattern for {keyed} in {code(name)} {verb} "
                f"({shown}): {reach}, which raises at line {site.line} for any other "
                f"value{said}."
            ),
            condition=check.text,
            kind="input",
        )
    if key in read:
        # the item's name too (`k in BLACKLISTED`, `task not in pooler.tasks()`): leaving
        # the key out may be the way, or the pair is the program's own wiring
        return None
    node = parse_expression(check.text)
    values = {b.name: b.value for b in facts.bindings if b.origin == "constant"}
    if packed:
        described = {value: f"each keyword argument of {entry.named()}"}
    else:
        described = {value: f"each value of the mapping {code(entry.argument)} of {entry.named()}"}
    instead = None
    if node is not None:
        instead = what_to_pass(node, described, values) or more_shapes(
            node, described, values, {}, lambda _: None
        )
    if instead is not None and instead.text.startswith("Pass "):
        return Solution(
            text=(
                f"{instead.text.removesuffix('.')}: {reach}, which raises at line {site.line} "
                f"for any other value{said}."
            ),
            condition=check.text,
            kind="input",
        )
    on_it = [c for c in checks if start < c.line <= end and roots(c.text) & loop_names]
    change = f"Change {given}: {reach}, each value as {code(value)} in the loop at line {start}"
    return checked_change(change, on_it, check, said)


def _loops_over_items(text: str | None, function: str, line: int) -> bool:
    """Whether the text of the site's function holds `.items()` (read before parsing it)."""
    span = function_span(text, function.rpartition(".")[2], line) if text else None
    return span is not None and any(".items()" in t for t in lines_of(text or "")[slice(*span)])


def _changed(function: ast.FunctionDef, mapping: str) -> bool:
    """Whether the function stores into the mapping or changes it with a method."""
    for node in walk(function):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store | ast.Del)
            and isinstance(node.value, ast.Name)
            and node.value.id == mapping
        ):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == mapping
        ):
            return True
    return False


def _rebound_in_loop(loop: ast.For, names: set[str]) -> bool:
    """Whether the loop's body assigns the key or the value again."""
    return any(
        isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Store)
        for statement in loop.body
        for n in walk(statement)
    )


def _table_test(
    text: str, key: str, value: str, tables: dict[str, dict[str, str]]
) -> tuple[str, str] | None:
    """(the table, how its pattern must match) of `not TABLE[key].fullmatch(value)`."""
    node = parse_expression(text)
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return None
    call = node.operand
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in _MATCHERS
        and len(call.args) == 1
        and not call.keywords
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id == value
    ):
        return None
    looked = call.func.value
    if not (
        isinstance(looked, ast.Subscript)
        and isinstance(looked.value, ast.Name)
        and looked.value.id in tables
        and isinstance(looked.slice, ast.Name)
        and looked.slice.id == key
    ):
        return None
    return looked.value.id, _MATCHERS[call.func.attr]


def _entry(
    store: Store, chosen: StoredSite, facts: Facts, mapping: str, packed: bool
) -> Entry | None:
    """The public call the user passes the mapping to: the site's function when the package
    exports it; for `**kwargs`, the first public caller up the chain that hands its own
    `**kwargs` on as they are; for a named mapping, the entry point of that argument."""
    exported = chosen.public_path()
    # a function or a constructor the user calls: a public method's `**kw` is as likely
    # a framework's hook, which the framework fills
    called = "." not in chosen.site.function.removesuffix(".__init__")
    if exported is not None:
        if not called:
            return None
        return Entry((exported.removesuffix(".__init__"),), mapping)
    if not packed:
        params = [p for p in facts.read.params if p not in ("self", "cls")]
        found = entry_of(store, chosen, facts, params, mapping)
        if found is None or found.how or found.also:
            return None  # a mapping in a mapping, or several arguments
        return found
    target = f"{chosen.module}.{chosen.site.function}"
    for depth in range(1, MAX_DEPTH + 1):
        passing = None
        for caller in (c for c in facts.callers if c.depth == depth and c.calls == target):
            text = store.file_text(chosen.version_id, caller.file)
            function = function_at(text, caller.function.rpartition(".")[2], caller.line)
            own = function.args.kwarg if function is not None else None
            if function is None or own is None or reassigned(function, own.arg):
                continue
            if passes_keywords(function, caller.line, target):
                passing = caller, own.arg
                break
        if passing is None:
            return None
        caller, name = passing
        public = caller_public_path(store, chosen, caller)
        if public is not None:
            return Entry((public,), name)
        target = f"{module_name(caller.file)[0]}.{caller.function}"
    return None
