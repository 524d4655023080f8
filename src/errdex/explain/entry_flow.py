"""The nearest public calls a value reaches a check from, through every chain of callers.

A check in a helper (`DataField(name=name)` in a private module) tests a value a public
call handed down, often through a loop over what the user passed: `for name, value in
data.items(): yield DataField(name=name, value=value)`. `entry_input.public_caller` follows
the first chain of callers only, and `entry_args.sole_entry` only when every chain agrees;
a helper many callers reach (wide fan-in) has neither, nor a chain longer than the three
calls a page shows. Here every chain is followed (the callers a page shows, and those
further up and wider the linker keeps for this walk, `CallerIndex.flow_callers`), level by
level, as long as each caller hands the value on as it is, as an element of one of its
own arguments (`for item in values`), as a key or a value of one (`for key, value in
data.items()`), or as one with a literal default (`data or {}`); a value handed on as it is
and, where it is a list or tuple, item by item (`if isinstance(value, (tuple, list)): for
item in value: f(item)`, else `f(value)`) is handed on as the value, its items alike (the
page says both); at the first level where
chains reach public calls, those calls are the entries when they all take it as one
argument, handed one way (at most two named: the shortest paths). A caller that hands the
check a few of its own arguments, each as it is, in calls of its own (`encode_content(data)`,
then `encode_content(content)`), has each followed alike, and the page names each argument
with its public calls (`content` of `httpx.Request` or `httpx.Response`, or `data` of
`httpx.Request`); public calls taking the value as different plain arguments are named the
same way. A named group of a compiled pattern's match on one of the caller's own
arguments (`host` of `AUTHORITY_REGEX.match(authority)`, `authority` in turn a group of
`URL_REGEX.match(url)`, or a keyword given in its place) is followed as that part of the
argument ("the `host` part of `url` you pass to `httpx.URL`"). Any other value changed on
the way (a call's result, an expression) stops its chain, and a caller that hands the check
such a value beside the one followed stops the walk: which of them the user gave is not
known; a keyword given in place of a part is said only where every public call hands it on.
"""

from __future__ import annotations

import ast
import functools

from errdex.ast_walk import walk
from errdex.explain.call_binding import given_argument, positional_index
from errdex.explain.context import PART, Entry, Facts
from errdex.explain.entry_args import exported_entry, linked_export, short_export
from errdex.explain.entry_input import (
    CHECKS,
    call_values,
    caller_public_path,
    calls_at,
    catching,
    other_values,
    passes_keywords,
    reassigned,
    roots,
)
from errdex.explain.inputs import public_name
from errdex.explain.linked import gate_view
from errdex.explain.page import Caller
from errdex.extract.module import module_name
from errdex.extract.shapes import isinstance_of
from errdex.facts import ConditionKind, SiteKind
from errdex.link.callers import FLOW_DEPTH
from errdex.store.base import Store, StoredSite

# How a caller hands the value on: as it is (""), or as a key, a value or an element of
# one of its own arguments. Two of these in one chain (a key of an element) are not said.
KEY, VALUE, ELEMENT = "key", "value", "element"
# the containers a value may be spread over item by item, each item then checked alike
_SEQUENCES = frozenset({"list", "tuple", "set", "frozenset"})
_MAX_ENTRIES = 2  # public calls named for one value: past them, the page names the nearest two
_MAX_ARGUMENTS = 3  # arguments named for one value, where a helper hands on several
_CALLED_DUNDERS = frozenset({"__init__", "__post_init__", "__call__"})


