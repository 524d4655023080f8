"""Linking: join the facts of a version's files into complete, identified sites."""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from errdex.bugs import INTERNAL, error_line, show_traceback
from errdex.extract.gettext_catalogs import Catalog
from errdex.extract.shapes import MESSAGE_KEYWORDS, OWN_OBJECT
from errdex.facts import (
    Binding,
    ConditionKind,
    ErrorSite,
    FileFacts,
    KnobKind,
    MessageTemplate,
    SiteKind,
)
from errdex.ids import error_id
from errdex.link import forked, own_tests
from errdex.link.callers import CallerIndex
from errdex.link.caught import CaughtTexts
from errdex.link.commands import CommandIndex
from errdex.link.factories import Factories
from errdex.link.helper_calls import cross_file_helper_names, helper_sites, helpers_by_name
from errdex.link.knobs import KnobIndex
from errdex.link.messages import (
    argument_sources,
    bind_arguments,
    class_message,
    inline_constants,
    substitute,
)
from errdex.link.named import NamedSettings
from errdex.link.overrides import OverrideIndex
from errdex.link.passed import PassedArguments
from errdex.link.path_gates import PathGates
from errdex.link.public import PublicPaths
from errdex.link.reasons import ReasonsIndex
from errdex.link.receivers import ReceiverClasses
from errdex.link.requests import RequestIndex
from errdex.link.resolve import (
    BUILTIN_EXCEPTIONS,
    Namespace,
    ResolvedClass,
    constant_binding,
    python_twins,
)
from errdex.link.selection import SelectionIndex
from errdex.link.shown import ShownTexts, with_callers
from errdex.link.tables import MessageTables
from errdex.link.tests import TestIndex
from errdex.link.translated import Translations
from errdex.link.value_flow import AttributeSources
from errdex.linked_facts import (
    CallerLink,
    ExceptionInfo,
    IndexedSite,
    KnobLink,
    SelectionLink,
    SiteContext,
    with_context,
)
from errdex.sources.base import EntryPoint, Skipped

__all__ = ["LINKER_VERSION", "cross_file_helper_names", "link_sites", "link_version"]

# Stored versions linked by another version are indexed again: bump it when what linking
# produces changes.
LINKER_VERSION = "120-section-keys-of-json-objects"


def link_version(
    project: str,
    files: list[FileFacts],
    entry_points: tuple[EntryPoint, ...] = (),
    catalogs: Sequence[Catalog] = (),
    texts: Mapping[str, bytes] | None = None,
) -> list[IndexedSite]:
    """Resolve every site of one version and give it its stable error id; `entry_points`
    (the console scripts it installs) name the command line behind each setting; the
    gettext `catalogs` it ships, the translations its users may see its texts in; `texts`
    (path → source), the code read where the extraction kept no facts (`path_gates`)."""
    return list(link_sites(project, files, entry_points, catalogs, texts=texts))


# Linking shares its work out over forked workers (`link.forked`) from this many sites of
# a version: below, forking them and decoding what they send costs more than they save.
MIN_FORKED_SITES = 2_000
_SITES_BLOCK = 64  # sites per block of a worker, at least
# Linking processes on a machine of two cores or more, whatever runs beside them: a store's
# writer fed the sites is idle while it waits for them (vllm 0.33.0 on 2 cores: the link
# site by site 2.6 s of CPU, the writer 1.4 s meanwhile), and a second linking process
# fills that time (bench/extraction_check/COST38L.md).
MIN_WORKERS_BESIDE = 2


