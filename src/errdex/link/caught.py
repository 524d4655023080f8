"""The text of a caught exception, raised again under another class or printed.

`except MultiPartException as exc: raise HTTPException(400, detail=exc.message)` shows the
user the caught exception's text inside the new one's (`400: Field exceeded maximum size of
1024KB.`); `except OptionError as err: parser.error(str(err))` prints it. That text is
written at the raises of the caught class, not here: each raise of it (or of a subclass)
that the version holds gives the site a text of its own, composed through the new class as
any argument is. A builtin class caught (`except ValueError as e`) is left alone: the
interpreter and the standard library raise those too, so the version's raises of it say
little of what was caught.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import msgspec

from errdex.extract.shapes import MESSAGE_KEYWORDS
from errdex.facts import (
    ConditionKind,
    ErrorSite,
    FileFacts,
    MessageTemplate,
    Part,
    Placeholder,
    SiteKind,
)
from errdex.lazy_re import lazy_compile
from errdex.link.resolve import Namespace
from errdex.link.shown import ShownTexts
from errdex.linked_facts import IndexedSite, ShownText

__all__ = ["CaughtTexts"]

_HANDLER = lazy_compile(r"except\s+\(?\s*([\w.,\s]+?)\s*\)?\s+as\s+(\w+)")
_MAX_INNER = 24  # the caught class's raises one site shows the texts of
_INNER_KINDS = (SiteKind.RAISE, SiteKind.HELPER)


class CaughtTexts:
    """Adds to the sites that raise (or print) a caught exception's text the texts of the
    raises of its class."""

    def __init__(self, names: Namespace, shown: ShownTexts) -> None:
        self._names = names
        self._shown = shown
        # (index in the linked list, the site as extracted, its file, caught class → name)
        self._pending: list[tuple[int, ErrorSite, FileFacts, list[str], str]] = []

    def note(self, at: int, raw: ErrorSite, facts: FileFacts) -> None:
        """Remember the site (at index `at` of the linked sites) when its text is a caught
        exception's."""
        handler = _handler(raw)
        if handler is None:
            return
        written, name = handler
        if not _uses(raw, name):
            return
        classes = [
            found.qualname
            for cls in written
            if (found := self._names.resolve_class(facts, cls)) is not None
        ]
        if classes:
            self._pending.append((at, raw, facts, classes, name))

    def add(self, linked: list[IndexedSite]) -> list[IndexedSite]:
        """The linked sites, each noted one with the texts of what it caught."""
        if not self._pending:
            return linked
        raised = _raises_by_class(linked)
        out = list(linked)
        for at, raw, facts, classes, name in self._pending:
            here = out[at]
            tried = _tried(here)
            inner = [
                s
                for cls in classes
                for s in raised.get(cls, ())
                if (s.file, s.site.line) != (here.file, here.site.line)
            ]
            # Of those, the ones the `try` reaches, when it names any of them.
            if tried:
                inner = [s for s in inner if _reached(s, tried)] or inner
            if not inner:
                continue
            inner.sort(key=lambda s: (s.file != here.file, s.file, s.site.line))
            out[at] = self._with_texts(here, raw, facts, name, inner[:_MAX_INNER])
        return out

    def _with_texts(
        self,
        indexed: IndexedSite,
        raw: ErrorSite,
        facts: FileFacts,
        name: str,
        inner: Iterable[IndexedSite],
    ) -> IndexedSite:
        seen = {form.text.text for form in indexed.shown}
        if indexed.site.message is not None:
            seen.add(indexed.site.message.text)
        added: list[ShownText] = []
        for other in inner:
            text = other.site.message
            assert text is not None  # (`_raises_by_class` keeps only those with a text)
            # (read in a result's reasons as "the text <how> shows")
            where = f"its {{{name}}} as raised at {other.file}:{other.site.line}"
            site = _put_site(indexed.site, name, text)
            forms = [ShownText(site.message, where)] if site.message is not None else []
            forms.extend(
                msgspec.structs.replace(form, how=f"{form.how} with {where}")
                for form in self._shown.of(
                    _put_site(raw, name, text), site, facts, indexed.exception
                )
            )
            for form in forms:
                key = form.text.text
                if key in seen or not form.text.literal_length:
                    continue
                seen.add(key)
                added.append(form)
        if not added:
            return indexed
        return msgspec.structs.replace(indexed, shown=(*indexed.shown, *added))