def flow_entry(
    store: Store,
    chosen: StoredSite,
    callers: list[Caller],
    param: str,
    position: int,
    caught: frozenset[str],
) -> Entry | None:
    """The public calls nearest the check (at most two) whose argument reaches `param` (at
    `position` among the site's function's positional parameters) through a chain of
    callers each handing it on (see the module's doc); None when no chain reaches one."""
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None] = {}
    # the callers a page shows, and those further up the linker kept for this walk
    shown = {(c.function, c.file, c.line, c.calls) for c in callers}
    callers = [
        *callers,
        *(
            gate_view(link)
            for link in chosen.flow_links
            if (link.function, link.file, link.line, link.calls) not in shown
        ),
    ]
    # (the function, its parameter, its position, how handed, the kinds spread item by item)
    level: list[tuple[str, str, int, str, tuple[str, ...]]] = [
        (f"{chosen.module}.{chosen.site.function}", param, position, "", ())
    ]
    # (public call, its argument) → how, kinds
    ends: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {}
    seen: set[tuple[str, str]] = set()
    dropped = False  # a chain left on the way: a value it computed, a part not said
    following: list[tuple[str, str, int, str, tuple[str, ...]]] = []
    for depth in range(1, FLOW_DEPTH + 1):
        following = []
        for dotted, name, at, how, kinds in level:
            for caller in (c for c in callers if c.depth == depth and c.calls == dotted):
                read = call_values(store, chosen, caller, dotted, (name, at), caught, parsed)
                if read is None:
                    dropped = True
                    continue
                handed = handed_on(read[0], read[1], read[2], caller.line)
                spread: list[tuple[str, ...]] = []
                if handed is None and len(read[2]) == 1:
                    # an item of the value, where it is a list or tuple (see above)
                    items = _spread_items(read[0], read[2][0], caller.line)
                    if items is not None:
                        handed = handed_on(read[0], read[1], [items[0]], caller.line)
                        spread.append(items[1])
                if handed is None:
                    dropped = True
                    continue  # a literal of the package's own, or a value it computed
                arguments = [handed[0]]
                if other_values(
                    read[0],
                    dotted,
                    (name, at),
                    functools.partial(_handed_alike, read[0], read[1], handed, spread),
                ):
                    # it calls the function again with another value: each of its own
                    # arguments it hands on so is followed alike; anything else, which?
                    several = _own_arguments(read[0], read[1], dotted, (name, at))
                    if several is None or how or kinds or handed[1] or any(spread):
                        return None
                    arguments = several
                argument, hop = handed
                if how and hop:
                    dropped = True
                    continue  # a key of an element: not said
                spreads = {k for k in spread if k}
                if spreads and (kinds or len(spreads) > 1 or () not in spread):
                    dropped = True
                    continue  # spread twice, over two kinds, or the value itself not checked
                here = next(iter(spreads)) if spreads else kinds
                way = how or hop
                if "=" in how and not passes_keywords(read[0], caller.line, dotted):
                    way = how.partition("=")[0]  # the keyword not handed on: not said
                last = caller.function.rpartition(".")[2]
                if last.startswith("__") and last not in _CALLED_DUNDERS:
                    dropped = True
                    continue  # a protocol's method (`__iter__`): Python calls it, not a user
                public = (
                    exported_entry(store, chosen, caller.file, caller.function)
                    or linked_export(chosen, caller)
                    or caller_public_path(store, chosen, caller)
                )
                target = f"{module_name(caller.file)[0]}.{caller.function}"
                for argument in arguments:
                    if public is not None:
                        ends.setdefault((public, argument), (way, here))
                    elif (target, argument) not in seen:
                        seen.add((target, argument))
                        at_next = positional_index(read[0], argument)
                        following.append((target, argument, at_next, way, here))
        if ends:
            break
        level = following
        if not level:
            break
    return _entry(ends, param, whole=not dropped and not following)


def _entry(
    ends: dict[tuple[str, str], tuple[str, tuple[str, ...]]], param: str, whole: bool
) -> Entry | None:
    """The entry of the public calls reached, each with the argument taking the value: one
    argument (the calls nearest the check), or a few plain ones, each with its calls, the
    argument named as the checked parameter first, then the one most calls take. Several
    arguments are named only from a `whole` walk, every chain ending at a public call at
    that level: a helper many arguments reach (`check(q, name="q")`) would otherwise be
    said of a few of them, and the one the user's message names may be another."""
    if len(set(ends.values())) > 1:
        # one part of the argument, given by a keyword in its place through some calls
        # alone: the part is said, the keyword not
        ends = {end: (how.partition("=")[0], kinds) for end, (how, kinds) in ends.items()}
    if not ends or len(set(ends.values())) > 1:
        return None  # none, or handed on different ways: which is the user's?
    how, kinds = next(iter(ends.values()))
    taking: dict[str, list[str]] = {}
    for public, argument in ends:
        taking.setdefault(argument, []).append(public)
    if len(taking) > 1 and (how or kinds or len(taking) > _MAX_ARGUMENTS or not whole):
        return None  # several arguments, each a part of one, or some of them: not said
    ordered = sorted(taking, key=lambda a: (a != param, -len(taking[a]), a))
    groups = [(a, tuple(sorted(taking[a], key=_shorter)[:_MAX_ENTRIES])) for a in ordered]
    (argument, calls), also = groups[0], tuple(groups[1:])
    return Entry(calls, argument, how, kinds, also)


