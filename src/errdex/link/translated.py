"""The texts a user sees translated: a site's texts matched to the message ids of the
version's gettext catalogs, each translation a shown form holding the site's placeholders.

A text and a message id match when their written parts are the same and only the values
differ in how they are written (`Field cannot be longer than {self.max:d} character.` and
`Field cannot be longer than %(max)d character.`); the translation's `%(max)d` is then the
site's `{self.max:d}`, found by its name (or, unnamed, by its order) in the message id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

import msgspec

from errdex.extract.gettext_catalogs import Catalog
from errdex.facts import MessageTemplate, Part, Placeholder
from errdex.lazy_re import lazy_compile
from errdex.linked_facts import TRANSLATED, IndexedSite, ShownText

__all__ = ["Translations"]

_MAX_FORMS = 160  # translated forms of one site: a few texts in every language shipped

# The values of a catalog's texts: `%(name)d`, `%s`, `{name}`, `{}`; `%%` and `{{` are text.
_VALUE = lazy_compile(
    r"%%|%\((?P<named>\w{1,60})\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]"
    r"|%[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|\{\{|\}\}|\{(?P<field>\w{0,60})[^{}]{0,20}\}"
)

_Shape = tuple[str, ...]  # the written parts between the values, values left out


class _Text(msgspec.Struct, frozen=True):
    """A catalog text cut into its written parts and the names of its values (`#n` for
    the n-th unnamed one)."""

    written: _Shape
    names: tuple[str, ...]


def _cut(text: str) -> _Text:
    written: list[str] = []
    names: list[str] = []
    pending: list[str] = []
    start = 0
    for found in _VALUE.finditer(text):
        pending.append(text[start : found.start()])
        start = found.end()
        token = found.group(0)
        if token in ("%%", "{{", "}}"):
            pending.append(token[0])
            continue
        written.append("".join(pending))
        pending.clear()
        name = found.group("named") or found.group("field")
        names.append(name if name and not name.isdigit() else f"#{len(names)}")
    pending.append(text[start:])
    written.append("".join(pending))
    return _Text(tuple(written), tuple(names))


def _shape(template: MessageTemplate) -> tuple[_Shape, tuple[Placeholder, ...]]:
    """A site's text as the same shape: its written parts between its placeholders."""
    written: list[str] = []
    values: list[Placeholder] = []
    pending: list[str] = []
    for part in template.parts:
        if isinstance(part, str):
            pending.append(part)
        else:
            written.append("".join(pending))
            pending.clear()
            values.append(part)
    written.append("".join(pending))
    return tuple(written), tuple(values)


class _Translation(msgspec.Struct, frozen=True):
    language: str
    source: _Text  # the message id it translates
    text: _Text


class Translations:
    """The translations of a version's catalogs, by the shape of the text they translate."""

    def __init__(self, catalogs: Sequence[Catalog]) -> None:
        self._by_shape: dict[_Shape, list[_Translation]] = defaultdict(list)
        for catalog in catalogs:
            for entry in catalog.entries:
                for msgid in entry.msgids:
                    source = _cut(msgid)
                    if not any(part.strip() for part in source.written):
                        continue  # a text of values alone: no words to match it by
                    for msgstr in dict.fromkeys(entry.msgstrs):
                        translated = _Translation(catalog.language, source, _cut(msgstr))
                        self._by_shape[source.written].append(translated)

    def add(self, indexed: IndexedSite) -> IndexedSite:
        """The site with the translations of its texts among its shown forms."""
        if not self._by_shape:
            return indexed
        site = indexed.site
        texts = [site.message] if site.message is not None else []
        texts += [variant.reason for variant in site.variants]
        texts += [form.text for form in indexed.shown if not form.how.startswith(TRANSLATED)]
        forms = list(dict.fromkeys(self._forms(texts)))[:_MAX_FORMS]
        if not forms:
            return indexed
        return msgspec.structs.replace(indexed, shown=(*indexed.shown, *forms))

    def _forms(self, texts: Iterable[MessageTemplate]) -> Iterable[ShownText]:
        for template in texts:
            written, values = _shape(template)
            for translation in self._by_shape.get(written, ()):
                text = _filled(translation, values)
                if text is not None and text != template:
                    yield ShownText(text=text, how=f"{TRANSLATED} ({translation.language})")


def _filled(translation: _Translation, values: tuple[Placeholder, ...]) -> MessageTemplate | None:
    """The translation with the site's placeholders where its values are; None when one
    of them names no value of the message id."""
    named = dict(zip(translation.source.names, values, strict=False))
    parts: list[Part] = []
    for at, written in enumerate(translation.text.written):
        parts.append(written)
        if at < len(translation.text.names):
            value = named.get(translation.text.names[at])
            if value is None:
                return None
            parts.append(value)
    return MessageTemplate.of(*parts)
