"""The public call a user reaches an internal function's argument through.

A check in a function no user calls (`expect(role, element)` in a module of the package's
internals) often tests a value a user gave a public call, which hands it on unchanged
(`Column(server_default=...)` → ... → `element`). The callers the linker found, read from
the index, say which of their own arguments they pass on as they are; when every such chain
ends at one entry point of the package (a class or function its top package, or a package
right under it, exports), the page names that call and its argument instead of the internal
function's. Nothing is said when a caller on the way passes a value it computed (a user
may reach the check that way), or when the chains end at different calls.
"""

from __future__ import annotations

import ast
import functools
import re

from errdex.explain.call_binding import positional_index
from errdex.explain.context import Entry, Facts, top_class_in
from errdex.explain.entry_input import (
    CHECKS,
    MAX_DEPTH,
    call_values,
    catching,
    named,
    other_values,
    passed_on,
    roots,
    state_of,
)
from errdex.explain.inputs import public_name
from errdex.explain.item_fields import own_init
from errdex.explain.kept_keyword import kept_keyword
from errdex.explain.page import Caller
from errdex.explain.stated_requirement import asked_parameter, requirements
from errdex.extract.module import module_name
from errdex.facts import ConditionKind, SiteKind
from errdex.store.base import Store, StoredSite

_MAX_CALLERS = 6  # callers of one function read, past which no entry point is sure
_MAX_DOTS = 2  # dots in an entry point's path: `pydantic.v1.BaseModel`, `httpx.URL`
_MAX_ENDS = 3  # public calls named for one argument: past these it is no one call's
_SELF_ATTRIBUTE = re.compile(r"\bself\.([A-Za-z_]\w*)")


def entry_arguments(store: Store, chosen: StoredSite, facts: Facts) -> dict[str, Entry]:
    """Each argument of the site's function that the path's checks read → (the public call,
    its argument) that hands it on as it is (`sole_entry`); only for a function the package
    does not export itself (its page would otherwise name the function's own argument)."""
    site = chosen.site
    if site.kind not in (SiteKind.RAISE, SiteKind.ASSERT) or not public_name(site.function):
        return {}
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions) or not facts.callers:
        return {}  # what failed is the `try`'s call, which no condition here says
    params = [p for p in facts.read.params if p not in ("self", "cls")]
    read = set().union(*(roots(c.text) for c in facts.held if c.kind in CHECKS))
    wanted = [p for p in params if p in read]
    if not wanted or short_export(chosen, site.function) is not None:
        return {}  # a function the package exports is the user's own call
    found = {}
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None] = {}
    for param in wanted:
        entry = sole_entry(store, chosen, facts.callers, params, param, parsed)
        if entry is not None:
            found[param] = entry
    return found


def constructor_entries(store: Store, chosen: StoredSite, facts: Facts) -> dict[str, Entry]:
    """Each `self.x` the path's checks read that the constructor of the site's class kept
    from its own argument → (the public call, its argument) that hands that argument on as
    it is (`sole_entry`'s walk, from the constructor up), for a class the package does not
    export: no user makes it, a public call does (`create_ssl_context(verify=...)` makes
    `SSLConfig(verify=verify)`, whose method checks `self.verify`), so "the argument
    `verify` of `SSLConfig`" names a call no user writes. Only where the constructor is
    itself a caller on the way to the site (it runs the check while it makes the object):
    the linker then recorded who makes the object, above it."""
    site = chosen.site
    owner, _, method = site.function.rpartition(".")
    if site.kind not in (SiteKind.RAISE, SiteKind.ASSERT) or not owner or "." in owner:
        return {}
    if method == "__init__" or not facts.read.init_params:
        return {}  # (a check in the constructor reads its own arguments: `entry_arguments`)
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return {}  # what failed is the `try`'s call, which no condition here says
    if not public_name(owner) or short_export(chosen, owner) is not None:
        return {}  # a class the package exports is the user's own call
    makers = {c.depth for c in facts.callers if c.function == f"{owner}.__init__"}
    read = set().union(*(_SELF_ATTRIBUTE.findall(c.text) for c in facts.held if c.kind in CHECKS))
    kept = sorted(read & facts.read.init_params.keys())
    if len(makers) != 1 or not kept:
        return {}  # (asked before the class is parsed: most pages stop here)
    cls = facts.own_class()
    init = own_init(cls) if cls is not None else None
    if init is None:
        return {}
    found = {}
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None] = {}
    for attribute in kept:
        param = facts.read.init_params[attribute]
        start = (f"{chosen.module}.{owner}.__init__", param, positional_index(init, param))
        entry = _walk_up(store, chosen, facts.callers, start, min(makers) + 1, parsed)
        if entry is not None:
            found[f"self.{attribute}"] = entry
    return found