def link_sites(
    project: str,
    files: list[FileFacts],
    entry_points: tuple[EntryPoint, ...] = (),
    catalogs: Sequence[Catalog] = (),
    failed: list[Skipped] | None = None,
    texts: Mapping[str, bytes] | None = None,
    *,
    workers: int = 1,
    beside: int = 0,
) -> Generator[IndexedSite, None, None]:
    """`link_version`'s sites, each yielded once complete (the last half of the work is
    done site by site), so that a store can write them as they come.

    A file whose linking fails (a bug of errdex) is left out, and `failed` gets it with the
    reason; so is a site whose context fails, which comes without it.

    With `workers` above 1, the sites of a large version get their context (two thirds of
    the work) in that many processes: this one and workers forked from it (`link.forked`),
    the same sites in the same order. All the rest is done at the call, and the workers
    forked then (a store's writer may run by then, with a thread feeding it: the workers
    take no lock of its, see `link.forked`); a caller closes the generator to end them
    early. `beside` counts the busy processes that run meanwhile (a store's writer): the
    workers are forked onto the cores those leave free, since a worker sharing a core with
    them adds its own work (its caches, the copies of the pages it touches, its results
    encoded), but two processes link on two cores even beside a writer: the writer waits
    for sites about half the time (vllm 0.33.0: 1.4 of 2.6 s of CPU while they are made),
    and a worker fills that half (`MIN_WORKERS_BESIDE`).
    """
    files = python_twins(files)
    names = Namespace(files)
    parts = _Parts(files, names)
    caught = CaughtTexts(names, parts.shown)
    linked: list[IndexedSite] = []
    given: dict[tuple[str, int], list[IndexedSite]] = defaultdict(list)  # by the helper's raise
    for facts in files:
        if facts.error is not None:
            continue
        try:  # a file's sites are all made before any is kept: a failure keeps none
            made = list(_file_sites(project, facts, parts))
        except MemoryError:
            raise
        except Exception as error:  # a bug of errdex: the file is skipped, the rest goes on
            _failed(failed, facts.path, _reason(error))
            continue
        for indexed, raw, where in made:
            linked.append(indexed)
            caught.note(len(linked) - 1, raw, facts)
            if where is not None and indexed.site.message is not None:
                given[where].append(indexed)
    # The raise inside a helper shows what its callers give it (`ctx.fail(f"Got ...")`).
    linked = [
        with_callers(indexed, given.get((indexed.file, indexed.site.line), ()))
        for indexed in linked
    ]
    # `raise HTTPException(400, exc.message)`: the texts of the raises of what it caught.
    linked = caught.add(linked)
    translations = Translations(catalogs)
    linked = [translations.add(indexed) for indexed in linked]
    # Callers with their guards, knobs behind the conditions, tests expecting the error.
    context = _Context(files, names, parts.receivers, entry_points, texts)
    cores = forked.cores()
    workers = min(workers, max(cores - beside, min(cores, MIN_WORKERS_BESIDE)))
    if workers > 1 and len(linked) >= MIN_FORKED_SITES and forked.can_fork():
        sent: dict[tuple[str, str], int] = {}  # in each process: its own
        # The selections' index (a third of `_Context`, vllm 0.33.0: 0.3 s) is built by the
        # first worker alone, which gives every site's selections before its blocks: not
        # here, where the other core idles until the workers are forked
        # (bench/extraction_check/COST44L.md).
        context.selections_elsewhere = True
        contexts = forked.forked_map(
            lambda n: _sent(context.context(linked[n]), linked[n], n, sent),
            len(linked),
            SiteContext,
            workers=workers,
            block=_SITES_BLOCK,
            prelude=forked.Prelude(
                lambda n: context.selections_of(linked[n]) or None,
                tuple[SelectionLink, ...],
                _with_selections,
            ),
        )
        completed: forked.Results[IndexedSite | forked.Failed] = _received(linked, contexts)
    else:
        completed = (_added_or_failed(context, indexed) for indexed in linked)
    return _completed(linked, completed, failed)


def _sent(
    context: SiteContext, indexed: IndexedSite, number: int, sent: dict[tuple[str, str], int]
) -> SiteContext:
    """The context as sent back from the process that made it (`SiteContext`): the site
    None where it is the site's own, and the callers' tuple None where this process made
    it for an earlier site of the same function (`sent`: the first site of each function
    it made), which comes first in the results, so `_received` has it by then."""
    key = (indexed.module, indexed.site.function)
    links: tuple[CallerLink, ...] | None = context.caller_links
    if links:
        first = sent.get(key, number)
        if first < number:
            links = None
        else:
            sent[key] = number
    site = None if context.site is indexed.site else context.site
    if site is context.site and links is context.caller_links:
        return context
    return msgspec.structs.replace(context, site=site, caller_links=links)


