"""Every text a user may see for one site, besides the template at the raise.

The exception class composes `str(exc)` (`link.compose`), Python's rules print several
arguments as a tuple, frameworks print their own frame around it (`link.printed`), and a
message table gives each concrete class its own entry (`link.tables`). Forms that say
nothing the message does not are dropped, so most sites keep none.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence

import msgspec

from errdex.facts import Arg, Binding, ErrorSite, FileFacts, MessageTemplate, Placeholder, SiteKind
from errdex.link.builtin_text import builtin_str
from errdex.link.compose import Composer
from errdex.link.printed import in_panels, printed_forms, prints_panels
from errdex.link.resolve import BUILTIN_EXCEPTIONS, Namespace
from errdex.link.returned import ReturnedTexts
from errdex.linked_facts import ExceptionInfo, IndexedSite, ShownText

_MAX_FORMS = 8
_MAX_CLASS_FORMS = 24  # a message table's entries: one per subclass that overrides it
_MAX_CALLER_FORMS = 24  # what a helper's callers give it, and the texts those make


class ShownTexts:
    """The shown texts of a version's sites."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._composer = Composer(files, names)
        self._returned = ReturnedTexts(files, names)
        self._panels = prints_panels(files)

    def of(
        self,
        raw: ErrorSite,
        site: ErrorSite,
        facts: FileFacts,
        info: ExceptionInfo | None,
        extra: Iterable[ShownText] = (),
    ) -> tuple[ShownText, ...]:
        """The forms of `site` (as linked) that `raw` (as extracted) raises; `extra` are the
        forms found elsewhere (a message table's entries per class)."""
        forms: list[ShownText] = list(extra)
        message = site.message
        if raw.class_name is not None and raw.message is not None:
            forms.extend(self._composer.member_forms(facts, raw.class_name, raw.message))
            forms.extend(self._composer.own_forms(facts, raw.class_name, raw.message, raw.bindings))
        if site.kind in (SiteKind.RAISE, SiteKind.HELPER) and raw.exception:
            resolved = self._names.resolve_class(facts, raw.exception)
            if resolved is not None:
                forms.extend(self._composer.forms(site, resolved, raw.message))
                defaulted = _with_defaults(site, raw.bindings)
                if defaulted is not None:
                    # The enclosing function's default (`requires(status_code=403)`): what a
                    # user who left it out sees, `403: Forbidden`.
                    forms.extend(self._composer.forms(defaulted, resolved, raw.message))
            elif raw.exception in BUILTIN_EXCEPTIONS and site.kind is SiteKind.RAISE:
                args = tuple(a for a in site.args if a.name is None)
                text = builtin_str(raw.exception, args) if args else None
                if text is not None:
                    forms.append(ShownText(text, "str(exc)"))
        if message is not None and _only_joined(message, site.reasons_expr):
            # `raise GrammarError("\n\n".join(msgs))`: one message collected, as it
            # most often is, is the text itself.
            forms.extend(ShownText(v.reason, "one of the messages it joins") for v in site.variants)
        # `msg = alg.check_key_length(key)`, then `raise InvalidKeyError(msg)`.
        returned = list(self._returned.forms(raw, facts))
        forms.extend(returned)
        for text, how in printed_forms(site, info, message):
            forms.append(ShownText(text, how))
        for form in returned:
            for text, how in printed_forms(site, info, form.text):
                forms.append(ShownText(text, f"{how} of {form.how}"))
        if raw.class_name is not None and message is not None and _raises_self(message):
            # `raise EOFError(self)`: the object's own `repr()`.
            shown = self._composer.default_repr(facts, raw.class_name)
            if shown is not None:
                forms.append(ShownText(shown, "repr(self)"))
        return _distinct(in_panels(forms) if self._panels else forms, message)


def _with_defaults(site: ErrorSite, bindings: tuple[Binding, ...]) -> ErrorSite | None:
    """The site with each argument that is a parameter of an enclosing function given
    that parameter's literal default; None when no argument is one."""
    defaults = {b.name: b.value for b in bindings if b.origin == "default"}
    if not defaults or not any(a.source in defaults for a in site.args):
        return None
    args = []
    for arg in site.args:
        value = _literal_text(defaults[arg.source]) if arg.source in defaults else None
        args.append(arg if value is None else Arg(value, defaults[arg.source], arg.name))
    return msgspec.structs.replace(site, args=tuple(args))


def _literal_text(source: str) -> MessageTemplate | None:
    try:
        value = ast.literal_eval(source)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return MessageTemplate.of(str(value)) if isinstance(value, str | int | float) else None


def _only_joined(message: MessageTemplate, joined: str | None) -> bool:
    """The message is nothing but the list of messages it joins."""
    only = message.parts[0] if len(message.parts) == 1 else None
    return joined is not None and isinstance(only, Placeholder) and only.expr == joined


def _raises_self(message: MessageTemplate) -> bool:
    """The message is the raising method's object itself (`raise EOFError(self)`)."""
    only = message.parts[0] if len(message.parts) == 1 else None
    return isinstance(only, Placeholder) and only.expr == "self" and only.conversion in (None, "s")


def _distinct(forms: list[ShownText], message: MessageTemplate | None) -> tuple[ShownText, ...]:
    """Forms with literal text of their own, each once, none the message itself."""
    if not forms:  # most sites: the message's text need not be written out
        return ()
    seen = {message.text} if message is not None else set()
    kept: list[ShownText] = []
    per_class = 0
    for form in forms:
        text = form.text.text
        if text in seen or not form.text.literal_length:
            continue
        if form.cls is not None:
            per_class += 1
            if per_class > _MAX_CLASS_FORMS:
                continue
        elif len(kept) - per_class >= _MAX_FORMS:
            continue
        seen.add(text)
        kept.append(form)
    return tuple(kept)


def with_callers(indexed: IndexedSite, calls: Sequence[IndexedSite]) -> IndexedSite:
    """The raise inside a helper (`def fail(self, message): raise UsageError(message)`)
    with the texts its callers give it: each call's message and the forms it makes."""
    site = indexed.site
    if not calls or site.kind not in (SiteKind.RAISE, SiteKind.WARN):
        return indexed
    seen = {form.text.text for form in indexed.shown}
    if site.message is not None:
        seen.add(site.message.text)
    added: list[ShownText] = []
    for call in calls:
        message, caller = call.site.message, call.site.function
        forms = [ShownText(message, f"given by {caller}")] if message else []
        for form in [*forms, *call.shown]:
            text = form.text.text
            if text in seen or not form.text.literal_length or len(added) >= _MAX_CALLER_FORMS:
                continue
            seen.add(text)
            added.append(msgspec.structs.replace(form, caller=caller, caller_file=call.file))
    if not added:
        return indexed
    return msgspec.structs.replace(indexed, shown=(*indexed.shown, *added))
