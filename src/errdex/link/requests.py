"""The request fields behind a site's conditions: a field of a route's body class whose
value an attribute the condition reads holds.

Two ways a field reaches a check: read from the request itself (`request.stream`, the
parameter annotated with the body class), or carried by the body's own method into an
object of the version (`SamplingParams.from_optional(watermarking=self.watermarking)`,
then `params.watermarking is False` in a config check). Here each attribute a condition
names gets the fields that may stand behind it; the page keeps those whose object the
check's own code says is of that class.
"""

from __future__ import annotations

import functools
from collections import defaultdict

import msgspec

from errdex.extract.shapes import looks_like_exception_class
from errdex.facts import ErrorSite, FileFacts
from errdex.lazy_re import lazy_compile
from errdex.link.resolve import Namespace
from errdex.linked_facts import RequestLink

# (possessive: a word not followed by a dot is not tried again one letter shorter)
_ATTRIBUTE = lazy_compile(r"\b([A-Za-z_]\w*+)\.([A-Za-z_]\w*+)\b")
_MAX_ROUTES = 3
_MAX_LINKS = 12  # per site


class RequestIndex:
    """The version's route bodies, their fields, and where each is carried."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        routes: dict[str, list[str]] = defaultdict(list)  # body class qualname → routes
        # (a class, its field) → (the class it is carried into, the keyword, the call)
        carried: dict[tuple[str, str], list[tuple[str, str, str]]] = defaultdict(list)
        for facts in files:
            if facts.error is not None:
                continue
            for route in facts.routes:
                resolved = names.resolve_class(facts, route.cls)
                if resolved is None:
                    continue
                where = f"{route.method.upper()} {route.path or '/'}"
                if where not in routes[resolved.qualname]:
                    routes[resolved.qualname].append(where)
            for field in facts.request_fields:
                for callee, keyword in field.into:
                    target = _target(names, facts, callee)
                    if target is not None:
                        via = f"{callee}({keyword}=self.{field.name})"
                        key = (f"{facts.module}.{field.model}", field.name)
                        carried[key].append((target, keyword, via))
            for carry in facts.request_carries:
                owner = names.resolve_class(facts, carry.cls)
                target = _target(names, facts, carry.callee)
                if owner is not None and target is not None:
                    via = f"{carry.callee}({carry.keyword}={carry.parameter}.{carry.field})"
                    carried[(owner.qualname, carry.field)].append((target, carry.keyword, via))
        client = any(
            target.partition(".")[0] == "openai"
            for facts in files
            for target in (*facts.imports.values(), *facts.local_imports.values())
        )
        # attribute → the links a condition on it may have
        self.by_attribute: dict[str, list[RequestLink]] = defaultdict(list)
        # body class → the attributes a body of it sets on what it builds: its fields, and
        # the keywords it carries them in as
        self.sent: dict[str, set[str]] = defaultdict(set)
        # a condition's test → the (object, attribute) it reads that may be such a field:
        # most read none, and the sites of a function share their tests
        self._fields_read: dict[str, tuple[tuple[str, str], ...]] = {}
        for qualname, served in routes.items():
            found = names.lookup(qualname)
            if found is None:
                continue
            facts, name = found
            fields = [f for f in facts.request_fields if f.model == name]
            required = tuple(f.alias or f.name for f in fields if f.default is None)
            # the plainest route first: `/v1/chat/completions` before its `/render`
            plainest = tuple(sorted(served, key=len)[:_MAX_ROUTES])
            for field in fields:
                direct = RequestLink(
                    key=field.alias or field.name,
                    attr=field.name,
                    target=qualname,
                    model=qualname,
                    file=facts.path,
                    line=field.line,
                    annotation=field.annotation,
                    default=field.default,
                    routes=plainest,
                    required=required,
                    client=client,
                )
                self.by_attribute[field.name].append(direct)
                self.sent[qualname].add(field.name)
                for target, keyword, via in carried.get((qualname, field.name), ()):
                    self._add(direct, target, keyword, via)
                    # one more hop: a body built from this one (Cohere's request made into
                    # a chat request) carries it on into what that one builds
                    for further, again, then in carried.get((target, keyword), ()):
                        self._add(direct, further, again, f"{via}, {then}")

    def _add(self, direct: RequestLink, target: str, attr: str, via: str) -> None:
        link = msgspec.structs.replace(direct, target=target, attr=attr, via=via)
        self.by_attribute[attr].append(link)
        self.sent[direct.model].add(attr)

    def links(
        self,
        site: ErrorSite,
        facts: FileFacts,
        parameters: tuple[str, ...] = (),
    ) -> tuple[RequestLink, ...]:
        """The fields that may stand behind the attributes the site's conditions read: a
        field read from the request itself only where the function's parameter (of
        `parameters`, its names) is annotated with its class, or with no one class; a
        field carried into another object for the page to check against the parameter's
        annotation. Never where the path needs another attribute of the same object set
        that no body of the class sends (`self.trace_decode_token_ids is not None`, set
        from Python only): no request reaches the site. Fewest hops first."""
        if not self.by_attribute:
            return ()
        found: list[RequestLink] = []
        for condition in site.conditions:
            test = condition.test
            read = self._fields_read.get(test)
            if read is None:
                read = self._fields_read[test] = tuple(
                    (owner, attr) for owner, attr in _attributes(test) if attr in self.by_attribute
                )
            for owner, attr in read:
                for candidate in self.by_attribute[attr]:
                    if candidate in found:
                        continue
                    if owner == "self" and not candidate.target.endswith(f".{site.class_name}"):
                        continue  # a method of another class than the one it is carried into
                    if candidate.via is None:
                        written = facts.params.get(site.function, {}).get(owner)
                        resolved = self._names.resolve_class(facts, written) if written else None
                        # a parameter annotated with no one class (`A | B`, or a function's
                        # own): the page reads its annotation
                        unknown = written is None and owner in parameters
                        if not unknown and (
                            resolved is None or resolved.qualname != candidate.model
                        ):
                            continue
                    if self._reached(site, owner, self.sent[candidate.model]):
                        found.append(candidate)
        found.sort(key=lambda link: (link.via or "").count(", "))
        return tuple(found[:_MAX_LINKS])

    @staticmethod
    def _reached(site: ErrorSite, owner: str, sent: set[str]) -> bool:
        """Whether every other attribute of `owner` the path tests is one a body sends, or
        is left unset there (`x is None`, `not x`)."""
        for condition in site.conditions:
            for other, attr in _attributes(condition.test):
                if other != owner or attr in sent:
                    continue
                name = f"{owner}.{attr}"
                test = condition.test.strip()
                unset = (condition.holds and test in (f"{name} is None", f"not {name}")) or (
                    not condition.holds and test in (f"{name} is not None", name)
                )
                if not unset:
                    return False
        return True


@functools.lru_cache(maxsize=1 << 14)
def _attributes(test: str) -> tuple[tuple[str, str], ...]:
    """(object, attribute) of each `a.b` a condition's test reads: once per text, as the
    sites of a function share their conditions (asked twice per site)."""
    return tuple(_ATTRIBUTE.findall(test)) if "." in test else ()


def _target(names: Namespace, facts: FileFacts, callee: str) -> str | None:
    """The class of the version a call builds: `SamplingParams.from_optional` and
    `params.SamplingParams` build a `SamplingParams`, the longest part of the dotted path
    that the file's imports resolve to a class; None for a function, a class from outside
    or an error raised."""
    parts = callee.split(".")
    for end in range(len(parts), 0, -1):
        resolved = names.resolve_class(facts, ".".join(parts[:end]))
        if resolved is not None:
            return None if looks_like_exception_class(resolved.fact.name) else resolved.qualname
    return None