def stated_entries(store: Store, chosen: StoredSite, facts: Facts) -> dict[str, Entry]:
    """Each argument the raise's own test reads as it is (not an attribute of it: the
    object's state) → (the public call, its argument) that hands it on as it is
    (`sole_entry`), for a raise whose message states what a value must be
    (`stated_requirement`): the requirement is then of the user's argument. Private
    functions too (`_register_module(module)` of `register_module(module=...)`); only such
    raises are followed, so no other page reads its callers' files for it."""
    site = chosen.site
    if site.kind != SiteKind.RAISE or site.message is None or not facts.callers:
        return {}
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return {}  # what failed is the `try`'s call, which no condition here says
    checks = [c for c in facts.held if c.kind in CHECKS]
    stated = requirements(site.message.text)
    if not checks or not stated:
        return {}
    if public_name(site.function) and short_export(chosen, site.function) is not None:
        return {}  # a function the package exports is the user's own call
    test = checks[-1].text
    params = [p for p in facts.read.params if p not in ("self", "cls")]
    read = roots(test)
    given = tuple(p for p in params if p in read and not state_of(test, p))
    own = read & {*params, "self", "cls"}
    # only the arguments a requirement is of: the callers' files are read for those alone
    asked = {asked_parameter(s, given, own) for s in stated} - {None}
    found = {}
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None] = {}
    for param in [p for p in given if p in asked]:
        entry = sole_entry(store, chosen, facts.callers, params, param, parsed)
        if entry is not None:
            found[param] = entry
    return found


def sole_entry(
    store: Store,
    chosen: StoredSite,
    callers: list[Caller],
    params: list[str],
    param: str,
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None],
) -> Entry | None:
    """The entry point (and its argument) that every chain of callers handing `param` on as
    it is ends at, at most `MAX_DEPTH` calls up; None when none does, when one is still
    internal at the top, or when a caller on the way passes a value it computed (a user may
    reach the check that way too); a literal the package passes is no user's value and is
    passed over. Chains that end at different calls are one entry only when each is a
    class or a function a user calls by its path (not a method: a framework's hook is as
    likely), or each a method of one class (`Connection.execute`, `Connection.scalar`), and
    all take the value as the same argument (`auth` of `httpx.Client` and of
    `httpx.AsyncClient`): the argument is then the user's whichever they called."""
    start = (f"{chosen.module}.{chosen.site.function}", param, params.index(param))
    return _walk_up(store, chosen, callers, start, 1, parsed)


def _walk_up(
    store: Store,
    chosen: StoredSite,
    callers: list[Caller],
    start: tuple[str, str, int],
    first: int,
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None],
) -> Entry | None:
    """`sole_entry`'s walk from `start` (the function called as the callers name it, its
    parameter, the parameter's position), whose callers are at depth `first`."""
    caught = catching(chosen)
    ends: dict[str, str] = {}  # the entry point → its argument
    methods = False  # whether an end is a method's (a call on an object, not by its path)
    # (the function called as the callers name it, its parameter, the parameter's position)
    level = [start]
    for depth in range(first, MAX_DEPTH + 1):
        following = []
        for dotted, name, position in level:
            calling = [c for c in callers if c.depth == depth and c.calls == dotted]
            if len(calling) > _MAX_CALLERS:
                return None  # a helper called from all over: which call was the user's?
            for caller in calling:
                read = call_values(store, chosen, caller, dotted, (name, position), caught, parsed)
                argument = passed_on(*read) if read is not None else None
                if (
                    read is not None
                    and argument is not None
                    and other_values(
                        read[0], dotted, (name, position), functools.partial(named, argument)
                    )
                ):
                    return None  # it calls the function again with another value: which?
                if read is not None and argument is None:
                    # what the caller's object kept of its constructor's keyword
                    kept = kept_keyword(store, chosen, caller.file, caller.function, read[2])
                    entry = _class_export(store, chosen, caller) if kept else None
                    if kept is not None and entry is not None:
                        if ends.setdefault(entry, kept) != kept:
                            return None
                        continue
                    made = _maker(store, chosen, callers, caller, kept, depth) if kept else None
                    if made is not None:
                        # a class no user makes: its makers hand the keyword on, or not
                        following.append(made)
                        continue
                if read is None or argument is None:
                    if read is None or not all(isinstance(v, ast.Constant) for v in read[2]):
                        return None  # a value changed on the way, which a user may give
                    continue  # a literal of the package's own: not the user's value
                entry = exported_entry(
                    store, chosen, caller.file, caller.function
                ) or linked_export(chosen, caller)
                caller_params = read[1]
                if entry is not None:
                    if ends.setdefault(entry, argument) != argument:
                        return None  # two arguments of one call: which is not said
                    methods |= "." in caller.function.removesuffix(".__init__")
                    continue
                target = f"{module_name(caller.file)[0]}.{caller.function}"
                following.append((target, argument, caller_params.index(argument)))
        if len(ends) > 1 and (
            (methods and len({end.rpartition(".")[0] for end in ends}) > 1)
            or len(set(ends.values())) > 1
            or len(ends) > _MAX_ENDS
        ):
            return None
        level = list(dict.fromkeys(following))  # a constructor reached both ways: once
        if not level:
            break
    if not ends or level:
        return None
    return Entry(tuple(sorted(ends)), next(iter(ends.values())))