def _received(
    linked: list[IndexedSite], contexts: forked.Results[SiteContext | forked.Failed]
) -> forked.Results[IndexedSite | forked.Failed]:
    """Each site with the context `_sent` sent back for it, in order."""
    shared: dict[tuple[str, str], tuple[CallerLink, ...]] = {}  # each function's callers
    try:
        for indexed, context in zip(linked, contexts, strict=True):
            if isinstance(context, forked.Failed):
                yield context
                continue
            key = (indexed.module, indexed.site.function)
            links = context.caller_links
            if links is None:
                links = shared[key]
            elif links:
                shared.setdefault(key, links)
            yield with_context(indexed, context, links)
    finally:
        contexts.close()


def _with_selections(context: SiteContext, selections: tuple[SelectionLink, ...]) -> SiteContext:
    return msgspec.structs.replace(context, selections=selections)


def _own_context(indexed: IndexedSite) -> SiteContext:
    """The context the site holds already (a site linking adds nothing to)."""
    return SiteContext(**{name: getattr(indexed, name) for name in SiteContext.__struct_fields__})


def _added_or_failed(context: _Context, indexed: IndexedSite) -> IndexedSite | forked.Failed:
    try:
        return context.add(indexed)
    except MemoryError:
        raise
    except Exception as error:  # a bug of errdex: the site goes without its context
        return _reason(error)


def _completed(
    linked: list[IndexedSite],
    completed: forked.Results[IndexedSite | forked.Failed],
    failed: list[Skipped] | None,
) -> Generator[IndexedSite, None, None]:
    """Each site with its context, or, where that failed, as it was.

    The sites of one function share one tuple of its callers, which a store keeps once
    (`store.function_parts`, by identity); a site decoded from a worker's results has a
    tuple of its own, and is given the function's first one."""
    shared: dict[tuple[str, str], tuple[CallerLink, ...]] = {}
    try:
        for indexed, complete in zip(linked, completed, strict=True):
            if isinstance(complete, forked.Failed):
                what = f"line {indexed.site.line} linked in part"
                _failed(failed, indexed.file, complete, what)
                complete = indexed
            links = complete.caller_links
            if links:
                first = shared.setdefault((complete.module, complete.site.function), links)
                if first is not links and first == links:
                    complete = msgspec.structs.replace(complete, caller_links=first)
            yield complete
    finally:
        completed.close()  # its workers end with it


def _reason(error: Exception) -> forked.Failed:
    show_traceback(error)
    return forked.Failed(error_line(error))


def _failed(failed: list[Skipped] | None, path: str, error: forked.Failed, what: str = "") -> None:
    """Note the file errdex failed to link (in part: `what`), once, with the error."""
    if error.traceback:  # from a worker, which prints nothing itself
        sys.stderr.write(error.traceback)
        sys.stderr.flush()
    reason = f"{INTERNAL} while linking{' (' + what + ')' if what else ''}: {error.reason}"
    if failed is not None and all(s.path != path for s in failed):
        failed.append(Skipped(path, reason))


