"""Extraction: one file's bytes in, its facts out. Pure, so results cache by content hash."""

from __future__ import annotations

import ast
import codecs
import io
import sys
import tokenize
import warnings
from collections.abc import Callable, Collection

from errdex.extract import parsed_ahead
from errdex.extract.again import spliced
from errdex.extract.blanked_calls import blanked_calls
from errdex.extract.blanked_imports import blanked_imports
from errdex.extract.budget import over_budget
from errdex.extract.calls import CallFilter
from errdex.extract.commands import scan_commands
from errdex.extract.config_files import config_file_flags
from errdex.extract.docs import attribute_docs
from errdex.extract.environment import optional_imports, platform_tests, value_accessors
from errdex.extract.exception_classes import class_texts
from errdex.extract.group_sizes import global_sets, group_accessors, name_calls
from errdex.extract.handed import handed_functions
from errdex.extract.keyed_tables import literal_aliases, module_tables
from errdex.extract.knobs import (
    attribute_settings,
    env_annotations,
    env_getters,
    scan_settings,
)
from errdex.extract.module import (
    collect_constants,
    collect_imports,
    import_twins,
    module_name,
    resolve_local_imports,
    top_starts,
)
from errdex.extract.reading import Wanted, read_lines
from errdex.extract.registries import (
    choice_lists,
    enum_registries,
    member_picks,
    name_filters,
)
from errdex.extract.request_models import request_carries, request_fields, route_bodies
from errdex.extract.skeleton import (
    MIN_SKELETON_BYTES,
    Skeleton,
    Skeletons,
    build_skeleton,
    has_message_call,
    hidden_text,
    package_of,
)
from errdex.extract.source_text import source_lines
from errdex.extract.value_reads import bound_values
from errdex.extract.walker import Walker
from errdex.facts import CallSite, FileFacts
from errdex.reading_facts import SourceRead

# Cached facts made by another version are dropped: bump it when what extraction produces
# changes.
EXTRACTOR_VERSION = "120-tails-from-the-last-site"

__all__ = [
    "EXTRACTOR_VERSION",
    "decode_source",
    "extract_again",
    "extract_file",
    "extract_first_hidden",
]


