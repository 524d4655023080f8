"""The request fields behind a site's conditions: a field of a route's body class whose
value an attribute the condition reads holds.

Three ways a field reaches a check: read from the request itself (`request.stream`, the
parameter annotated with the body class), carried by the body's own method into an
object of the version (`SamplingParams.from_optional(watermarking=self.watermarking)`,
then `params.watermarking is False` in a config check), or handed to the check's function
as an argument one or two calls up (`input_type = request.input_type;
self._validate_input_type(input_type)`, where the caller's code says `request` is of the
body class: its annotation, an `assert isinstance`, an `isinstance` its guard holds; or
`self.n` in the class the field is copied into). Here each attribute a condition
names gets the fields that may stand behind it; the page keeps those whose object the
check's own code says is of that class.
"""

from __future__ import annotations

import functools
from collections import defaultdict

import msgspec

from errdex.extract.shapes import OWN_OBJECT, looks_like_exception_class
from errdex.facts import CallSite, ErrorSite, FileFacts
from errdex.lazy_re import lazy_compile
from errdex.link.callers import CallerIndex
from errdex.link.passed import given_for
from errdex.link.resolve import Namespace
from errdex.linked_facts import RequestLink

# (possessive: a word not followed by a dot is not tried again one letter shorter)
_ATTRIBUTE = lazy_compile(r"\b([A-Za-z_]\w*+)\.([A-Za-z_]\w*+)\b")
_MAX_ROUTES = 3
_MAX_LINKS = 12  # per site
_MAX_HOPS = 2  # calls up from the check's function to the one reading the request
_MAX_CALLS = 12  # calls of one function, at most, whose fields given a parameter are read


class RequestIndex:
    """The version's route bodies, their fields, and where each is carried."""

    def __init__(
        self, files: list[FileFacts], names: Namespace, callers: CallerIndex | None = None
    ) -> None:
        self._names = names
        self._callers = callers
        # (module, function, parameter, position) → the fields its callers give it
        self._given: dict[tuple[str, str, str, int], tuple[RequestLink, ...]] = {}
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
        module: str | None = None,
    ) -> tuple[RequestLink, ...]:
        """The fields that may stand behind the attributes the site's conditions read: a
        field read from the request itself only where the function's parameter (of
        `parameters`, its names) is annotated with its class, or with no one class; a
        field carried into another object for the page to check against the parameter's
        annotation. Never where the path needs another attribute of the same object set
        that no body of the class sends (`self.trace_decode_token_ids is not None`, set
        from Python only): no request reaches the site. And a field a caller of the site's
        function (of `module`) gives a parameter the conditions read. Fewest hops first."""
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
        if module is not None and self._callers is not None:
            for name in site.names:
                if name not in parameters:
                    continue
                for given in self._given_to(module, site.function, name, parameters.index(name)):
                    if given not in found:
                        found.append(given)
        found.sort(key=lambda link: (link.via or "").count(", "))
        return tuple(found[:_MAX_LINKS])

    def _given_to(
        self, module: str, function: str, param: str, position: int, hops: int = 0
    ) -> tuple[RequestLink, ...]:
        """The fields of a body that calls of `module.function` give its parameter `param`
        (at `position`): `request.input_type` where the caller's code says `request` is of
        the body class, as it is or through a local holding it (`CallSite.passes`);
        `self.n` in a method of the class a body's field is read from or carried into;
        or the caller's own parameter, given one by its callers (up to `_MAX_HOPS`
        calls). Only where every call giving the parameter gives such a field: a call
        giving anything else may be where the value came from. Once per function and
        parameter."""
        key = (module, function, param, position)
        found = self._given.get(key)
        if found is not None:
            return found
        self._given[key] = ()  # a call cycle finds nothing
        if self._callers is None:
            return ()
        out: list[RequestLink] = []
        calls = self._callers.passing_calls(module, function)
        for call, facts in calls if len(calls) <= _MAX_CALLS else ():
            given = given_for(call, param, position)
            if given is None:
                continue  # a call leaving it out: its default, no value of the user's
            value, passed_on = given
            if passed_on >= 0:
                above = (
                    self._given_to(facts.module, call.function, value, passed_on, hops + 1)
                    if hops + 1 < _MAX_HOPS
                    else ()
                )
                links = [
                    msgspec.structs.replace(
                        link, parameter=param, passed_by=(*link.passed_by, call.function)
                    )
                    for link in above
                ]
            else:
                links = [
                    msgspec.structs.replace(link, parameter=param, passed_by=(call.function,))
                    for link in self._fields_given(value, call, facts)
                ]
            if not links:
                return ()  # a call gives it something else, or may
            out.extend(links)
        found = self._given[key] = tuple(dict.fromkeys(out))
        return found

    def _fields_given(self, value: str, call: CallSite, facts: FileFacts) -> list[RequestLink]:
        """The fields a call's argument `value` (as `CallSite.passes` has it) is: one
        attribute of an object of a body class, or of `self` in a class it is read from
        or carried into."""
        held, _, attr = value.rpartition(".")
        if not attr.isidentifier():
            return []
        if held in OWN_OBJECT:
            owner = call.class_name
            return [
                link
                for link in self.by_attribute.get(attr, ())
                if owner and link.target.rpartition(".")[2] == owner
            ]
        written = dict(call.typed).get(held)
        body = self._names.resolve_class(facts, written) if written is not None else None
        if body is None:
            return []  # not an object the caller's code says the class of
        return [
            link
            for link in self.by_attribute.get(attr, ())
            if link.via is None and link.model == body.qualname
        ]

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
