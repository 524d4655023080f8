"""Between records and rows: site coding, search text, FTS5 queries, "view" links."""

from __future__ import annotations

import functools
import hashlib
import itertools
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from errdex.errors import StoreError
from errdex.facts import SiteKind
from errdex.lazy_re import lazy_compile
from errdex.linked_facts import NAMED_IN_MESSAGE, IndexedSite
from errdex.settable import settable_key, settable_text
from errdex.sources.base import EntryPoint, Pin, VersionInfo
from errdex.store.base import Neighbour, StoredSite, VersionStats
from errdex.store.contents import pack_names
from errdex.store.function_parts import joined
from errdex.store.written import SiteRow

ENCODER = msgspec.msgpack.Encoder()
DECODER = msgspec.msgpack.Decoder(IndexedSite)
_STATS = msgspec.json.Decoder(VersionStats)

# Bounds on what one search may ask of the index.
MAX_TERMS = 64
MAX_TERM_CHARS = 200

# Words a framework prints around a message (`Error: `, `WARNING:`, `[Errno 2]`): a form
# that adds only these is found by the message's own words.
_FRAME_WORDS = frozenset(
    "error warning critical info debug errno invalid value for argument usage".split()
)
_LINK_FIELD = lazy_compile(r"\{(path|line|end_line|revision)\}")
_WORD = lazy_compile(r"\w+")


def _latin_fold() -> dict[int, str]:
    """Latin letters with diacritics → their base letter (`é` → `e`, `ǖ` → `u`; not `ø`)."""
    table = {}
    for code in itertools.chain(range(0xC0, 0x250), range(0x1E00, 0x1F00)):
        parts = unicodedata.normalize("NFD", chr(code))
        if len(parts) > 1 and all(unicodedata.category(mark) == "Mn" for mark in parts[1:]):
            table[code] = parts[0]
    return table


_LATIN_FOLD = _latin_fold()