def _own_arguments(
    function: ast.FunctionDef, own: list[str], callee: str, parameter: tuple[str, int]
) -> list[str] | None:
    """The function's own arguments its calls of `callee` (anywhere in it) give the
    parameter, each as it is (`encode_content(data)`, `encode_content(content)`), in their
    order; None when a call gives it anything else (an item, a value it computed) or more
    than a few do. A literal is the package's own, not a user's value."""
    found: list[str] = []
    for call in calls_at(function, None, callee):
        value = given_argument(call, *parameter)
        if value is None or isinstance(value, ast.Constant):
            continue
        handed = handed_on(function, own, [value], call.lineno)
        if handed is None or handed[1]:
            return None
        if handed[0] not in found:
            found.append(handed[0])
    return found if 1 < len(found) <= _MAX_ARGUMENTS else None


def _handed_alike(
    function: ast.FunctionDef,
    own: list[str],
    handed: tuple[str, str],
    spread: list[tuple[str, ...]],
    value: ast.expr,
    line: int,
) -> bool:
    """Whether another call's value is the one followed (`()` added to `spread`), or an
    item of it where it is a list or tuple (its kinds added)."""
    if handed_on(function, own, [value], line) == handed:
        spread.append(())  # the value itself
        return True
    items = _spread_items(function, value, line)
    if items is None:
        return False
    spread_name, kinds = items
    if handed_on(function, own, [spread_name], line) != handed:
        return False
    spread.append(kinds)
    return True


def _spread_items(
    function: ast.FunctionDef, value: ast.expr, line: int
) -> tuple[ast.Name, tuple[str, ...]] | None:
    """(the name, the kinds) when `value` is the target of `for item in name:` around `line`,
    the one statement of the branch `if isinstance(name, (tuple, list)):`."""
    if not isinstance(value, ast.Name):
        return None
    for node in walk(function):
        if not (isinstance(node, ast.If) and len(node.body) == 1 and node.orelse):
            continue
        loop = node.body[0]
        if not (
            isinstance(loop, ast.For)
            and isinstance(loop.target, ast.Name)
            and loop.target.id == value.id
            and isinstance(loop.iter, ast.Name)
            and loop.body
            and loop.lineno <= line <= (loop.body[-1].end_lineno or loop.lineno)
        ):
            continue
        kinds = _isinstance_of(node.test, loop.iter.id)
        if kinds is None or not set(kinds) <= _SEQUENCES:
            return None
        if not any(
            isinstance(n, ast.Name) and n.id == loop.iter.id
            for part in node.orelse
            for n in walk(part)
        ):
            return None  # the value itself goes elsewhere: only its items are checked
        if any(
            isinstance(n, ast.Name) and n.id == value.id and not isinstance(n.ctx, ast.Load)
            for part in loop.body
            for n in walk(part)
        ):
            return None  # bound again in the loop
        return ast.Name(id=loop.iter.id, ctx=ast.Load()), kinds
    return None


def _isinstance_of(test: ast.expr, name: str) -> tuple[str, ...] | None:
    """The class names of `isinstance(name, (A, B))` (or of `isinstance(name, A)`)."""
    classes = isinstance_of(test, name)
    if classes is None:
        return None
    parts = classes.elts if isinstance(classes, ast.Tuple) else [classes]
    names = tuple(p.id for p in parts if isinstance(p, ast.Name))
    return names if len(names) == len(parts) else None


def _shorter(path: str) -> tuple[int, int, str]:
    return path.count("."), len(path), path


