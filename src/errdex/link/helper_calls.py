"""Calls of the version's raising helpers: which helper function a call reaches, and the
site each of its raises makes at the call."""

from __future__ import annotations

from collections import defaultdict

from errdex.extract.shapes import OWN_OBJECT, SUPER
from errdex.facts import CallFact, ErrorSite, FileFacts, HelperFact, SiteKind
from errdex.link.forwarding import (
    Helpers,
    add_forwarding_helpers,
    args_at_call,
    bound_at_call,
    bound_guard,
    helper_exception,
    site_at_call,
)
from errdex.link.messages import (
    format_given,
    inline_constants,
    substitute,
)
from errdex.link.receivers import ReceiverClasses
from errdex.link.resolve import Namespace, python_twins


def helpers_by_name(
    files: list[FileFacts], names: Namespace, receivers: ReceiverClasses
) -> Helpers:
    """The raising and warning helpers of the version by name, helpers of helpers included."""
    found: Helpers = defaultdict(list)
    for facts in files:
        for helper in facts.helpers:
            found[helper.name].append((helper, facts))
    add_forwarding_helpers(
        files,
        found,
        lambda call, facts, found: _pick_helper(call, facts, found, names, receivers),
        names,
    )
    return found


def cross_file_helper_names(files: list[FileFacts]) -> frozenset[str]:
    """Names of the raising helpers that a call in another file can reach (`_pick_helper`):
    the name of one method, or of one plain function, of the version.
    """
    methods: dict[str, set[tuple[str, str]]] = defaultdict(set)
    functions: dict[str, set[tuple[str, str]]] = defaultdict(set)
    files = python_twins(files)
    names = Namespace(files)
    for name, found in helpers_by_name(files, names, ReceiverClasses(names)).items():
        for helper, facts in found:
            kind = methods if "." in helper.qualname else functions
            kind[name].add((facts.path, helper.qualname))
    return frozenset(
        name for kind in (methods, functions) for name, where in kind.items() if len(where) == 1
    )


def helper_sites(
    facts: FileFacts,
    helpers: dict[str, list[tuple[HelperFact, FileFacts]]],
    names: Namespace,
    receivers: ReceiverClasses,
) -> list[tuple[ErrorSite, tuple[str, int]]]:
    """Calls of raising helpers with a message: each is a site of its own, with the file
    and line of the raise in the helper it reaches."""
    out: list[tuple[ErrorSite, tuple[str, int]]] = []
    for call in facts.calls:
        candidates = helpers.get(call.callee)
        if not candidates:
            continue
        for helper, helper_facts in _pick_helper(call, facts, candidates, names, receivers):
            site = _helper_site(call, helper, helper_facts, facts, names)
            if site is not None:
                out.append((site, (helper_facts.path, helper.line)))
    return out


def _helper_site(
    call: CallFact,
    helper: HelperFact,
    helper_facts: FileFacts,
    facts: FileFacts,
    names: Namespace,
) -> ErrorSite | None:
    """The site one raise of a helper makes at a call, or None when it cannot happen there."""
    bound, sources = bound_at_call(helper, call.args)
    given = bound.get(helper.param)
    if given is not None and not given.literal_length:
        # `fail(NOT_FOUND)`: the text of a module constant, of this file or imported.
        given = bound[helper.param] = inline_constants(given, facts, names)
    if given is None or not given.literal_length:
        return None
    if helper.varargs is not None:
        # What the helper's `*args` holds at this call: empty, or not (a test of it is
        # decided; `(...,)` stands for arguments of any value).
        extra = len([a for a in call.args if a.name is None]) > len(helper.params)
        sources[helper.varargs] = "(...,)" if extra else "()"
    # `raise LocalProtocolError(msg.format(*args))`: the call's text formatted with its
    # own arguments.
    formatted = format_given(helper.message, helper.param, helper.params, call.args)
    receiver = call.receiver
    if receiver is not None and receiver not in OWN_OBJECT and _is_dotted(receiver):
        # `mm_items.get_items("image")`: the method's `self` is what it was called on.
        sources.update(dict.fromkeys(OWN_OBJECT, receiver))
    guard = bound_guard(helper, sources)
    if guard is None:
        return None  # the helper cannot raise with these arguments
    # A warning helper's call warns: it reads, and is looked up, as a warning.
    kind = SiteKind.WARN if helper.kind is SiteKind.WARN else SiteKind.HELPER
    exception = helper_exception(helper, helper_facts, facts, sources, names)
    message = substitute(formatted, bound, sources)
    args = args_at_call(helper, bound, sources, message) if helper.kind is SiteKind.RAISE else None
    return site_at_call(call, kind, exception, message, guard, args)


