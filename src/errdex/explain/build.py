"""Build one error's page from the store: gather the facts, explain them, fill the model."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TypeVar

import msgspec

from errdex.errors import NotFoundError
from errdex.explain.advice import fill_values
from errdex.explain.attribute_kinds import attribute_kinds_solution
from errdex.explain.bookkeeping import own_check
from errdex.explain.callee_advice import callee_messages
from errdex.explain.caller_literals import caller_literals, literal_calls
from errdex.explain.caps import setting_caps
from errdex.explain.checked_before import checked_by_callers
from errdex.explain.class_hooks import class_hook
from errdex.explain.context import Explanation, Facts
from errdex.explain.deprecation import replacement_names
from errdex.explain.descriptor_access import descriptor_access_solution
from errdex.explain.entry_args import constructor_entries, entry_arguments, stated_entries
from errdex.explain.entry_flow import part_arguments
from errdex.explain.entry_solution import entry_input_solution
from errdex.explain.env_reads import with_walrus_locals
from errdex.explain.example_fix import example_fix
from errdex.explain.failed_call import raised_bare
from errdex.explain.failing_branch import failing_calls
from errdex.explain.fallbacks import setting_fallbacks
from errdex.explain.flag_reach import own_flags
from errdex.explain.handed_callback import handed_callback
from errdex.explain.imported_class import imported_class
from errdex.explain.inner_raises import inner_raises
from errdex.explain.keyword_items import keyword_items_solution
from errdex.explain.linked import (
    binding_views,
    caller_views,
    gate_view,
    knob_views,
    test_views,
    truth_views,
)
from errdex.explain.literal_members import member_values
from errdex.explain.loop_locals import without_loop_rebound
from errdex.explain.model.answer import apply_analysis
from errdex.explain.model.prompt import PROMPT_VERSION
from errdex.explain.named_mode import mode_knobs
from errdex.explain.named_settings import typed_fields
from errdex.explain.never_none import filled_default
from errdex.explain.no_action import caught_by_callers
from errdex.explain.not_associated import holder_names
from errdex.explain.override_warning import override_warnings
from errdex.explain.own_code import top_init_file
from errdex.explain.page import Analysis, ConditionView, Page, VersionEntry
from errdex.explain.page_reads import page_reads
from errdex.explain.passed_before import passed_by_callers
from errdex.explain.pins import pin_label, revision_date
from errdex.explain.placeholder_words import worded
from errdex.explain.platform_shell import windows_fixes
from errdex.explain.refused_modes import refused_modes
from errdex.explain.related import related_errors
from errdex.explain.report import prefilled, tracker_of
from errdex.explain.returned_fields import returned_fields
from errdex.explain.rules import what_it_means, when_it_happens
from errdex.explain.runnable_fix import checked_fixes
from errdex.explain.same_error import same_error_paths
from errdex.explain.sibling_advice import sibling_advice
from errdex.explain.solutions import solutions
from errdex.explain.stand_ins import standing_in
from errdex.explain.table_lookup import table_keys
from errdex.explain.tried_input import tried_input
from errdex.explain.twins import twin_paths
from errdex.explain.upgrades import upgrade_solutions
from errdex.explain.value_picked import value_picked
from errdex.explain.verified import verified_explanation
from errdex.explain.views import (
    condition_view,
    exception_view,
    shown_views,
    source_view,
    vacuous,
    variant_views,
)
from errdex.explain.why import constant_lines, why_quotes
from errdex.explain.why_outer import helper_text
from errdex.facts import KnobKind
from errdex.history.timeline import lineage
from errdex.reading_facts import SourceRead
from errdex.store.base import Store, StoredSite, VersionRecord
from errdex.syntax_lock import SYNTAX_TREES

__all__ = ["build_page", "choose_site"]

T = TypeVar("T")

# How versions of releases a package index serves are indexed (the package index, a wheel
# or sdist, an environment): pip installs a later one by the project's name.
_RELEASES = frozenset({"pypi", "wheel", "sdist", "installed"})


def choose_site(sites: list[StoredSite], error_id: str, version: str | None) -> StoredSite:
    """The site of `version` (the newest version holding the error when None)."""
    if version is None:
        return sites[0]
    matching = [s for s in sites if s.version == version]
    if not matching:
        have = ", ".join(dict.fromkeys(s.version for s in sites))
        raise NotFoundError(f"error {error_id} is not in version {version} (it is in {have})")
    return matching[0]


def build_page(
    store: Store,
    error_id: str,
    version: str | None = None,
    *,
    model: str | None = None,
    use_model: bool = True,
) -> Page:
    """The page of one error id, for one version (the newest holding it by default).

    The prose is the deterministic explainer's, unless a model's accepted analysis of this
    revision is cached (of `model` when given, else the newest) and `use_model` is true.
    Raises `NotFoundError` for an unknown id or a version that does not hold it.
    """
    with SYNTAX_TREES:  # the web and the model enrichment build pages in threads
        return _build_page(store, error_id, version, model=model, use_model=use_model)


def _build_page(
    store: Store, error_id: str, version: str | None, *, model: str | None, use_model: bool
) -> Page:
    error_id = error_id.strip().lower()
    store = page_reads(store)
    sites = store.get_error(error_id)
    chosen = choose_site(sites, error_id, version)
    text = store.file_text(chosen.version_id, chosen.file)
    record = _version_record(store, chosen)
    facts = gather_facts(chosen)
    facts.knobs = mode_knobs(store, chosen, typed_fields(store, chosen, facts.knobs))
    facts.fallbacks = setting_fallbacks(store, chosen, facts.knobs)
    facts.caps = setting_caps(store, chosen, facts.knobs)
    if any(k.kind in (KnobKind.ENV, KnobKind.FLAG) for k in facts.knobs):
        facts.warned = override_warnings(store, chosen, list(facts.held))
    facts.source_text = text
    facts.tracker = tracker_of(store, chosen.project)
    facts.scripts = tuple(e.name for e in record.entry_points) if record is not None else ()
    facts.top_init = lambda: store.file_text(chosen.version_id, top_init_file(chosen))
    facts.imported_class = _free_of(facts, lambda known, name: imported_class(store, known, name))
    facts.file_text = lambda file: store.file_text(chosen.version_id, file)
    facts.sites_naming = lambda name: store.sites_naming(chosen.version_id, name)
    facts.raised_bare = lambda name: raised_bare(store, chosen, name)
    facts.class_files = lambda name: tuple(
        dict.fromkeys(s.file for s in store.class_sites(chosen.version_id, name))
    )
    folder = chosen.file.rpartition("/")[0]
    facts.folder_paths = lambda: store.kept_paths(chosen.version_id, folder + "/" if folder else "")
    facts.version_paths = lambda: store.version_paths(chosen.version_id)
    # (the facts are handed in, not closed over: a page's facts hold no cycle to collect)
    facts.literal_calls = lambda held, name: literal_calls(store, chosen, held, name)
    facts.bindings = without_loop_rebound(facts)
    facts.outline_of = lambda: store.file_outline(chosen.version_id, chosen.file)
    facts.class_hook = class_hook(facts, lambda file: store.file_text(chosen.version_id, file))
    facts.constant_lines = constant_lines(store, chosen, facts.bindings, text)
    facts.helper_text = helper_text(store, chosen)
    facts.returned = returned_fields(store, chosen, facts)
    facts.callee_messages = callee_messages(store, facts)
    facts.inner_raises = inner_raises(store, facts)
    facts.failing = failing_calls(store, chosen, facts)
    facts.refused_modes = refused_modes(store, chosen, facts)
    facts.tried = tried_input(store, chosen, facts)
    facts.same_error_paths = same_error_paths(store, chosen)
    facts.sibling_advice = sibling_advice(store, chosen, facts)
    facts.twin_paths = twin_paths(store, chosen)
    facts.caught_by = caught_by_callers(store, chosen, facts.callers)
    facts.checked_by = checked_by_callers(store, facts)
    facts.passed_by = passed_by_callers(store, chosen, facts)
    facts.filled = filled_default(store, chosen, facts)
    facts.table_keys = table_keys(store, chosen, facts)
    facts.members = member_values(store, chosen, facts)
    facts.entry_input = (
        entry_input_solution(store, chosen, facts)
        or keyword_items_solution(store, chosen, facts)
        or descriptor_access_solution(facts)
        or attribute_kinds_solution(store, chosen, facts)
    )
    facts.entry_args = {
        **part_arguments(store, chosen, facts),
        **entry_arguments(store, chosen, facts),
        **constructor_entries(store, chosen, facts),
    }
    facts.value_picked = value_picked(store, chosen, facts)
    facts.stand_ins = standing_in(store, chosen)
    facts.stated_entries = stated_entries(store, chosen, facts)
    facts.handed = handed_callback(store, chosen, facts)
    facts.public_names = {
        name: path
        for name in (*replacement_names(chosen), *holder_names(chosen))
        if (path := store.public_path_of(chosen.version_id, name)) is not None
    }
    pinned = pin_label(record, chosen.revision)
    explanation = verified_explanation(store, chosen, facts, explain(facts))
    message = chosen.site.message.text if chosen.site.message is not None else None
    # every version the error is in, under whichever id it has there
    versions = [VersionEntry(**msgspec.structs.asdict(e)) for e in lineage(store, chosen.id, sites)]
    upgrades = upgrade_solutions(
        chosen.project,
        chosen.version,
        versions,
        facts.conditions,
        lambda other, label: _conditions_of(store, other, label),
        lambda label: _still_raised(store, chosen, label),
        installable=record is not None and record.source_kind in _RELEASES,
    )
    page = Page(
        id=chosen.id,
        project=chosen.project,
        version=chosen.version,
        revision=chosen.revision,
        exception=exception_view(chosen),
        kind=str(chosen.site.kind),
        level=chosen.site.level,
        message=message,
        shown=shown_views(chosen),
        source=msgspec.structs.replace(
            source_view(chosen, text),
            pinned=pinned.pinned,
            pin_basis=pinned.basis,
            pin_guessed=pinned.guessed,
        ),
        conditions=facts.conditions,
        variants=facts.variants,
        what_it_means=explanation.what_it_means,
        why=explanation.why,
        when_it_happens=explanation.when_it_happens,
        solutions=[*explanation.solutions, *upgrades],
        example_fix=explanation.example_fix or next((s.fix for s in upgrades if s.fix), None),
        related=related_errors(store, chosen),
        versions=versions,
        callers=facts.callers,
        knobs=facts.knobs,
        bindings=facts.bindings,
        tests=facts.tests,
        analysis=Analysis(
            by="rules",
            at=record.indexed_at if record else "",
            project=chosen.project,
            revision=chosen.revision,
            date=revision_date(record),
            pinned=pinned.pinned,
            pin_basis=pinned.basis,
            pin_guessed=pinned.guessed,
        ),
        report_url=prefilled(facts.tracker, message, chosen.id) if facts.tracker else None,
        own_check=own_check(facts),
    )
    filled = caller_literals(store, chosen, facts, page.solutions)
    if filled:
        page = fill_values(page, filled)
    page.solutions = worded(
        facts, page.solutions, lambda path: store.file_text(chosen.version_id, path)
    )
    if use_model:
        cached = store.get_analysis(chosen.id, chosen.revision, model, PROMPT_VERSION)
        if cached is not None:
            page = apply_analysis(page, cached)
    return page


def gather_facts(stored: StoredSite) -> Facts:
    """The site's facts as the page shows them: what the explainers read, with what the
    source says around it as read at extraction (nothing when an older errdex indexed it:
    indexing the version again reads it)."""
    callers = caller_views(stored)
    guards = []
    for caller, link in zip(callers, stored.caller_links, strict=True):
        if caller.depth == 1:
            views = [condition_view(c) for c in link.guard if c.statement in caller.guard]
            guards.append((caller, views))
    conditions = [condition_view(c) for c in stored.site.conditions if not vacuous(c)]
    gate_guards = [(gate_view(link), truth_views(link)) for link in stored.gates]
    return Facts(
        stored=stored,
        conditions=conditions,
        variants=variant_views(stored),
        callers=callers,
        caller_guards=guards,
        gate_guards=gate_guards,
        knobs=with_walrus_locals(own_flags(knob_views(stored)), conditions),
        bindings=binding_views(stored),
        tests=test_views(stored),
        read=stored.reading or SourceRead(),
    )


def explain(facts: Facts) -> Explanation:
    """The deterministic explanation: from the facts alone, offline."""
    meaning = what_it_means(facts)
    # every fix shown checked against the index: rewritten or withheld when it cannot run
    ways, fix = checked_fixes(facts, *windows_fixes(facts, solutions(facts), example_fix(facts)))
    return Explanation(
        what_it_means=meaning,
        when_it_happens=when_it_happens(facts),
        solutions=ways,
        example_fix=fix,
        why=why_quotes(facts, meaning, [s.text for s in ways]),
    )


def _conditions_of(store: Store, error_id: str, version: str) -> list[ConditionView] | None:
    """The conditions of an error's site in another version (for an upgrade's way out)."""
    for site in store.get_error(error_id):
        if site.version == version:
            return [condition_view(c) for c in site.site.conditions]
    return None


def _still_raised(store: Store, stored: StoredSite, version: str) -> bool:
    """Whether `version` has a site of the same function raising the same exception with
    the same text, or with no text known on one side (`raise EngineDeadError()`, whose
    class composes its text in one release and not in the other). A file with no site
    there counts as raising it still: moved elsewhere or dropped with its feature, an
    upgrade is no sure way out."""
    site = stored.site
    others = store.list_sites(project=stored.project, version=version, file=stored.file)
    if not others:
        return True
    for other in others:
        if (other.site.function, other.site.kind, other.site.exception) != (
            site.function,
            site.kind,
            site.exception,
        ):
            continue
        if other.site.message == site.message or None in (other.site.message, site.message):
            return True
    return False


def _version_record(store: Store, stored: StoredSite) -> VersionRecord | None:
    for record in store.versions(stored.project):
        if record.id == stored.version_id:
            return record
    return None


def _free_of(facts: Facts, read: Callable[[Facts, str], T]) -> Callable[[str], T | None]:
    """`read(facts, name)` for a name, holding the facts by a weak reference: a closure over
    them, kept in them, would make each page's facts a cycle that only the collector frees
    (with all they hold: the page's reads, sites, views, memo)."""
    held = weakref.ref(facts)

    def call(name: str) -> T | None:
        known = held()
        return read(known, name) if known is not None else None

    return call