def _handler(site: ErrorSite) -> tuple[list[str], str] | None:
    """The classes and the name of the innermost `except ... as name` the site is in."""
    for condition in reversed(site.conditions):
        if condition.kind is ConditionKind.EXCEPT and condition.holds:
            found = _HANDLER.fullmatch(condition.test.strip())
            if found is None:
                return None
            classes = [c.strip() for c in found.group(1).split(",") if c.strip()]
            return classes, found.group(2)
    return None


def _tried(site: IndexedSite) -> frozenset[str]:
    """The names the `try` of the site's innermost `except ... as` calls (none when the
    facts do not hold them)."""
    handler = next(
        (c for c in reversed(site.site.conditions) if c.kind is ConditionKind.EXCEPT and c.holds),
        None,
    )
    tries = site.reading.tries if site.reading is not None else {}
    found = tries.get(handler.line) if handler is not None else None
    return frozenset(found.callees) if found is not None else frozenset()


def _reached(site: IndexedSite, tried: frozenset[str]) -> bool:
    """Whether a call of the `try` may reach the raise: it names the raise's function or
    class, or a function calling it (`parser.parse()` reaches `Parser.parse`'s raises,
    `FormParser(...)` the raises in `FormParser`'s methods, the callbacks it registers)."""
    # A caller is named with its module (`pkg.mod.Parser.parse`): its last two parts.
    names = [site.site.function, *(".".join(c.split(".")[-2:]) for c in site.callers)]
    return any(part in tried for qualname in names for part in qualname.split("."))


def _caught_text(placeholder: Placeholder, name: str) -> bool:
    """Whether the placeholder is the caught exception's text: `{err}`, `{str(err)}`,
    `{err.args[0]}`, `{err.message}` (and the other message attributes)."""
    if placeholder.conversion not in (None, "s") or placeholder.spec:
        return False
    expr = placeholder.expr.replace(" ", "")
    if expr in (name, f"str({name})", f"{name}.args[0]"):
        return True
    owner, _, attr = expr.partition(".")
    return owner == name and attr in MESSAGE_KEYWORDS


def _uses(site: ErrorSite, name: str) -> bool:
    templates = [site.message, *(a.template for a in site.args)]
    return any(_caught_text(p, name) for t in templates if t is not None for p in t.placeholders)


def _put(template: MessageTemplate, name: str, text: MessageTemplate) -> MessageTemplate:
    parts: list[Part] = []
    for part in template.parts:
        if isinstance(part, Placeholder) and _caught_text(part, name):
            parts.extend(text.parts)
        else:
            parts.append(part)
    return MessageTemplate.of(*parts)


def _put_site(site: ErrorSite, name: str, text: MessageTemplate) -> ErrorSite:
    """The site with the caught exception's text in its message and arguments."""
    message = _put(site.message, name, text) if site.message is not None else None
    args = tuple(
        msgspec.structs.replace(a, template=_put(a.template, name, text))
        if a.template is not None
        else a
        for a in site.args
    )
    return msgspec.structs.replace(site, message=message, args=args)


def _raises_by_class(linked: list[IndexedSite]) -> dict[str, list[IndexedSite]]:
    """The raises with a text of each class the version defines, under the class and each
    of its bases."""
    found: dict[str, list[IndexedSite]] = defaultdict(list)
    for indexed in linked:
        info, message = indexed.exception, indexed.site.message
        if (
            info is None
            or info.defined_in is None
            or indexed.site.kind not in _INNER_KINDS
            or message is None
            or not message.literal_length
        ):
            continue
        for qualname in (info.qualname, *info.bases):
            found[qualname].append(indexed)
    return found