def _is_dotted(name: str) -> bool:
    return all(part.isidentifier() for part in name.split("."))


def _pick_helper(
    call: CallFact,
    facts: FileFacts,
    candidates: list[tuple[HelperFact, FileFacts]],
    names: Namespace,
    receivers: ReceiverClasses,
) -> list[tuple[HelperFact, FileFacts]]:
    """The raises of the one helper function a call reaches: one site each.

    A call on a module of the version reaches that module's function, a method call that
    of the object's class when the code says which it is. A helper of the caller's own
    file wins; else the name must lead to a single function in the version (its several
    raises are all sites), or nothing is claimed. A call on an import from outside the
    version (`unicodedata.normalize(...)`) reaches none.
    """
    receiver = call.receiver
    if receiver is not None and names.imported_from_outside(facts, receiver.split(".")[0]):
        return []
    module = names.modules.get(names.qualify(facts, receiver)) if receiver else None
    if module is not None:
        # `utils.check(...)`, `pkg.utils.check(...)`: that module's function, or the one it
        # re-exports (`from .langhelpers import warn as warn` in `util/__init__.py`).
        home, name = names.lookup(f"{module.module}.{call.callee}") or (module, call.callee)
        return [(h, where) for h, where in candidates if where is home and h.qualname == name]
    if receiver == SUPER:
        # `super().__call__(form, field, message)`: the method of a base of the class.
        if call.class_name is None:
            return []
        owner = names.method_owner(facts, call.class_name, call.callee, bases_only=True)
        return _methods_of(owner, candidates)
    if receiver in OWN_OBJECT:
        # `self.x(...)` reaches the method of the caller's class or of its nearest base
        # that has one; a base from outside the version (`nn.Module.__setattr__`), or a
        # `self` that is no method's (a decorator's wrapper), is no helper of ours.
        if call.class_name is None:
            return []
        return _methods_of(names.method_owner(facts, call.class_name, call.callee), candidates)
    if receiver is not None:
        # A method of an object: that of its class when the code says which class it is
        # (`ReceiverClasses`). Otherwise (an attribute's object, a call's result, a name
        # of no known class) only a helper of the same file is likely enough to claim: the
        # only method of that name in the version is no evidence (`list.remove(...)`).
        cls = receivers.class_of(call, facts)
        if cls is not None:
            owner = names.method_owner(cls.file, cls.fact.qualname, call.callee)
            return _methods_of(owner, candidates)
        candidates = [pair for pair in candidates if pair[1] is facts]
    is_method = call.receiver is not None
    fitting = [
        (helper, where)
        for helper, where in candidates
        if ("." in helper.qualname) == is_method or where is facts
    ]
    same_file = [pair for pair in fitting if pair[1] is facts]
    chosen = same_file or fitting
    functions = {(where.path, helper.qualname) for helper, where in chosen}
    return chosen if len(functions) == 1 else []


def _methods_of(
    owner: tuple[str, str] | None, candidates: list[tuple[HelperFact, FileFacts]]
) -> list[tuple[HelperFact, FileFacts]]:
    """The raises of the method `owner` (module, qualname) among the candidates."""
    return [
        (helper, where) for helper, where in candidates if (where.module, helper.qualname) == owner
    ]
