"""A package's gettext catalogs read as data (`.po` text, compiled `.mo`), hostile bytes
giving an empty catalog."""

from __future__ import annotations

import struct

import pytest

from errdex.extract.gettext_catalogs import CatalogEntry, catalog_language, parse_catalog

PO = r"""
# German translations for WTForms.
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1)\n"

#: src/wtforms/fields/numeric.py:168
msgid "Not a valid decimal value."
msgstr "Keine gültige Dezimalzahl."

#: src/wtforms/validators.py:151
#, python-format
msgid "Field cannot be longer than %(max)d character."
msgid_plural "Field cannot be longer than %(max)d characters."
msgstr[0] "Feld kann nicht länger als %(max)d Zeichen sein."
msgstr[1] "Feld kann nicht länger als "
"%(max)d Zeichen sein."

#, fuzzy
msgid "Invalid input."
msgstr "Ungültige Eingabe."

msgid "Not translated yet."
msgstr ""
msgctxt "button"
msgid "Submit"
msgstr "Senden"

msgid "Say \"%s\"\tplease."
msgstr "Sag \"%s\"\tbitte."
#~ msgid "Gone."
#~ msgstr "Weg."
"""


def _mo(pairs: list[tuple[str, str]]) -> bytes:
    """A GNU `.mo` file of (msgid, msgstr) pairs, as `msgfmt` writes one."""
    ids = [i.encode() for i, _ in pairs]
    strs = [s.encode() for _, s in pairs]
    count = len(pairs)
    ids_at, strs_at = 28, 28 + 8 * count
    data_at = strs_at + 8 * count
    tables, blobs = b"", b""
    for group in (ids, strs):
        for text in group:
            tables += struct.pack("<2I", len(text), data_at + len(blobs))
            blobs += text + b"\x00"
    return struct.pack("<7I", 0x950412DE, 0, count, ids_at, strs_at, 0, 0) + tables + blobs


def test_a_po_file_gives_its_translated_entries() -> None:
    catalog = parse_catalog("pkg/locale/de/LC_MESSAGES/pkg.po", PO.encode())
    assert catalog is not None and catalog.language == "de"
    assert catalog.entries == (
        CatalogEntry(("Not a valid decimal value.",), ("Keine gültige Dezimalzahl.",)),
        CatalogEntry(
            (
                "Field cannot be longer than %(max)d character.",
                "Field cannot be longer than %(max)d characters.",
            ),
            (
                "Feld kann nicht länger als %(max)d Zeichen sein.",
                "Feld kann nicht länger als %(max)d Zeichen sein.",
            ),
        ),
        CatalogEntry(('Say "%s"\tplease.',), ('Sag "%s"\tbitte.',)),
    )


def test_a_compiled_mo_file_gives_its_entries_without_the_header() -> None:
    data = _mo(
        [
            ("", "Language: fr\n"),
            ("Not a valid decimal value.", "Pas une valeur décimale valide."),
            ("%(num)d field\x00%(num)d fields", "%(num)d champ\x00%(num)d champs"),
            ("button\x04Submit", "Envoyer"),
        ]
    )
    catalog = parse_catalog("pkg/locale/fr/LC_MESSAGES/pkg.mo", data)
    assert catalog is not None and catalog.language == "fr"
    assert catalog.entries == (
        CatalogEntry(("Not a valid decimal value.",), ("Pas une valeur décimale valide.",)),
        CatalogEntry(("%(num)d field", "%(num)d fields"), ("%(num)d champ", "%(num)d champs")),
    )


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("wtforms/locale/pt_BR/LC_MESSAGES/wtforms.mo", "pt_BR"),
        ("babel/locale-data/de.po", "de"),
        ("pkg/messages.po", None),
    ],
)
def test_the_language_comes_from_the_path(path: str, language: str | None) -> None:
    assert catalog_language(path) == language


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xde\x12\x04\x95" + b"\xff" * 24,  # a `.mo` header whose tables point past the end
        struct.pack("<7I", 0x950412DE, 0, 10**9, 28, 28, 0, 0),
        bytes(range(256)) * 40,
    ],
)
def test_hostile_bytes_give_an_empty_catalog(data: bytes) -> None:
    for path in ("x/de/LC_MESSAGES/x.mo", "x/de/LC_MESSAGES/x.po"):
        catalog = parse_catalog(path, data)
        assert catalog is not None and catalog.entries == ()


def test_plural_forms_keep_their_numbers_order_past_nine() -> None:
    forms = "\n".join(f'msgstr[{n}] "form {n}"' for n in range(12))
    text = f'msgid "%d file"\nmsgid_plural "%d files"\n{forms}\n'
    catalog = parse_catalog("pkg/locale/ar/LC_MESSAGES/pkg.po", text.encode())
    assert catalog is not None
    assert catalog.entries[0].msgstrs == tuple(f"form {n}" for n in range(12))