def _maker(
    store: Store,
    chosen: StoredSite,
    callers: list[Caller],
    caller: Caller,
    kept: str,
    depth: int,
) -> tuple[str, str, int] | None:
    """Where the walk goes on from a method `caller` that hands on `self.x`, which its
    class's constructor kept from its keyword `kept`, for a class the package does not
    export (`click.utils.LazyFile.open` passes `self.mode`; `open_file` makes
    `LazyFile(filename, mode, ...)`): the constructor and that keyword, when the linker
    recorded who calls the constructor one level up (it is itself on the way to the site);
    else None (the makers not known: the chain is not followed, and the walk stops)."""
    owner = caller.function.rpartition(".")[0]
    target = f"{module_name(caller.file)[0]}.{owner}.__init__"
    if not any(c.depth == depth + 1 and c.calls == target for c in callers):
        return None
    cls = top_class_in(store.file_text(chosen.version_id, caller.file), owner)
    init = own_init(cls) if cls is not None else None
    return (target, kept, positional_index(init, kept)) if init is not None else None


def exported_entry(store: Store, chosen: StoredSite, file: str, function: str) -> str | None:
    """The path the package exports a function or class by (the class's for a method or a
    constructor: `httpx.URL`), read from a site of it in its file, when that path is shorter
    than where it is defined and names its top package or one right under it; else None."""
    if not public_name(function):
        return None
    top = function.partition(".")[0]
    for other in store.list_sites(chosen.project, chosen.version, file=file):
        if other.site.function == top or other.site.function.startswith(f"{top}."):
            return short_export(other, function)
    return None


def _class_export(store: Store, chosen: StoredSite, caller: Caller) -> str | None:
    """`exported_entry`'s path for the class of a method `caller`, read from a site of the class
    or from the linker's public path of the method."""
    owner = caller.function.rpartition(".")[0]
    found = exported_entry(store, chosen, caller.file, owner)
    if found is not None or not public_name(owner):
        return found
    return linked_export(chosen, caller, owner)


def linked_export(chosen: StoredSite, caller: Caller, function: str | None = None) -> str | None:
    """`exported_entry`'s path for a caller whose file holds no site of its class or function to
    read it from (`sqlalchemy.dialects.mysql.DOUBLE`): the linker's public path of it
    (`CallerLink.public`), on the same terms; `function`: the path of that class or
    function of the caller's (its class, for a method's object) instead."""
    if not public_name(function or caller.function):
        return None
    for link in (*chosen.caller_links, *chosen.flow_links):
        if (link.file, link.function, link.line) == (caller.file, caller.function, caller.line):
            if not link.public:
                return None
            return _shorter(link.public, link.module, caller.function, function)
    return None


def short_export(stored: StoredSite, function: str) -> str | None:
    """`exported_entry`'s path for `function`, of the class or function holding the site `stored`:
    the shorter path the package exports it by, or None."""
    path = stored.public_path()
    if path is None or not path.endswith(stored.site.function):
        return None
    return _shorter(path, module_name(stored.file)[0], stored.site.function, function)


def _shorter(path: str, module: str, qualname: str, function: str | None = None) -> str | None:
    """The exported path of `function` (`qualname`'s by default), from `path`, the public
    path of `qualname` defined in `module`, when the class or function holding it is
    exported shorter than where it is defined and names the top package or one right
    under it; else None."""
    top = qualname.partition(".")[0]
    rest = (function or qualname).partition(".")[2]
    path = path[: len(path) - len(qualname)] + top
    dots = path.count(".")
    if dots >= f"{module}.{top}".count(".") or dots > _MAX_DOTS:
        return None
    return f"{path}.{rest}".removesuffix(".").removesuffix(".__init__")
