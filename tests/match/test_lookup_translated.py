"""Lookup of a message in the language the user saw it in: a package that passes its texts
through gettext and ships catalogs shows them translated; indexed into a real SQLite file,
from a sample package and from a real release's wheel."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.explain.views import shown_views
from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_fixture, indexed_releases

PACKAGE = {
    "forms/__init__.py": "",
    "forms/fields.py": """
        from gettext import gettext as _, ngettext

        class ValidationError(ValueError):
            pass

        def integer(value, invalid_message=None):
            try:
                return int(value)
            except ValueError:
                raise ValueError(invalid_message or _("Not a valid integer value."))

        def length(field, max):
            if len(field.data) > max:
                message = ngettext(
                    "Field cannot be longer than %(max)d character.",
                    "Field cannot be longer than %(max)d characters.",
                    max,
                )
                raise ValidationError(message % dict(max=max))
        """,
    "forms/locale/de/LC_MESSAGES/forms.po": r"""
        msgid ""
        msgstr "Language: de\n"

        msgid "Not a valid integer value."
        msgstr "Keine gültige, ganze Zahl."

        msgid "Field cannot be longer than %(max)d character."
        msgid_plural "Field cannot be longer than %(max)d characters."
        msgstr[0] "Feld kann nicht länger als %(max)d Zeichen sein."
        msgstr[1] "Feld kann nicht länger als %(max)d Zeichen sein."
        """,
    "forms/locale/es/LC_MESSAGES/forms.po": r"""
        msgid "Field cannot be longer than %(max)d character."
        msgid_plural "Field cannot be longer than %(max)d characters."
        msgstr[0] "El campo no puede tener más de %(max)d carácter."
        msgstr[1] "El campo no puede tener más de %(max)d caracteres."

        msgid "Not a valid integer value."
        msgstr ""
        """,
}

store = indexed_fixture("translated", "forms", {"1.0": PACKAGE})


def test_a_translated_message_finds_its_raise(store: Store) -> None:
    first = lookup_text(store, "ValueError: Keine gültige, ganze Zahl.").matches[0]
    assert (first.file, first.line) == ("forms/fields.py", 11)
    assert first.shown == "Keine gültige, ganze Zahl."


def test_a_translation_keeps_the_values_of_the_text_it_translates(store: Store) -> None:
    for pasted, language, value in (
        ("Feld kann nicht länger als 10 Zeichen sein.", "de", "10"),
        ("El campo no puede tener más de 1 carácter.", "es", "1"),
    ):
        first = lookup_text(store, f"forms.fields.ValidationError: {pasted}").matches[0]
        assert (first.file, first.line) == ("forms/fields.py", 20)
        assert first.values == {"max": value}
        assert any(f"translated ({language})" in why for why in first.why)


def test_the_page_lists_no_translation(store: Store) -> None:
    # Every language shipped is a form of the site; the page shows the text as written.
    site = lookup_text(store, "ValueError: Keine gültige, ganze Zahl.").matches[0].site
    assert site is not None
    assert len(site.shown) == 1
    assert shown_views(site) == []


@pytest.fixture(scope="module")
def wtforms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = indexed_releases(tmp_path_factory.mktemp("wtforms"), ["wtforms==3.3.2"])
    yield db
    db.close()


def test_a_release_s_compiled_catalogs(wtforms: Store) -> None:
    # wtforms' tests run with German translations: what they raised, as pasted.
    for pasted, where in (
        ("ValidationError: Feld kann nicht länger als 1 Zeichen sein.", 174),
        ("StopValidation: Dieses Feld wird benötigt.", 410),
    ):
        first = lookup_text(wtforms, pasted).matches[0]
        assert (first.file, first.line) == ("wtforms/validators.py", where)