def now() -> str:
    """The time of a write, as stored: ISO 8601, UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def version_columns(
    info: VersionInfo,
) -> tuple[str, str, str | None, str, str, str | None, str, str, bytes | None, str | None]:
    """A version's columns after its project: label, revision, date, source kind, source,
    link template, when it is indexed (now), its console scripts as JSON, the names it
    defines (packed), and its pin as JSON."""
    return (
        info.version,
        info.revision,
        info.date,
        info.source_kind,
        info.source,
        info.link_template,
        now(),
        msgspec.json.encode([[e.group, e.name, e.target] for e in info.entry_points]).decode(),
        pack_names(info.names) if info.names else None,
        msgspec.json.encode(info.pin).decode() if info.pin is not None else None,
    )


def decode_pin(raw: str | None) -> Pin | None:
    """The pin column read back (NULL, or unreadable: None)."""
    try:
        return msgspec.json.decode(raw, type=Pin) if raw else None
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None


def decode_scripts(raw: str | None) -> tuple[EntryPoint, ...]:
    """The console scripts column read back (a database written before it holds `[]`)."""
    try:
        rows = msgspec.json.decode(raw or "[]", type=list[tuple[str, str, str]])
    except (msgspec.ValidationError, msgspec.DecodeError):
        return ()
    return tuple(EntryPoint(group=g, name=n, target=t) for g, n, t in rows)


def exception_name(site: SiteRow) -> str | None:
    """The exception as resolved by the linker, else as written at the site."""
    if site.exception is not None:
        return site.exception.qualname
    return site.site.exception


def error_columns(site: SiteRow) -> tuple[str, str | None, str | None, str, str]:
    """An error identity's columns after its id and project: kind, exception, template,
    module, function."""
    error = site.site
    template = error.message.text if error.message is not None else None
    return error.kind.value, exception_name(site), template, site.module, error.function


def site_columns(
    site: SiteRow, data: bytes | None = None
) -> tuple[str, int, int, str, str, str | None, str | None, bytes]:
    """A site's own columns: file, line, end_line, function, kind, exception, message, data
    (the msgpack-encoded site: `data` when the caller has it already, as it always has for a
    site decoded in part, `written.WrittenSite`)."""
    error = site.site
    message = error.message.text if error.message is not None else None
    return (
        site.file,
        error.line,
        error.end_line,
        error.function,
        error.kind.value,
        exception_name(site),
        message,
        ENCODER.encode(site) if data is None else data,
    )


def search_fields(site: SiteRow) -> tuple[str, str, str]:
    """What full-text search indexes: message literals, the literals of reasons and of the
    texts a user sees (those with words of their own), exception names."""
    message = site.site.message.literal_text if site.site.message else ""
    texts = [v.reason.literal_text for v in site.site.variants]
    # each text's tokens made once: a large version's writer spends a tenth of its time here
    message_tokens = term_tokens(message)
    shown_tokens = [term_tokens(form.text.literal_text) for form in site.shown]
    known = set(message_tokens)
    # A framework's own words (`Error: Invalid value for ...`) add nothing to a message
    # with words of its own; for one made of values only they are all a paste can find.
    known |= _FRAME_WORDS if known else set()
    for form, tokens in zip(site.shown, shown_tokens, strict=True):
        if not known.issuperset(tokens):
            texts.append(form.text.literal_text)
            known.update(tokens)
    reasons = "\n".join(texts)
    names = [site.site.exception, site.exception.name if site.exception else None]
    keys = [
        key_word(message_tokens),
        *(key_word(term_tokens(v.reason.literal_text)) for v in site.site.variants),
        *(key_word(tokens) for tokens in shown_tokens),
    ]
    if names[0] and settable_text(site.site) is not None:
        keys.append(settable_key(names[0]))  # its text may be one a user set
    exception = " ".join(dict.fromkeys(name for name in [*names, *keys] if name))
    return message, reasons, exception


# Marks a text's key word (`key_word`) among the exception names, where no pasted word or
# class name can be it: a word of the paste finds the texts it is the key of.
KEY_MARK = "errdexkey_"


def key_word(tokens: Sequence[str]) -> str | None:
    """The key of a text of these tokens: its longest word (rarer than short ones), marked.

    A paste that holds every written word of a text holds its key, however many words its
    values add: the texts keyed by the paste's words are all it can show in full
    (`Missing {param_type}{hint}.` for `Missing argument 'name'.`)."""
    words = [t for t in tokens if len(t) > 2 and not t.isdigit()]
    if not words:
        return None
    return KEY_MARK + min(words, key=lambda t: (-len(t), t))


def text_key(text: tuple[str, str, str]) -> str:
    """The key of a search text: versions whose site has the same text share its row."""
    return hashlib.blake2b("\x1f".join(text).encode("utf-8"), digest_size=12).hexdigest()


def referenced_files(site: SiteRow) -> Iterable[str]:
    """Files a page about the site may quote: its own, its variants', its exception's."""
    yield site.file
    for variant in site.site.variants:
        if variant.file:
            yield variant.file
    for binding in site.site.bindings:
        if binding.file:
            yield binding.file
    if site.exception is not None and site.exception.defined_in:
        yield site.exception.defined_in
    for knob in site.knobs:
        if knob.via == NAMED_IN_MESSAGE and knob.file:
            yield knob.file  # the class of a field the message names: its declared type


def search_phrases(terms: Sequence[str]) -> list[str]:
    """The terms as a search may take them: distinct, at most `MAX_TERMS`, each cut to
    `MAX_TERM_CHARS`, without NUL or unencodable characters; terms without a letter, digit
    or `_` (which would be empty phrases) are dropped."""
    phrases: list[str] = []
    for term in terms:
        clean = term.replace("\x00", " ")[:MAX_TERM_CHARS]
        clean = clean.encode("utf-8", "replace").decode("utf-8")
        if not any(ch.isalnum() or ch == "_" for ch in clean):
            continue
        if clean not in phrases:
            phrases.append(clean)
        if len(phrases) == MAX_TERMS:
            break
    return phrases


def match_expression(terms: Sequence[str], *, every: bool = False) -> str | None:
    """An FTS5 query where each term is a quoted phrase and any (or, with `every`, each)
    must match; None if empty.

    Quoting makes every character literal (`"` is doubled), so operators (`NEAR`, `OR`,
    `*`, `^`, parentheses, column filters) in user text are just words.
    """
    phrases = ['"' + phrase.replace('"', '""') + '"' for phrase in search_phrases(terms)]
    return (" AND " if every else " OR ").join(phrases) or None


def term_tokens(term: str) -> list[str]:
    """The index tokens of a text, as FTS5's `unicode61 remove_diacritics 2` with `_` as a
    token character makes them: lower-cased runs of word characters, Latin accents folded."""
    return _WORD.findall(term.lower().translate(_LATIN_FOLD))


_FEW_TEXTS = 60  # a store holding no more texts than this is scored whole at no cost


def informative_terms(
    terms: Sequence[str], doc_counts: Mapping[str, int], total: int, keep: int = 8
) -> list[str]:
    """Leave out terms that half or more of all texts contain, unless every term does.

    bm25 gives such a term an inverse document frequency of zero (floored to 1e-6), so it
    cannot change the ranking; it only makes the search score every text that has it.
    A term counts as common when each of its tokens is (a token missing from
    `doc_counts` is rare).
    """

    def common(term: str) -> bool:
        tokens = term_tokens(term)
        return bool(tokens) and all(2 * doc_counts.get(t, 0) >= total for t in tokens)

    def frequency(term: str) -> int:
        return min((doc_counts.get(t, 0) for t in term_tokens(term)), default=0)

    kept = [term for term in terms if not common(term)] or list(terms)
    # Terms no text has cannot find anything; the rarest of the rest find the most telling
    # texts and keep the work of scoring small. In a store of a few texts (a first answer's
    # few files) the one text holding the message is half of them: its terms are common
    # there, yet the only ones that can find it, and scoring every text costs nothing.
    present = [term for term in kept if frequency(term) > 0]
    if not present and total <= _FEW_TEXTS:
        present = [term for term in terms if frequency(term) > 0]
    present = present or kept
    return sorted(present, key=frequency)[:keep]


def link_url(
    template: str | None, path: str, line: int, end_line: int, revision: str
) -> str | None:
    """Fill a link template's `{path}`, `{line}`, `{end_line}` and `{revision}` fields.

    Plain substitution, not `str.format`: a template is data and may hold other braces.
    """
    if not template:
        return None
    values = {"path": path, "line": str(line), "end_line": str(end_line), "revision": revision}
    return _LINK_FIELD.sub(lambda m: values[m.group(1)], template)


def stored_site(row: tuple[Any, ...]) -> StoredSite:
    """A site read back: (data, project, label, revision, version id, link template, date,
    indexed at, its function's part or None) (`sqlbase.SITE_COLUMNS`).

    One lookup reads the same rows several times (full-text hits, the class's raises, the
    frames' files, each error's releases), and the next lookups read many of them again:
    rows already decoded are taken from a cache keyed by their content, so they are the
    same record, decoded once."""
    key = (*row[:6], row[8])
    if not isinstance(key[0], bytes):  # (a PostgreSQL driver's memoryview: not hashable)
        return _decoded(*key)
    return _cached(*key)


def _decoded(
    data: bytes,
    project: str,
    label: str,
    revision: str,
    version_id: int,
    link: str | None,
    parts: bytes | None,
) -> StoredSite:
    try:
        site = DECODER.decode(data)
        fields = joined(msgspec.structs.asdict(site), parts)
    except msgspec.MsgspecError as error:
        raise StoreError(
            f"a stored site of {project} {label} does not fit this errdex ({error});"
            " index that version again"
        ) from error
    return StoredSite(
        **fields,
        project=project,
        version=label,
        revision=revision,
        version_id=version_id,
        url=link_url(link, site.file, site.site.line, site.site.end_line, revision),
    )


# Rows decoded lately: a lookup reads a few hundred, and a page's lookups share many.
_cached = functools.lru_cache(maxsize=4096)(_decoded)


class _BriefSite(msgspec.Struct, frozen=True, gc=False):
    kind: SiteKind
    exception: str | None
    names: tuple[str, ...] = ()


class _BriefException(msgspec.Struct, frozen=True, gc=False):
    name: str


class _Brief(msgspec.Struct, frozen=True, gc=False):
    """The few fields of a stored site that a `Neighbour` needs: decoding skips the rest."""

    id: str
    site: _BriefSite
    exception: _BriefException | None = None


_BRIEF = msgspec.msgpack.Decoder(_Brief)


def neighbour(row: tuple[Any, ...]) -> Neighbour:
    """A site read back as a neighbour: (data, line, function, message)."""
    data, line, function, message = row
    try:
        brief = _BRIEF.decode(data)
    except msgspec.MsgspecError as error:
        raise StoreError(f"a stored site does not fit this errdex ({error})") from error
    site = brief.site
    return Neighbour(
        id=brief.id,
        line=line,
        function=function,
        kind=site.kind,
        exception=brief.exception.name if brief.exception else site.exception,
        message=message,
        names=site.names,
    )


def decode_stats(text: str) -> VersionStats:
    """A version's stats as stored in JSON."""
    try:
        return _STATS.decode(text)
    except msgspec.MsgspecError as error:
        raise StoreError(f"unreadable version stats: {error}") from error