def handed_on(
    function: ast.FunctionDef, own: list[str], values: list[ast.expr], line: int
) -> tuple[str, str] | None:
    """(the caller's own argument, how it hands it on) for the values its call gives the
    parameter: as it is (`url`, or `data or {}`: a literal stands in only when the user
    gave nothing), or an element, key or value of it bound by a loop around the call
    (`for name, value in data.items():`); None for anything else, or when the function
    binds the name again."""
    found = None
    for value in values:
        if (
            isinstance(value, ast.BoolOp)
            and isinstance(value.op, ast.Or)
            and all(_literal(v) for v in value.values[1:])
        ):
            value = value.values[0]  # `data or {}`
        if not isinstance(value, ast.Name):
            return None
        handed = (value.id, "") if value.id in own else _looped(function, value.id, line)
        if handed is None and value.id not in own:
            handed = _matched_part(function, own, value.id, line, 0)
        if handed is None or reassigned(function, handed[0]):
            return None
        if found is not None and found != handed:
            return None  # two calls on the line giving different values
        found = handed
    return found


def _matched_part(
    function: ast.FunctionDef, own: list[str], name: str, line: int, depth: int
) -> tuple[str, str] | None:
    """(the argument, `PART` and the group) when `name`, bound last before `line` in the
    function's own body, is a named group of a compiled pattern's match on one of its own
    arguments, or on such a group in turn (`d = PATTERN.match(url).groupdict()`, `host =
    d["host"]`, or `kwargs.get("host", d["host"]) or ""`: a keyword given in its place,
    "part:host=host"). The group named is the one the check reads (`host` of the
    `authority` of `url`): the parts between are not said."""
    value = _bound_before(function, name, line)
    if value is None or depth > 2:
        return None
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
        if not all(_literal(v) for v in value.values[1:]):
            return None
        value = value.values[0]  # `... or ""`
    keyword = ""
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "get"
        and isinstance(value.func.value, ast.Name)
        and function.args.kwarg is not None
        and value.func.value.id == function.args.kwarg.arg
        and len(value.args) == 2
        and not value.keywords
        and isinstance(value.args[0], ast.Constant)
        and isinstance(value.args[0].value, str)
    ):
        # the keyword given in its place: `kwargs.get("host", ...)`
        keyword, value = f"={value.args[0].value}", value.args[1]
    if not (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and isinstance(value.slice, ast.Constant)
        and isinstance(value.slice.value, str)
    ):
        return None
    group = value.slice.value
    groups = _bound_before(function, value.value.id, line)
    if not (
        isinstance(groups, ast.Call)
        and isinstance(groups.func, ast.Attribute)
        and groups.func.attr == "groupdict"
        and not groups.args
        and isinstance(groups.func.value, ast.Name)
    ):
        return None
    match = _bound_before(function, groups.func.value.id, line)
    if not (
        isinstance(match, ast.Call)
        and isinstance(match.func, ast.Attribute)
        and match.func.attr in ("match", "fullmatch")
        and isinstance(match.func.value, ast.Name | ast.Attribute)
        and len(match.args) == 1
        and not match.keywords
        and isinstance(match.args[0], ast.Name)
    ):
        return None
    matched = match.args[0].id
    if matched in own:
        return matched, f"{PART}{group}{keyword}"
    outer = _matched_part(function, own, matched, line, depth + 1)
    return (outer[0], f"{PART}{group}{keyword}") if outer is not None else None


def _bound_before(function: ast.FunctionDef, name: str, line: int) -> ast.expr | None:
    """The value of the one assignment of `name` (`name = value`) in the function's own
    body, not in a branch or a loop, last before `line`, with no other binding of it
    between; None for anything else."""
    found = None
    for statement in function.body:
        if statement.lineno >= line:
            break
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and statement.targets[0].id == name
        ):
            found = statement
    if found is None:
        return None
    end = found.end_lineno or found.lineno
    for node in walk(function):
        if (
            isinstance(node, ast.Name)
            and node.id == name
            and not isinstance(node.ctx, ast.Load)
            and end < node.lineno < line
        ):
            return None
    return found.value


