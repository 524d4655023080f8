"""A package's gettext catalogs read as data: each message id with its translations.

A package that passes its messages through gettext (`_("...")`, `self.gettext(...)`,
`ngettext(...)`) and ships catalogs shows its users the translated text: these are read
from the `.po` files (or the compiled `.mo` where no `.po` is shipped), never by loading
the package. Hostile bytes give an empty catalog, never an exception.
"""

from __future__ import annotations

import ast
import struct
from pathlib import PurePosixPath

import msgspec

from errdex.lazy_re import lazy_compile

__all__ = ["Catalog", "CatalogEntry", "catalog_language", "parse_catalog"]

# Bounds on one catalog: entries read, characters of one text.
_MAX_ENTRIES = 20_000
_MAX_TEXT = 2_000


# A language code as locales name them: `de`, `pt_BR`, `zh_Hant_TW`, `sr@latin`.
_LANGUAGE = lazy_compile(r"[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8}){0,2}(?:@\w{1,20})?")


class CatalogEntry(msgspec.Struct, frozen=True):
    """One message of a catalog: its ids (singular, plural) and its translations."""

    msgids: tuple[str, ...]
    msgstrs: tuple[str, ...]


class Catalog(msgspec.Struct, frozen=True):
    """The translations of one language in one file."""

    language: str
    entries: tuple[CatalogEntry, ...]


def catalog_language(path: str) -> str | None:
    """The language a catalog's path names: `<lang>/LC_MESSAGES/<domain>.po`, else a file
    named for its language (`de.po`, `pt_BR.mo`)."""
    parts = PurePosixPath(path).parts
    if len(parts) >= 3 and parts[-2] == "LC_MESSAGES":
        return parts[-3]
    stem = PurePosixPath(path).stem
    return stem if _LANGUAGE.fullmatch(stem) else None


def parse_catalog(path: str, data: bytes) -> Catalog | None:
    """The catalog in a `.po` or `.mo` file's bytes; None when it is neither or no
    language can be told."""
    language = catalog_language(path)
    if language is None:
        return None
    if path.endswith(".mo"):
        entries = _mo_entries(data)
    elif path.endswith(".po"):
        entries = _po_entries(data.decode("utf-8", "replace"))
    else:
        return None
    # An empty translation is none: gettext shows the message id.
    kept = [CatalogEntry(e.msgids, tuple(t for t in e.msgstrs if t)) for e in entries]
    return Catalog(language, tuple(e for e in kept if any(e.msgids) and e.msgstrs))


def _mo_entries(data: bytes) -> list[CatalogEntry]:
    """The entries of a compiled catalog (GNU `.mo`: a header, then two tables of
    (length, offset) pairs, ids and translations, NUL-separated plural forms)."""
    if len(data) < 28:
        return []
    for order in ("<", ">"):
        magic, _, count, ids_at, strs_at = struct.unpack_from(f"{order}5I", data)
        if magic == 0x950412DE:
            break
    else:
        return []
    entries: list[CatalogEntry] = []
    for index in range(min(count, _MAX_ENTRIES)):
        try:
            id_len, id_off = struct.unpack_from(f"{order}2I", data, ids_at + 8 * index)
            str_len, str_off = struct.unpack_from(f"{order}2I", data, strs_at + 8 * index)
        except struct.error:
            break
        if id_off + id_len > len(data) or str_off + str_len > len(data):
            break
        msgid = data[id_off : id_off + id_len].decode("utf-8", "replace")
        msgstr = data[str_off : str_off + str_len].decode("utf-8", "replace")
        if not msgid or "\x04" in msgid:  # the header; a context-bound message
            continue
        entries.append(
            CatalogEntry(
                tuple(t[:_MAX_TEXT] for t in msgid.split("\x00")),
                tuple(t[:_MAX_TEXT] for t in msgstr.split("\x00")),
            )
        )
    return entries


def _po_entries(text: str) -> list[CatalogEntry]:
    """The entries of a `.po` file: `msgid`, `msgid_plural`, `msgstr`, `msgstr[n]`, each
    followed by continued strings; fuzzy and obsolete entries are no translation."""
    entries: list[CatalogEntry] = []
    fields: dict[str, list[str]] = {}
    current: list[str] | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal fuzzy
        ids = [fields.get(k) for k in ("msgid", "msgid_plural")]
        strs = [v for k, v in sorted(fields.items(), key=_form_order) if k.startswith("msgstr")]
        if ids[0] and strs and not fuzzy and "msgctxt" not in fields:
            entries.append(
                CatalogEntry(
                    tuple("".join(p)[:_MAX_TEXT] for p in ids if p is not None),
                    tuple("".join(p)[:_MAX_TEXT] for p in strs),
                )
            )
        fields.clear()
        fuzzy = False

    for raw in text.splitlines():
        line = raw.strip()
        if len(entries) >= _MAX_ENTRIES:
            break
        translated = any(k.startswith("msgstr") for k in fields)
        if not line or line.startswith("#"):
            if translated:
                flush()  # the comments before an entry's `msgid` are its own
            current = None
            fuzzy = fuzzy or (line.startswith("#,") and "fuzzy" in line)
            continue
        if line.startswith('"'):
            if current is not None:
                current.append(_unquote(line))
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgid", "msgctxt") and translated:
            flush()
        current = fields.setdefault(keyword, [])
        current.append(_unquote(rest.strip()))
    flush()
    return entries


def _form_order(field: tuple[str, list[str]]) -> tuple[str, int]:
    """`msgstr[10]` after `msgstr[2]`: plural forms in their number's order, not the text's."""
    keyword, _, index = field[0].partition("[")
    return keyword, int(index.rstrip("]")) if index.rstrip("]").isdigit() else -1


def _unquote(text: str) -> str:
    """A `.po` string literal's text (C escapes, as Python's own)."""
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        return ""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text[1:-1]
    return value if isinstance(value, str) else ""