def decode_source(data: bytes) -> str:
    """Decode Python source honouring its coding cookie; raise ValueError when it is not text."""
    if b"\x00" in data[:8192]:
        raise ValueError("binary file (NUL bytes)")
    text = _plain_utf8(data)
    if text is None:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            text = data.decode(encoding)
        except (SyntaxError, LookupError, UnicodeDecodeError) as error:
            raise ValueError(f"undecodable source ({error})") from error
    # one pass to find no `\r` in most files, not two to replace none
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _plain_utf8(data: bytes) -> str | None:
    """The text of source that `tokenize.detect_encoding` would read as UTF-8 (no BOM, no
    `coding` in its first two lines, where a cookie must be) and that decodes as such; None
    for any other, which the tokenizer's rules decide (and whose errors they word)."""
    if data.startswith(codecs.BOM_UTF8):
        return None
    first = data.find(b"\n")
    second = data.find(b"\n", first + 1) if first != -1 else -1
    if b"coding" in (data if second == -1 else data[:second]):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _parse(text: str, path: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes in indexed code
        return ast.parse(text, filename=path, type_comments=False)


def extract_file(path: str, data: bytes, keep_calls: Collection[str] = ()) -> FileFacts:
    """Every site, class, helper, constant and import of one file; never raises on bad code.

    `keep_calls` names raising helpers of other files: the bodies that call them are parsed
    even when they hold no site word, so those calls are recorded (see `extract_again`).
    """
    return _extract_file(path, data, keep_calls)[0]


def extract_first_hidden(path: str, data: bytes) -> tuple[FileFacts, bool, str]:
    """`extract_file(path, data)`; whether its facts were made from the text that
    `build_skeleton` gives (the skeleton parsed, or there is none), so that `extract_again`
    may take them as its `first`; and the text its skeleton blanked (`hidden_text`):
    `extract_again` finds more than this extraction only for a helper called there."""
    return _extract_file(path, data, ())


def _extract_file(
    path: str, data: bytes, keep_calls: Collection[str]
) -> tuple[FileFacts, bool, str]:
    try:
        text = decode_source(data)
    except ValueError as error:
        return FileFacts(path=path, module=module_name(path)[0], error=str(error)), False, ""
    refusal = over_budget(text)
    if refusal is not None:
        return FileFacts(path=path, module=module_name(path)[0], error=refusal), False, ""
    ahead = None if keep_calls else parsed_ahead.take(text)
    if ahead is not None:
        return _extract_text(path, text, ahead[1], ahead[0]), False, text
    fell_back: list[bool] = []
    skeleton = build_skeleton(text, keep_calls, package_of(path))
    facts = _extract_text(path, text, skeleton, fell_back=fell_back)
    return facts, not fell_back, hidden_text(text, skeleton)


def extract_again(
    path: str,
    data: bytes,
    keep_calls: Collection[str],
    first: Callable[[], FileFacts] | None = None,
) -> FileFacts | None:
    """`extract_file(path, data, keep_calls)`, or None when that finds what `extract_file`
    without them found: no body the skeleton blanks calls one of `keep_calls`.

    `first` gives what `extract_file(path, data)` gave, when `extract_first_hidden` said it was
    made from the skeleton's text (asked only for a file that changes): the statements the
    kept calls leave alone keep their facts, and only the others are parsed and walked again
    (`again.spliced`).
    """
    try:
        text = decode_source(data)
    except ValueError:
        return None
    if over_budget(text) is not None:
        return None  # its first extraction said why it is skipped
    if not has_message_call(text, keep_calls):
        return None  # the cheap answer for most files, which name a helper only elsewhere
    if len(text) < MIN_SKELETON_BYTES:
        return None  # parsed whole either way
    skeletons = Skeletons(
        text, package_of(path)
    )  # the scans both skeletons are planned from, made once
    reduced = skeletons.build(keep_calls)
    if reduced is not None and not reduced.kept_for_calls:
        return None  # every call of theirs is in a body parsed anyway
    first_skeleton = skeletons.build()
    if first_skeleton is None:
        return None  # parsed whole either way (a small file, or little to blank)
    if first is not None:
        facts = spliced(path, text, first_skeleton, reduced, first())
        if facts is not None:
            return facts
    return _extract_text(path, text, reduced)


def _extract_text(
    path: str,
    text: str,
    reduced: Skeleton | None,
    tree: ast.Module | None = None,
    fell_back: list[bool] | None = None,
) -> FileFacts:
    """The facts of one file's text, parsing `reduced` (its skeleton) when it parses; `tree`:
    that parse, made already. `fell_back` gets True when the skeleton did not parse."""
    module, is_package = module_name(path)
    try:
        if tree is None:
            tree, parsed = _parse_fast(text, reduced, path)
            if parsed is not reduced and fell_back is not None:
                fell_back.append(True)
            reduced = parsed
    except SyntaxError as error:
        where = f"line {error.lineno}: " if error.lineno else ""
        newer = (
            f" (syntax newer than Python {sys.version_info.major}.{sys.version_info.minor}?)"
            if _maybe_newer_syntax(error)
            else ""
        )
        return FileFacts(path=path, module=module, error=f"syntax error, {where}{error.msg}{newer}")
    except (RecursionError, MemoryError, ValueError) as error:
        return FileFacts(path=path, module=module, error=f"cannot parse: {type(error).__name__}")
    constants = collect_constants(tree, text)
    imports, star_imports = collect_imports(tree, module, is_package)
    walker = Walker(text, constants, imports)
    try:
        walker.run(tree)
    except RecursionError:
        return FileFacts(path=path, module=module, error="too deeply nested to analyse")
    env_reads, flags = scan_settings(text)
    lines = source_lines(text)  # for the comments above names, split once for the walker
    if env_reads:
        env_reads.extend(env_getters(tree, text, lines))
    definitions, calls = walker.definitions, walker.calls
    subcommands, positionals, flags, computed_flags = scan_commands(
        text, definitions.functions_at, definitions.classes, flags
    )
    if reduced is not None:
        # the imports of the bodies the walker did not parse: their calls are read as text
        for statement in blanked_imports(text, reduced.blanked, reduced.trimmed, reduced.strings):
            calls.imported_in_function(statement)
    local_imports = resolve_local_imports(calls.local_imports, module, is_package, imports)
    call_sites = _call_sites(walker, text, reduced, imports, local_imports)
    class_tables, name_tables = module_tables(text)
    return FileFacts(
        path=path,
        module=module,
        sites=tuple(walker.sites.sites),
        classes=tuple(definitions.classes),
        helpers=tuple(definitions.helpers),
        keyed=tuple(definitions.keyed),
        calls=tuple(calls.calls),
        reason_builders=definitions.reason_builders,
        returned_texts={k: tuple(v) for k, v in definitions.returned_texts.items()},
        factories=walker.factories.factories(),
        constants=constants,
        constant_docs=attribute_docs(tree.body, lines, constants) if constants else {},
        config_flags=config_file_flags(text),
        imports=imports,
        star_imports=star_imports,
        local_imports=local_imports,
        defs=tuple(definitions.defs),
        returns=definitions.returns,
        params=definitions.params,
        validators=definitions.validators,
        call_sites=call_sites,
        callbacks=_callbacks(walker, imports, local_imports),
        properties=tuple(definitions.properties),
        env_reads=tuple(env_reads),
        env_types=env_annotations(tree, {r.binds or r.name for r in env_reads})
        if env_reads
        else {},
        flags=tuple(flags),
        positionals=tuple(positionals),
        subcommands=tuple(subcommands),
        computed_flags=tuple(computed_flags),
        attr_sets=tuple(attribute_settings(text)),
        tests=tuple(calls.tests),
        texts=class_texts(tree, text, constants, walker.sites.sites),
        optional_imports=optional_imports(tree),
        import_twins=import_twins(tree, module, is_package, imports),
        platform_tests=platform_tests(text),
        value_accessors=value_accessors(text),
        readings=_readings(walker, tree, text, reduced),
        enums=enum_registries(text),
        literals=literal_aliases(text),
        class_tables=class_tables,
        name_tables=name_tables,
        choices=tuple(choice_lists(text)),
        member_picks=member_picks(text),
        group_accessors=group_accessors(text),
        global_sets=global_sets(text),
        name_calls=name_calls(text, imports.keys() | local_imports.keys(), set(definitions.defs)),
        handed=handed_functions(
            text,
            definitions.functions_at,
            {*definitions.defs, *imports, *local_imports},
        ),
        name_filters=tuple(name_filters(text)),
        routes=tuple(route_bodies(text)),
        request_fields=tuple(request_fields(text)),
        request_carries=tuple(request_carries(text)),
        outline=top_starts(tree),
        value_reads=bound_values(
            walker.state.value_reads, walker.sites.sites, walker.calls.calls, call_sites
        ),
    )


def _readings(
    walker: Walker, tree: ast.Module, text: str, reduced: Skeleton | None
) -> dict[int, SourceRead]:
    """What the source says around each site, and each call that may become one when
    linked (a call of a raising helper)."""
    wanted: dict[int, Wanted] = {}
    for site in walker.sites.sites:
        want = wanted.get(site.line) or wanted.setdefault(site.line, Wanted())
        want.add(site.line, site.conditions, site.bindings)
    for call in walker.calls.calls:
        want = wanted.get(call.line) or wanted.setdefault(call.line, Wanted())
        want.add(call.line, call.conditions, every_word=True)
    try:
        blanked = reduced.blanked if reduced is not None else ()
        return read_lines(tree, text, wanted, blanked, walker.holders)
    except RecursionError:
        return {}  # too deeply nested to unparse: the pages go without it


def _callbacks(
    walker: Walker, imports: dict[str, str], local: dict[str, str]
) -> tuple[CallSite, ...]:
    """The bound methods the walked functions hand calls (`FileFacts.callbacks`) that may
    be of the codebase's own, as `_call_sites` keeps calls."""
    if not walker.calls.callbacks:
        return ()
    keep = _keep(walker, imports, local)
    return tuple(c for c in walker.calls.callbacks if keep(c))


def _keep(walker: Walker, imports: dict[str, str], local: dict[str, str]) -> CallFilter:
    definitions = walker.definitions
    classes = {c.qualname for c in definitions.classes}
    methods = {m for c in definitions.classes for m in c.methods}
    return CallFilter(set(definitions.defs), classes, methods, imports, local)


def _call_sites(
    walker: Walker,
    text: str,
    reduced: Skeleton | None,
    imports: dict[str, str],
    local: dict[str, str],
) -> tuple[CallSite, ...]:
    """The calls that may reach the codebase's own functions: those the walker noted, and
    those read from the text of the bodies the skeleton blanked."""
    definitions = walker.definitions
    # a name a function imports itself reaches the codebase as a module's import does
    # (`SymmMemCommunicator(...)` after `from .symm_mem import SymmMemCommunicator`)
    keep = _keep(walker, imports, local)
    found = walker.calls.call_sites(keep)
    if reduced is None:
        return found
    blanked = blanked_calls(
        text,
        reduced.blanked,
        reduced.trimmed,
        definitions.functions_at,
        definitions.guard_after,
        reduced.strings,
        keep,
        definitions.param_types,
    )
    return found + tuple(blanked)


def _parse_fast(
    text: str, reduced: Skeleton | None, path: str
) -> tuple[ast.Module, Skeleton | None]:
    """Parse the skeleton (site-free bodies blanked) when there is one, else the whole text;
    with the skeleton that was parsed, or None."""
    if reduced is not None:
        try:
            return _parse(reduced.text, path), reduced
        except SyntaxError:
            pass  # the line scan was fooled: the whole text decides
    return _parse(text, path), None


def _maybe_newer_syntax(error: SyntaxError) -> bool:
    line = (error.text or "").strip()
    return (
        (line.startswith(("type ", "def ", "class ")) and "[" in line)
        or 'f"' in line
        or "f'" in line
    )