def _looped(function: ast.FunctionDef, name: str, line: int) -> tuple[str, str] | None:
    """(the argument, how) when `name` is bound by the target of a loop around `line` (a
    `for`, or a comprehension on that line), and not again inside it, over one of the
    function's own arguments (`for item in values`, `for i, item in enumerate(values)`)
    or its items (`for key, value in data.items()`)."""
    args = function.args
    own = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    if name in own or (args.vararg is not None and args.vararg.arg == name):
        return None
    for node in walk(function):
        if isinstance(node, ast.For | ast.AsyncFor) and node.body:
            end = node.body[-1].end_lineno or node.body[-1].lineno
            if not node.body[0].lineno <= line <= end:
                continue
            loops = [(node.target, node.iter)]
            inside: list[ast.AST] = list(node.body)
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            if not node.lineno <= line <= (node.end_lineno or node.lineno):
                continue
            loops, inside = [(g.target, g.iter) for g in node.generators], [node]
        else:
            continue
        for target, over in loops:
            bound = [n for n in walk(target) if isinstance(n, ast.Name) and n.id == name]
            if len(bound) != 1:
                continue
            # bound again in the loop (its own target aside): not the item at the call
            again = [
                n
                for part in inside
                for n in walk(part)
                if isinstance(n, ast.Name)
                and n.id == name
                and not isinstance(n.ctx, ast.Load)
                and n is not bound[0]
            ]
            found = _bound_by(target, over, bound[0], own) if not again else None
            if found is not None:
                return found
    return None


def _bound_by(
    target: ast.expr, over: ast.expr, name: ast.Name, own: set[str]
) -> tuple[str, str] | None:
    """(the argument, how) when the loop `for target in over` binds `name` to an element,
    a key or a value of an argument of `own`."""
    if target is name:
        return (over.id, ELEMENT) if isinstance(over, ast.Name) and over.id in own else None
    if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
        return None
    if not (isinstance(over, ast.Call) and not over.keywords):
        return None
    if (
        target.elts[1] is name
        and isinstance(over.func, ast.Name)
        and over.func.id == "enumerate"
        and len(over.args) == 1
        and isinstance(over.args[0], ast.Name)
        and over.args[0].id in own
    ):
        return over.args[0].id, ELEMENT
    if (
        any(e is name for e in target.elts)
        and not over.args
        and isinstance(over.func, ast.Attribute)
        and over.func.attr == "items"
        and isinstance(over.func.value, ast.Name)
        and over.func.value.id in own
    ):
        return over.func.value.id, KEY if target.elts[0] is name else VALUE
    return None


def _literal(node: ast.expr) -> bool:
    """A literal, or an empty container written as one (`{}`, `[]`, `()`)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Dict):
        return not node.keys
    return isinstance(node, ast.List | ast.Tuple | ast.Set) and not node.elts


def part_arguments(store: Store, chosen: StoredSite, facts: Facts) -> dict[str, Entry]:
    """Each argument the path's checks read that is a named group of a pattern's match on
    an argument a public call takes (`flow_entry`'s part: `encode_host(host)`, the `host`
    of the `url` of `httpx.URL`) → that entry, for a raise under an `except` in a function
    the package does not export. Elsewhere `entry_solution` names the part with the check's
    own condition; under an `except` it stands back (what failed is the `try`'s call), and
    the input rules' way out from the guards above the `try` (an ASCII host is returned
    before it) is said of the part the user writes, not of the internal argument."""
    site = chosen.site
    if site.kind != SiteKind.RAISE or not public_name(site.function) or not facts.callers:
        return {}
    if not any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return {}
    if short_export(chosen, site.function) is not None:
        return {}  # a function the package exports is the user's own call
    params = [p for p in facts.read.params if p not in ("self", "cls")]
    read = set().union(*(roots(c.text) for c in facts.held if c.kind in CHECKS))
    wanted = [p for p in params if p in read]
    function = facts.site_function() if wanted else None
    if function is None:
        return {}
    found = {}
    for param in wanted:
        entry = facts.once(
            f"flow_entry:{param}",
            functools.partial(
                flow_entry,
                store,
                chosen,
                facts.callers,
                param,
                positional_index(function, param),
                catching(chosen),
            ),
        )
        if entry is not None and entry.how.startswith(PART) and not entry.also:
            found[param] = entry
    return found
