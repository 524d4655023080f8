"""Messages kept in a class's table by key, and the methods that make exceptions from them.

Validation libraries keep their messages in class attributes and raise by key:

    class Integer(Field):
        default_error_messages = {"invalid": "Not a valid integer."}
        ...
            raise self.make_error("invalid")        # marshmallow: makes the exception
            self.fail("invalid")                    # Django REST framework: raises it
            raise ValidationError(self.error_messages["invalid"])   # Django forms

The message is the entry of the raising class (or of its nearest base that has the key):
a subclass's table overrides its bases', as these libraries merge them. A table named
`default_X` stands for `self.X`, which they build from it.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator

import msgspec

from errdex.facts import (
    Arg,
    ErrorSite,
    FileFacts,
    KeyedHelper,
    MessageTemplate,
    Part,
    Placeholder,
    SiteKind,
)
from errdex.lazy_re import lazy_compile
from errdex.link.forwarding import site_at_call
from errdex.link.messages import SUBSCRIPT, bind_arguments
from errdex.link.resolve import BUILTIN_EXCEPTIONS, Namespace, ResolvedClass
from errdex.linked_facts import ShownText

_PERCENT_FIELD = lazy_compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[sdirfgex]")


def table_template(text: str) -> MessageTemplate:
    """An entry as a template: its `{name}` (str.format) or `%(name)s` fields as placeholders."""
    parts: list[Part] = []
    if "%(" in text:
        done = 0
        for match in _PERCENT_FIELD.finditer(text):
            parts.extend((text[done : match.start()], Placeholder(match.group(1))))
            done = match.end()
        parts.append(text[done:])
        return MessageTemplate.of(*parts)
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:  # a lone brace: not a format string
        return MessageTemplate.of(text)
    for literal, name, spec, conversion in fields:
        parts.append(literal)
        if name is not None:
            parts.append(Placeholder(name or "...", conversion or None, spec or None))
    return MessageTemplate.of(*parts)


class MessageTables:
    """The message tables of a version's classes and its methods that raise by key."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        # (file, line) → (class, table, key) of each site made from a table by key.
        self._made_keys: dict[tuple[str, int], tuple[str, str, str]] = {}
        self._children: dict[str, list[ResolvedClass]] | None = None
        self._keyed = {
            (facts.module, helper.qualname): (helper, facts)
            for facts in files
            for helper in facts.keyed
        }

    def entry(
        self, facts: FileFacts, class_name: str, table: str, key: str
    ) -> MessageTemplate | None:
        """`self.<table>[key]` in a method of `class_name` (a class of `facts`)."""
        for cls in self._names.class_and_bases(facts, class_name):
            entries = cls.fact.tables.get(table) or cls.fact.tables.get(f"default_{table}")
            if entries and key in entries:
                return table_template(entries[key])
        return None

    def entry_of(
        self, facts: FileFacts, class_name: str | None
    ) -> Callable[[str, str], MessageTemplate | None] | None:
        """`entry` for the methods of one class, None outside a class."""
        if class_name is None:
            return None
        return lambda table, key: self.entry(facts, class_name, table, key)

    def raise_site(self, site: ErrorSite, facts: FileFacts) -> ErrorSite:
        """`raise self.make_error("invalid")`: the exception and message made for that key."""
        written = site.exception
        if site.kind is not SiteKind.RAISE or not written or not written.startswith("self."):
            return site
        made = self._made(facts, site.class_name, written.removeprefix("self."), site.args)
        if made is None:
            return site
        self._remember(facts, site.line, site.class_name, written.removeprefix("self."), site.args)
        exception, message = made
        return msgspec.structs.replace(site, exception=exception, message=message, args=())

    def call_sites(self, facts: FileFacts, raise_lines: set[int]) -> Iterator[ErrorSite]:
        """`self.fail("invalid")`: each call of a method that raises by key is a site."""
        for call in facts.calls:
            if call.receiver != "self" or call.line in raise_lines:
                continue
            made = self._made(facts, call.class_name, call.callee, call.args, raising=True)
            if made is not None:
                self._remember(facts, call.line, call.class_name, call.callee, call.args)
                yield site_at_call(call, SiteKind.HELPER, *made)

    def _remember(
        self,
        facts: FileFacts,
        line: int,
        class_name: str | None,
        method: str,
        args: tuple[Arg, ...],
    ) -> None:
        owner = self._names.method_owner(facts, class_name, method) if class_name else None
        found = self._keyed.get(owner) if owner is not None else None
        key = _literal_key(found[0], args) if found is not None else None
        if class_name is not None and found is not None and key is not None:
            self._made_keys[(facts.path, line)] = (class_name, found[0].table, key)

    def class_forms(self, raw: ErrorSite, facts: FileFacts) -> list[ShownText]:
        """Each subclass's own entry for the key the site raises by, when it overrides the
        entry of the class the raise is written in: `Number` raises `"invalid"`, and an
        `Integer` says `Not a valid integer.`"""
        keyed = self._made_keys.get((facts.path, raw.line))
        if keyed is None and raw.class_name is not None and raw.message is not None:
            keyed = next(
                (
                    (raw.class_name, match.group(1).removeprefix("self."), match.group(3))
                    for p in raw.message.placeholders
                    if (match := SUBSCRIPT.match(p.expr)) and match.group(1).startswith("self.")
                ),
                None,
            )
        if keyed is None:
            return []
        class_name, table, key = keyed
        own = self.entry(facts, class_name, table, key)
        forms: list[ShownText] = []
        seen = {own.text} if own is not None else set()
        for below in self._descendants(f"{facts.module}.{class_name}"):
            entry = self.entry(below.file, below.fact.qualname, table, key)
            if entry is None or entry.text in seen:
                continue
            seen.add(entry.text)
            forms.append(ShownText(entry, f"{below.fact.name}'s {table}[{key!r}]", below.qualname))
        return forms

    def _descendants(self, qualname: str) -> list[ResolvedClass]:
        """The version's classes deriving from `qualname`, nearest first."""
        if self._children is None:
            self._children = {}
            for cls in self._names.classes.values():
                for base in cls.fact.bases:
                    parent = self._names.resolve_class(cls.file, base.split("[")[0])
                    if parent is not None and parent.qualname != cls.qualname:
                        self._children.setdefault(parent.qualname, []).append(cls)
        found: list[ResolvedClass] = []
        queue = list(self._children.get(qualname, ()))
        seen = {qualname}
        while queue and len(found) < 64:
            cls = queue.pop(0)
            if cls.qualname in seen:
                continue
            seen.add(cls.qualname)
            found.append(cls)
            queue.extend(self._children.get(cls.qualname, ()))
        return found

    def _made(
        self,
        facts: FileFacts,
        class_name: str | None,
        method: str,
        args: tuple[Arg, ...],
        *,
        raising: bool = False,
    ) -> tuple[str, MessageTemplate] | None:
        """The exception (as the caller's file would name it) and message of a keyed call."""
        if class_name is None or "." in method:
            return None
        owner = self._names.method_owner(facts, class_name, method)
        found = self._keyed.get(owner) if owner is not None else None
        if found is None:
            return None
        helper, where = found
        if raising and not helper.raises:
            return None
        key = _literal_key(helper, args)
        message = self.entry(facts, class_name, helper.table, key) if key is not None else None
        if message is None:
            return None
        exception = helper.exception
        if where is not facts and exception not in BUILTIN_EXCEPTIONS:
            exception = self._names.qualify(where, exception)
        return exception, message


def _literal_key(helper: KeyedHelper, args: tuple[Arg, ...]) -> str | None:
    """The key a call passes, when it is written as a plain string."""
    given = bind_arguments(helper.params, args).get(helper.param)
    if given is None or given.placeholders:
        return None
    return given.text
