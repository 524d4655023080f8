"""Linking: join the facts of a version's files into complete, identified sites."""

from __future__ import annotations

import json
from collections import defaultdict

import msgspec

from errdex.facts import (
    Binding,
    CallFact,
    Condition,
    ConditionKind,
    ErrorSite,
    ExceptionInfo,
    FileFacts,
    HelperFact,
    IndexedSite,
    SiteKind,
)
from errdex.ids import error_id
from errdex.link.callers import CallerIndex
from errdex.link.guards import bind_guard
from errdex.link.knobs import KnobIndex
from errdex.link.messages import bind_arguments, class_message, inline_constants, substitute
from errdex.link.reasons import ReasonsIndex
from errdex.link.resolve import BUILTIN_EXCEPTIONS, Namespace
from errdex.link.tests import TestIndex

__all__ = ["LINKER_VERSION", "link_version"]

# Bump when linking changes what it produces: stored versions made before are re-indexed.
LINKER_VERSION = "2"


def link_version(project: str, files: list[FileFacts]) -> list[IndexedSite]:
    """Resolve every site of one version and give it its stable error id."""
    names = Namespace(files)
    reasons = ReasonsIndex(files)
    helpers = _helpers_by_name(files)
    linked: list[IndexedSite] = []
    for facts in files:
        if facts.error is not None:
            continue
        sites = list(facts.sites)
        sites.extend(_helper_sites(facts, helpers, names))
        seen: dict[tuple[str | None, str, str], int] = defaultdict(int)
        for site in sites:
            exception, site = _resolve_exception(site, facts, names)
            if site.message is not None:
                site = msgspec.structs.replace(
                    site, message=inline_constants(site.message, facts, names)
                )
            if site.reasons is not None:
                site = msgspec.structs.replace(
                    site,
                    variants=reasons.expand(site.reasons, facts, site.class_name, site.conditions),
                    reasons=None,
                )
            site = msgspec.structs.replace(
                site, bindings=site.bindings + _constant_bindings(site, facts, names)
            )
            identity = exception.name if exception else site.exception or _kind_label(site)
            template = site.message.text if site.message is not None else None
            key = (identity, template or "", site.function)
            ordinal = seen[key]
            seen[key] += 1
            linked.append(
                IndexedSite(
                    id=error_id(project, identity, template, facts.module, site.function, ordinal),
                    file=facts.path,
                    module=facts.module,
                    site=site,
                    exception=exception,
                )
            )
    return _add_context(linked, files, names)


def _add_context(
    linked: list[IndexedSite], files: list[FileFacts], names: Namespace
) -> list[IndexedSite]:
    """Callers with their guards, knobs behind the conditions, tests expecting the error."""
    callers = CallerIndex(files, names)
    knobs = KnobIndex(files, names)
    tests = TestIndex(files)
    by_path = {f.path: f for f in names.modules.values()}
    out: list[IndexedSite] = []
    for indexed in linked:
        site = indexed.site
        facts = names.modules.get(indexed.module)
        if facts is None:
            out.append(indexed)
            continue
        links = callers.callers(indexed.module, site.function)
        found = knobs.knobs(facts, site.class_name, site.conditions, site.bindings, site.names)
        for variant in site.variants:
            where = by_path.get(variant.file or indexed.file, facts)
            owner = variant.function.rpartition(".")[0]
            owner_class = owner if f"{where.module}.{owner}" in names.classes else None
            found.extend(knobs.knobs(where, owner_class, variant.conditions))
        for link in links:
            caller_facts = names.modules.get(link.module)
            branch = [c for c in link.guard if c.kind is not ConditionKind.EARLY_EXIT]
            if caller_facts is None or link.depth > 1 or not branch:
                continue
            owner = link.function.rpartition(".")[0]
            owner_class = owner if f"{link.module}.{owner}" in names.classes else None
            found.extend(knobs.knobs(caller_facts, owner_class, branch))
        unique = {(k.name, k.behind): k for k in reversed(found)}
        env_names = {k.behind for k in found if k.kind == "env"}
        bindings = tuple(
            b for b in site.bindings if not (b.origin == "constant" and b.name in env_names)
        )
        out.append(
            msgspec.structs.replace(
                indexed,
                site=msgspec.structs.replace(site, bindings=bindings),
                callers=tuple(f"{c.module}.{c.function}" for c in links if c.depth == 1),
                caller_links=links,
                knobs=tuple(reversed(unique.values())),
                tests=tests.tests_for(indexed) if tests else (),
            )
        )
    return out


def _kind_label(site: ErrorSite) -> str:
    return f"{site.kind}:{site.level}" if site.level else str(site.kind)