class _Parts:
    """What linking a file's sites reads of the whole version."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self.names = names
        self.reasons = ReasonsIndex(files)
        self.receivers = ReceiverClasses(names)
        self.helpers = helpers_by_name(files, names, self.receivers)
        self.constants = _ConstantBindings(names)
        self.exceptions = _Exceptions(names)
        self.tables = MessageTables(files, names)
        self.factories = Factories(files, names)
        self.shown = ShownTexts(files, names)


def _file_sites(
    project: str, facts: FileFacts, parts: _Parts
) -> Iterator[tuple[IndexedSite, ErrorSite, tuple[str, int] | None]]:
    """Each site of one file, identified, with the site as extracted and, for a call of a
    raising helper, where that helper raises."""
    names, tables = parts.names, parts.tables
    sites = [
        made
        for site in facts.sites
        for made in parts.factories.raise_sites(tables.raise_site(site, facts), facts)
    ]
    calls = helper_sites(facts, parts.helpers, names, parts.receivers)
    reaches = {id(site): where for site, where in calls}
    sites.extend(site for site, _ in calls)
    sites.extend(tables.call_sites(facts, {site.line for site in facts.sites}))
    seen: dict[tuple[str | None, str, str], int] = defaultdict(int)
    for site in sites:
        raw = site
        exception, site = parts.exceptions.resolve(site, facts)
        if site.message is not None:
            entry = tables.entry_of(facts, site.class_name)
            site = msgspec.structs.replace(
                site, message=inline_constants(site.message, facts, names, entry)
            )
        if site.reasons is not None:
            site = msgspec.structs.replace(
                site,
                variants=parts.reasons.expand(
                    site.reasons, facts, site.class_name, site.conditions
                ),
                reasons=None,
            )
        site = msgspec.structs.replace(
            site, bindings=site.bindings + parts.constants.of(site, facts)
        )
        identity = exception.name if exception else site.exception or _kind_label(site)
        template = site.message.text if site.message is not None else None
        key = (identity, template or "", site.function)
        ordinal = seen[key]
        seen[key] += 1
        where = reaches.get(id(raw))
        shown = parts.shown.of(raw, site, facts, exception, tables.class_forms(raw, facts))
        indexed = IndexedSite(
            id=error_id(project, identity, template, facts.module, site.function, ordinal),
            file=facts.path,
            module=facts.module,
            site=site,
            exception=exception,
            shown=shown,
            reading=facts.readings.get(site.line),
            helper_raise=where,
        )
        yield indexed, raw, where


class _Context:
    """What other places say about a site: its callers, the knobs behind it, its tests."""

    def __init__(
        self,
        files: list[FileFacts],
        names: Namespace,
        receivers: ReceiverClasses,
        entry_points: tuple[EntryPoint, ...],
        texts: Mapping[str, bytes] | None = None,
    ) -> None:
        self.names = names
        self.public = PublicPaths(names.modules)
        self.callers = CallerIndex(files, names, self.public, receivers)
        self.commands = CommandIndex(files, self.callers, entry_points)
        self.knobs = KnobIndex(files, names)
        self.gates = PathGates(self.callers, self.knobs, names, texts)
        self.named = NamedSettings(files, self.knobs.flags)
        self.passed = PassedArguments(self.callers, self.knobs, AttributeSources(names))
        self._selection: SelectionIndex | None = None  # built at its first ask (`selection`)
        self._selection_inputs = (files, texts)
        # the sites' selections are made by another process (`link_sites`): `context`
        # leaves them out
        self.selections_elsewhere = False
        self.tests = TestIndex(files)
        # a config file of flags the version's parser reads (`--config` YAML), if any
        self.config_file = next(
            (item for f in files if f.error is None for item in sorted(f.config_flags.items())),
            None,
        )
        self.overrides = OverrideIndex(names)
        self.requests = RequestIndex(files, names, self.callers)
        self.by_path = {f.path: f for f in names.modules.values()}
        # The sites of one function share its callers, so the knobs behind their guards.
        self._caller_knobs: dict[tuple[str, str], list[KnobLink]] = {}
        self._publics: dict[tuple[str, str], str | None] = {}
        # the settings a message's text names, by the text: half of vllm's sites share one
        self._said: dict[str | None, tuple[tuple[KnobLink, ...], tuple[KnobLink, ...]]] = {}

    @property
    def selection(self) -> SelectionIndex:
        """The version's registries, lists and filters, built at the first ask: in only one
        process of those that link the sites (`link_sites`)."""
        if self._selection is None:
            files, texts = self._selection_inputs
            self._selection = SelectionIndex(files, self.names, self.knobs, texts)
        return self._selection

    def selections_of(self, indexed: IndexedSite) -> tuple[SelectionLink, ...]:
        """The registries, lists and filters that pick the code of the site, each with the
        command line that gives the setting."""
        site = indexed.site
        facts = self.names.modules.get(indexed.module)
        if facts is None:
            return indexed.selections
        checked_in = (indexed.module, site.function)
        return tuple(
            self._selection_command(s, checked_in)
            for s in self.selection.selections(
                facts,
                site.class_name,
                site.message.literal_text if site.message is not None else None,
                site.function,
            )
        )

    def add(self, indexed: IndexedSite) -> IndexedSite:
        """The site with its context."""
        return with_context(indexed, self.context(indexed))

    def context(self, indexed: IndexedSite) -> SiteContext:
        """What other places say of the site (its `site` the same object where they change
        nothing of it)."""
        site = indexed.site
        facts = self.names.modules.get(indexed.module)
        if facts is None:
            return _own_context(indexed)
        links = self.callers.callers(indexed.module, site.function)
        checked_in = (indexed.module, site.function)  # whose command line reaches the check
        knobs = self.knobs
        # a helper's site has no names of its own: they are read from its conditions
        names = site.names or None
        values = indexed.reading.init_values if indexed.reading is not None else None
        # `self.X` set to a comparison of a setting: kept only where a setting decides it
        site, found = own_tests.decided(site, facts, knobs, self.names)
        found.extend(
            knobs.knobs(
                facts,
                site.class_name,
                site.conditions,
                site.bindings,
                names,
                init_values=values,
                typed=facts.params.get(site.function),
            )
        )
        for variant in site.variants:
            where = self.by_path.get(variant.file or indexed.file, facts)
            owner_class = self._owner_class(where.module, variant.function)
            found.extend(knobs.knobs(where, owner_class, variant.conditions))
        # the settings of the site's own conditions: what a setting its message names may be
        own = {k.name for k in found}
        found.extend(self._knobs_of_callers(indexed.module, site.function, links))
        gates, gate_knobs = self.gates.gates(indexed.module, site.function)
        found.extend(gate_knobs)
        text = site.message.text if site.message is not None else None  # built per ask
        in_message, fields = self._named_in(text)
        if indexed.reading is not None and (
            indexed.reading.params or any(n.startswith("self.") for n in site.names)
        ):
            # a parameter no knob is behind yet, unless the message names the setting
            linked, said = {k.behind for k in found}, {k.name for k in in_message}
            passed = self.passed.of_site(indexed, facts, linked, said)
            found.extend(passed)
            own.update(k.name for k in passed)
        for named in in_message:
            # a setting a condition of the site already links is that knob; a field is its
            # own. A caller's guard on it (`if args.multi_port_lb: validate(args)`) is not:
            # the message's setting asks for more whichever caller reached the check.
            if named.name not in own or named.behind != named.name:
                found.append(named)
        known = {k.name for k in found}
        # a field the message names by its own name: the flag that sets it, where no
        # condition links that flag already (a linked knob says more than the name), and a
        # command line takes it (an arguments class no program parses is no setting)
        for field in fields:
            field = self._with_command(field, facts.path, checked_in)
            if field.name not in known and field.command:
                found.append(field)
        unique = {(k.name, k.behind): k for k in reversed(found)}
        env_names = {k.behind for k in found if k.kind == KnobKind.ENV}
        kept = site
        if env_names:  # a constant an environment knob stands behind is said by the knob
            bindings = tuple(
                b for b in site.bindings if not (b.origin == "constant" and b.name in env_names)
            )
            kept = msgspec.structs.replace(site, bindings=bindings)
        return SiteContext(
            site=kept,
            callers=self.callers.nearest(indexed.module, site.function),
            caller_links=links,
            flow_links=self._flow_links(indexed),
            class_hook=(
                self.callers.class_hook_link(indexed.module, site.function)
                if site.kind == SiteKind.RAISE
                else None
            ),
            calls=len(self.callers.passing_calls(indexed.module, site.function)),
            gates=gates,
            knobs=tuple(
                self._with_command(k, facts.path, checked_in) for k in reversed(unique.values())
            ),
            selections=() if self.selections_elsewhere else self.selections_of(indexed),
            tests=self.tests.tests_for(indexed) if self.tests else (),
            public=self._public(indexed.module, site.function),
            overrides=self.overrides.of(site, facts),
            kin=self.overrides.kin_elsewhere(site, facts),
            requests=self.requests.links(site, facts, _parameters(indexed), indexed.module),
        )

    def _flow_links(self, indexed: IndexedSite) -> tuple[CallerLink, ...]:
        """The calls further up a value the raise's check reads may come down by, for a
        function no public path reaches (a public one is the user's own call)."""
        site = indexed.site
        params = indexed.reading.params if indexed.reading is not None else ()
        if (
            site.kind != SiteKind.RAISE
            or not any(n in params for n in site.names)
            or any(c.kind == ConditionKind.EXCEPT for c in site.conditions)
            or self._public(indexed.module, site.function) is not None
        ):
            return ()
        return self.callers.flow_callers(indexed.module, site.function)

    def _named_in(self, text: str | None) -> tuple[tuple[KnobLink, ...], tuple[KnobLink, ...]]:
        """The settings the message's `text` names (`NamedSettings.named`), and the flags of
        the fields it names by their own names or says may cause it (`fields`, `caused`):
        once per text."""
        found = self._said.get(text)
        if found is None:
            named = self.named
            found = self._said[text] = (
                named.named(text),
                (*named.fields(text), *named.caused(text)),
            )
        return found

    def _public(self, module: str, function: str) -> str | None:
        """The site's public path, "" when it is the one it is defined at (see
        `IndexedSite.public`)."""
        key = (module, function)
        if key not in self._publics:  # the sites of a function share it
            found = self.public.of(module, function)
            self._publics[key] = "" if found == f"{module}.{function}" else found
        return self._publics[key]

    def _with_command(self, knob: KnobLink, path: str, site: tuple[str, str]) -> KnobLink:
        """The knob with the command line a user types to set it (for a flag the site's file
        `path` declares, the command of that declaration; for a check in a subcommand's own
        class, that subcommand's line), and the public path of the class that takes it as
        a keyword (`vllm.LLM`, not the module defining it)."""
        if knob.entry_keyword:
            command = None  # the keyword of `call` alone: no command line builds the object
        elif knob.kind == KnobKind.FLAG:
            # the site's file declaring a flag of that name: its own program's, whichever
            # declaration the knob was linked to (`--resume` of each sweep)
            command = self.commands.command(knob.name, within=path, site=site)
        else:
            command = self._command(knob.kind, knob.name, site)
        call = knob.call
        if call is not None:
            path, paren, first = call.partition("(")
            module, _, name = path.rpartition(".")
            call = (self.public.of(module, name) or path) + paren + first
        if command is None and call == knob.call:
            return knob
        # a command line of the version's own parser takes its config file too
        # (its keys are put after the line's first word: a nested subcommand's parser,
        # one word further, never sees them)
        nested = command is not None and self.commands.nested(command)
        config = self.config_file if command and knob.kind == KnobKind.FLAG and not nested else None
        return msgspec.structs.replace(
            knob, command=command or knob.command, call=call, config=config
        )

    def _selection_command(self, selection: SelectionLink, site: tuple[str, str]) -> SelectionLink:
        """The selection with the command line a user types to give the setting (a
        registry's name: also a flag added by a computed name, as its fix gives the name
        that reaches the check)."""
        if selection.how == "name" and selection.kind == KnobKind.FLAG:
            command = self.commands.computed_command(selection.setting, site)
        else:
            command = self._command(selection.kind, selection.setting, site)
        return msgspec.structs.replace(selection, command=command) if command else selection

    def _command(self, kind: KnobKind, name: str, site: tuple[str, str]) -> str | None:
        """The command that takes a flag; for a variable, the version's main command (the
        line of the subcommand whose own class `site`, the check's function, is in)."""
        if kind == KnobKind.FLAG:
            return self.commands.command(name, site=site)
        return self.commands.site_command(site)

    def _knobs_of_callers(
        self, module: str, function: str, links: tuple[CallerLink, ...]
    ) -> list[KnobLink]:
        """Knobs behind the branches the direct callers of `module.function` take."""
        key = (module, function)
        found = self._caller_knobs.get(key)
        if found is not None:
            return found
        found = []
        for link in links:
            caller_facts = self.names.modules.get(link.module)
            branch = [c for c in link.guard if c.kind is not ConditionKind.EARLY_EXIT]
            if caller_facts is None or link.depth > 1 or not branch:
                continue
            owner_class = self._owner_class(link.module, link.function)
            found.extend(self.knobs.caller_knobs(caller_facts, owner_class, branch, link.bindings))
        self._caller_knobs[key] = found
        return found

    def _owner_class(self, module: str, function: str) -> str | None:
        """The class a method (`Class.method`) belongs to, None for a plain function."""
        owner = function.rpartition(".")[0]
        return owner if f"{module}.{owner}" in self.names.classes else None


def _parameters(indexed: IndexedSite) -> tuple[str, ...]:
    """The names of the site function's parameters, as read at extraction."""
    return indexed.reading.params if indexed.reading is not None else ()


def _kind_label(site: ErrorSite) -> str:
    return f"{site.kind}:{site.level}" if site.level else str(site.kind)


# A codebase exception class's message template and the parameters it is built from.
_ClassMessage = tuple[MessageTemplate, tuple[str, ...]]


class _Exceptions:
    """The exception classes sites raise, resolved once per file and spelling."""

    def __init__(self, names: Namespace) -> None:
        self._names = names
        self._found: dict[tuple[str, str], tuple[ExceptionInfo, _ClassMessage | None]] = {}

    def resolve(self, site: ErrorSite, facts: FileFacts) -> tuple[ExceptionInfo | None, ErrorSite]:
        """The site's exception, and the site with the message its class builds."""
        written = site.exception
        if written is None:
            return None, site
        key = (facts.path, written)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = _exception_info(written, facts, self._names)
        info, built = found
        if built is not None and site.kind in (SiteKind.RAISE, SiteKind.HELPER):
            template, params = built
            bound = bind_arguments(params, site.args)
            if not site.args and site.message is not None:
                # Made by a factory (`self.parse_error(ParseError, f"Invalid key {key}")`):
                # the message it was given is what the class's message parameter gets.
                param = next((p for p in params if p in MESSAGE_KEYWORDS), None)
                bound = {param: site.message} if param is not None else {}
            # A class message naming none of its parameters (`"\n".join(lines)` in
            # `__str__`) says less than the raise's own message.
            says_more = (
                site.message is None
                or template.literal_length > 0
                or any(p.expr in params for p in template.placeholders)
            )
            # One reading the object's attributes (`f"{self.code} {self.name}: ..."` in
            # `__str__`) is composed with them per raise (`IndexedSite.shown`); the raise's
            # own message is the template.
            if site.message is not None and any(
                p.expr.startswith("self.") for p in template.placeholders
            ):
                says_more = False
            if (bound or not site.args) and says_more:
                sources = argument_sources(params, site.args)
                message = substitute(template, bound, sources)
                site = msgspec.structs.replace(site, message=message)
        return info, site


def _exception_info(
    written: str, facts: FileFacts, names: Namespace
) -> tuple[ExceptionInfo, _ClassMessage | None]:
    short = written.rsplit(".", 1)[-1]
    resolved = names.resolve_class(facts, written)
    built: _ClassMessage | None = None
    if resolved is None and "." in written and short[:1].islower():
        # `raise SchemaError.create_from(error)`: a method of the class (an alternative
        # constructor) makes the object raised, of that class; what it passes to
        # `__init__` is unknown here, so the class's own message is not composed.
        owner = names.resolve_class(facts, written.rsplit(".", 1)[0])
        if owner is not None and _has_method(owner, short, names):
            resolved = owner
    elif resolved is not None:
        built = class_message(resolved, names)
    if resolved is None:
        if written in BUILTIN_EXCEPTIONS:
            qualname = f"builtins.{written}"
        elif written.split(".")[0] in facts.imports:
            qualname = names.qualify(facts, written)
        else:
            qualname = written
        return ExceptionInfo(name=short, qualname=qualname), None
    info = ExceptionInfo(
        name=resolved.fact.name,
        qualname=resolved.qualname,
        bases=names.bases(resolved),
        docstring=resolved.fact.docstring,
        defined_in=resolved.file.path,
        line=resolved.fact.line,
    )
    return info, built


def _has_method(cls: ResolvedClass, name: str, names: Namespace) -> bool:
    """The class, or one of its bases in the codebase, defines a method `name`."""
    if name in cls.fact.methods:
        return True
    found = (names.classes.get(base) for base in names.bases(cls))
    return any(base is not None and name in base.fact.methods for base in found)


_UNKNOWN: Any = object()  # a name not resolved yet (None: resolved to no constant)


class _ConstantBindings:
    """The constants behind the names of sites, as bindings.

    The sites of one function name the same things: each name is resolved (and its value
    dumped) once per file.
    """

    def __init__(self, names: Namespace) -> None:
        self._names = names
        self._found: dict[tuple[str, str], Binding | None] = {}

    def of(self, site: ErrorSite, facts: FileFacts) -> tuple[Binding, ...]:
        if not site.names:
            return ()
        out: list[Binding] = []
        found, path = self._found, facts.path
        for dotted in site.names:
            binding = found.get((path, dotted), _UNKNOWN)
            if binding is _UNKNOWN:
                binding = found[(path, dotted)] = self._binding(facts, dotted)
            if binding is not None:
                out.append(binding)
        return tuple(out)

    def _binding(self, facts: FileFacts, dotted: str) -> Binding | None:
        if dotted.split(".")[0] in OWN_OBJECT:
            return None
        found = self._names.resolve_constant(facts, dotted)
        return None if found is None else constant_binding(facts, dotted, *found)