def _resolve_exception(
    site: ErrorSite, facts: FileFacts, names: Namespace
) -> tuple[ExceptionInfo | None, ErrorSite]:
    written = site.exception
    if written is None:
        return None, site
    short = written.rsplit(".", 1)[-1]
    resolved = names.resolve_class(facts, written)
    if resolved is None:
        if written in BUILTIN_EXCEPTIONS:
            qualname = f"builtins.{written}"
        elif written.split(".")[0] in facts.imports:
            qualname = names.qualify(facts, written)
        else:
            qualname = written
        return ExceptionInfo(name=short, qualname=qualname), site
    info = ExceptionInfo(
        name=resolved.fact.name,
        qualname=resolved.qualname,
        bases=names.bases(resolved),
        docstring=resolved.fact.docstring,
        defined_in=resolved.file.path,
        line=resolved.fact.line,
    )
    built = class_message(resolved, names)
    if built is not None and site.kind in (SiteKind.RAISE, SiteKind.HELPER):
        template, params = built
        bound = bind_arguments(params, site.args)
        if bound or not site.args:
            site = msgspec.structs.replace(site, message=substitute(template, bound))
    return info, site


def _constant_bindings(site: ErrorSite, facts: FileFacts, names: Namespace) -> tuple[Binding, ...]:
    out: list[Binding] = []
    for dotted in site.names:
        if dotted.split(".")[0] in ("self", "cls"):
            continue
        found = names.resolve_constant(facts, dotted)
        if found is None:
            continue
        value, where = found
        out.append(
            Binding(
                name=dotted,
                value=json.dumps(value, ensure_ascii=False)[:2000],
                line=0,
                origin="constant",
                file=where.path if where is not facts else None,
            )
        )
    return tuple(out)


def _helpers_by_name(files: list[FileFacts]) -> dict[str, list[tuple[HelperFact, FileFacts]]]:
    found: dict[str, list[tuple[HelperFact, FileFacts]]] = defaultdict(list)
    for facts in files:
        for helper in facts.helpers:
            found[helper.name].append((helper, facts))
    return found


def _helper_sites(
    facts: FileFacts,
    helpers: dict[str, list[tuple[HelperFact, FileFacts]]],
    names: Namespace,
) -> list[ErrorSite]:
    """Calls of raising helpers with a message: each is a site of its own."""
    out: list[ErrorSite] = []
    for call in facts.calls:
        candidates = helpers.get(call.callee)
        if not candidates:
            continue
        for helper, helper_facts in _pick_helper(call, facts, candidates):
            site = _helper_site(call, helper, helper_facts, facts, names)
            if site is not None:
                out.append(site)
    return out


def _helper_site(
    call: CallFact,
    helper: HelperFact,
    helper_facts: FileFacts,
    facts: FileFacts,
    names: Namespace,
) -> ErrorSite | None:
    """The site one raise of a helper makes at a call, or None when it cannot happen there."""
    bound = bind_arguments(helper.params, call.args)
    given = bound.get(helper.param)
    if given is None or not given.literal_length:
        return None
    guard = _bound_guard(helper, call)
    if guard is None:
        return None  # the helper cannot raise with these arguments
    exception = helper.exception
    if exception is not None and helper_facts is not facts and exception not in BUILTIN_EXCEPTIONS:
        exception = names.qualify(helper_facts, exception)
    return ErrorSite(
        kind=SiteKind.HELPER,
        exception=exception,
        message=substitute(helper.message, bound),
        line=call.line,
        end_line=call.end_line,
        function=call.function,
        class_name=call.class_name,
        conditions=call.conditions + guard,
        args=call.args,
    )


def _bound_guard(helper: HelperFact, call: CallFact) -> tuple[Condition, ...] | None:
    """The helper's guard in the caller's terms; None when it is surely false."""
    sources = {
        name: arg.source
        for name, arg in zip(helper.params, [a for a in call.args if a.name is None], strict=False)
    }
    sources.update({a.name: a.source for a in call.args if a.name in helper.params})
    out: list[Condition] = []
    for condition in helper.conditions:
        bound, truth = bind_guard(condition, sources)
        if truth is False:
            return None
        if truth is None:
            out.append(bound)
    return tuple(out)


def _pick_helper(
    call: CallFact, facts: FileFacts, candidates: list[tuple[HelperFact, FileFacts]]
) -> list[tuple[HelperFact, FileFacts]]:
    """The raises of the one helper function a call reaches: one site each.

    A helper of the caller's own file wins; else the name must lead to a single function
    in the version (its several raises are all sites), or nothing is claimed.
    """
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
