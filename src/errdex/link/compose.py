"""The texts a user sees for a site, composed away from the raise by its exception class.

The class actually raised, along its bases, decides what `str(exc)` is: its `__init__`
binds the raise's arguments and stores them on `self`, and `__str__`, `format_message()`
and properties combine those with class attributes each subclass overrides (werkzeug's
`f"{code} {self.name}: {self.description}"` is `400 Bad Request: The browser ...` for
`BadRequest`). Without a `__str__` of the codebase, Python's own rules apply to what reached
`BaseException.__init__`: one argument is its `str()` (a `KeyError`'s is its `repr()`),
several are their tuple, an `OSError`'s `(errno, strerror)` read `[Errno 2] No such file`.

Everything is evaluated symbolically over the extracted source of expressions: a value that
cannot be known stays a placeholder, so lookup still extracts it from a paste.
"""

from __future__ import annotations

import ast
import functools
import http
from collections.abc import Iterator
from dataclasses import dataclass, field

from errdex.extract.exception_classes import MEMBER
from errdex.extract.shapes import MESSAGE_KEYWORDS, MESSAGE_MEMBER
from errdex.extract.templates import TemplateBuilder
from errdex.facts import (
    Arg,
    Binding,
    ClassText,
    ErrorSite,
    FileFacts,
    MessageTemplate,
    Part,
    Placeholder,
    SiteKind,
    TextMethod,
)
from errdex.link.builtin_text import arg_template, builtin_str, quoted
from errdex.link.messages import bind_arguments, format_text, formatted_receiver, substitute
from errdex.link.resolve import BUILTIN_EXCEPTIONS, Namespace, ResolvedClass
from errdex.linked_facts import ShownText

_DEPTH = 6  # how deep a property may read another, a local another local


class _Unknown:
    """A value the facts cannot tell: the placeholder stays."""


UNKNOWN = _Unknown()
# A value: text (a template, maybe with placeholders), Python's None, or unknown.
Value = MessageTemplate | None | _Unknown


@dataclass
class _Instance:
    """An exception object as the raise built it."""

    chain: list[ResolvedClass]  # the class raised, then its bases the version defines
    texts: list[ClassText | None]  # each one's `ClassText`
    attrs: dict[str, MessageTemplate | None] = field(default_factory=dict)  # set on `self`
    # What reached `BaseException.__init__`, when the facts tell.
    args: tuple[Arg, ...] | None = None


@dataclass
class _Frame:
    """Where an expression is evaluated: an instance, and a function's locals and params."""

    instance: _Instance
    facts: FileFacts  # the file of the function, for its constants
    locals: dict[str, str] = field(default_factory=dict)
    params: dict[str, MessageTemplate | None] = field(default_factory=dict)
    at: int = 0  # the class of the chain whose method this is (for `super()`)


class Composer:
    """Composes `str(exc)` and `format_message()` of the version's exception classes."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._texts = {f"{facts.module}.{t.qualname}": t for facts in files for t in facts.texts}
        self._constants: dict[str, list[FileFacts]] | None = None
        self._chains: dict[str, list[ResolvedClass]] = {}

    def forms(
        self, site: ErrorSite, cls: ResolvedClass, message: MessageTemplate | None
    ) -> Iterator[ShownText]:
        """`str(exc)` (and `format_message()`, and what `show()` prints) of the codebase
        class `cls` as the site raises it; `message` is the site's own, for a raise whose
        arguments the facts do not hold (a helper's call, a factory)."""
        instance = self._instance(cls.file, cls.fact.qualname)
        if instance is None:
            return
        self._construct(instance, site, message)
        chain = instance.chain
        found_str = False
        for name, how in (("__str__", "str(exc)"), ("format_message", "format_message()")):
            owner = self._method(instance, name)
            if owner is None:
                continue
            found_str = found_str or name == "__str__"
            for template in owner[1].returns:
                yield ShownText(self.fill(template, _owned_frame(instance, owner), 0), how)
        if not found_str and instance.args is not None:
            root = _builtin_root(chain)
            if root is not None:
                text = builtin_str(root, instance.args)
                if text is not None:
                    yield ShownText(text, "str(exc)")
        show = self._method(instance, "show")
        if show is not None:
            for template in show[1].returns:
                for filled in self._printed(template, instance, show):
                    yield ShownText(filled, f"printed by {chain[0].fact.name}.show()")

    def _instance(self, facts: FileFacts, class_name: str) -> _Instance | None:
        """A new object of the class (of `facts`): nothing set on it yet. Its chain of
        classes is found once per class."""
        key = f"{facts.module}.{class_name}"
        chain = self._chains.get(key)
        if chain is None:
            if key not in self._names.classes:
                return None
            chain = self._chains[key] = list(self._names.class_and_bases(facts, class_name))
        return _Instance(chain, [self._texts.get(c.qualname) for c in chain])

    def member_forms(
        self, facts: FileFacts, class_name: str, message: MessageTemplate
    ) -> Iterator[ShownText]:
        """A message that is a member of the raising object (`self._undefined_message`, a
        property of the class the raise is in), once per text that member returns."""
        members = [
            (placeholder, found.group(1))
            for placeholder in message.placeholders
            if (found := MEMBER.fullmatch(placeholder.expr))
        ]
        instance = self._instance(facts, class_name) if members else None
        if instance is None:
            return
        chain = instance.chain
        placeholder, name = members[0]
        owner = self._method(instance, name)
        if owner is None:
            return
        for template in owner[1].returns:
            if not any(isinstance(p, str) and " " in p.strip() for p in template.parts):
                continue  # a value (`return 0`, `return self._role`), not a message
            filled = self.fill(template, _owned_frame(instance, owner), 0)
            yield ShownText(
                put_text(message, placeholder.expr, filled), f"{chain[0].fact.name}.{name}"
            )

    def own_forms(
        self,
        facts: FileFacts,
        class_name: str,
        message: MessageTemplate,
        bindings: tuple[Binding, ...],
    ) -> Iterator[ShownText]:
        """A message a method takes from its own object (a validator's `self.message`, kept
        by `__init__`, or its class's default), as an object made with no arguments holds
        it: the text a user sees who gave it no message of their own. Only texts are taken
        from the defaults; a value (`max=-1`) is the caller's, and stays a placeholder."""
        held = {b.name: b.value for b in bindings if b.origin == "local"}
        if not any(
            MESSAGE_MEMBER.search(p.expr) or MESSAGE_MEMBER.search(held.get(p.expr, ""))
            for p in message.placeholders
        ) and not any(MESSAGE_MEMBER.search(source) for source in held.values()):
            return
        instance = self._instance(facts, class_name)
        if instance is None:
            return
        self._construct(instance, None, None)
        instance.attrs = {k: v for k, v in instance.attrs.items() if v is None or _prose(v)}
        filled = self.fill(message, _Frame(instance, facts, held), 0)
        if filled.literal_length > message.literal_length:
            yield ShownText(filled, f"{instance.chain[0].fact.name}()'s own message")

    def default_repr(self, facts: FileFacts, class_name: str) -> MessageTemplate | None:
        """`repr()` of an object of the class (of `facts`) as Python writes it when no
        class of its chain says otherwise: `<lark.lexer.BasicLexer object at 0x7f...>`;
        None when one may (it defines `__repr__` or `__str__`, or has a base the version
        does not hold)."""
        chain = list(self._names.class_and_bases(facts, class_name))
        if not chain:
            return None
        known = {c.fact.name for c in chain} | _PLAIN_BASES
        for cls in chain:
            if "__repr__" in cls.fact.methods or "__str__" in cls.fact.methods:
                return None
            if any(base.split("[")[0].rsplit(".", 1)[-1] not in known for base in cls.fact.bases):
                return None
        where = f"{chain[0].file.module}.{chain[0].fact.qualname}"
        return MessageTemplate.of(f"<{where} object at ", Placeholder("hex(id(self))"), ">")

    def _printed(
        self,
        template: MessageTemplate,
        instance: _Instance,
        show: tuple[FileFacts, TextMethod, int],
    ) -> Iterator[MessageTemplate]:
        """`show()`'s text, once for each text `format_message()` may return."""
        formats = self._method(instance, "format_message")
        asks = any(p.expr == "self.format_message()" for p in template.placeholders)
        if formats is None or not asks:
            yield self.fill(template, _owned_frame(instance, show), 0)
            return
        for text in formats[1].returns:
            filled = self.fill(text, _owned_frame(instance, formats), 0)
            put = put_text(template, "self.format_message()", filled)
            yield self.fill(put, _owned_frame(instance, show), 0)

    # -- building the instance ---------------------------------------------------------------

    def _construct(
        self, instance: _Instance, site: ErrorSite | None, message: MessageTemplate | None
    ) -> None:
        """Run the `__init__`s symbolically: what each stores on `self`, and what reaches
        `BaseException`; with no site, made with no arguments."""
        chain = instance.chain
        at = _next_init(chain, 0)
        given = site.args if site and site.kind in (SiteKind.RAISE, SiteKind.HELPER) else ()
        if at is None:
            positional = [a for a in given if a.name is None]
            if positional:
                instance.args = tuple(positional)
            elif message is not None:
                instance.args = (Arg(message, ""),)
            return
        params = chain[at].fact.init_params
        bound: dict[str, MessageTemplate] = bind_arguments(params, given) if given else {}
        if not given and message is not None and params:
            # Made by a helper or a factory with this message: the message parameter gets it.
            bound = {next((p for p in params if p in MESSAGE_KEYWORDS), params[0]): message}
        for _ in range(_DEPTH):
            text = instance.texts[at]
            frame = _Frame(instance, chain[at].file, params=dict(bound))
            if text is not None:
                frame.params = self._params(params, bound, text)
                for name, source in text.fallbacks.items():
                    if frame.params.get(name) is None:  # not given, or given None
                        value = self._eval(source, frame, 0)
                        if isinstance(value, MessageTemplate):
                            bound[name] = frame.params[name] = value
                for attr, source in text.sets.items():
                    if attr in instance.attrs:
                        continue  # a subclass's `__init__` set it after its base's
                    value = self._eval(source, frame, 0)
                    if isinstance(value, MessageTemplate):
                        instance.attrs[attr] = value
            passed = tuple(self._passed(a, bound, frame) for a in chain[at].fact.super_args)
            following = _next_init(chain, at + 1)
            if following is None:
                # (`*args` passed on is empty unless the raise gave more than the
                # parameters: it adds nothing to what `str()` shows)
                instance.args = tuple(
                    a for a in passed if a.name is None and not a.source.startswith("*")
                )
                return
            params = chain[following].fact.init_params
            bound = bind_arguments(params, passed)
            at = following

    def _passed(self, arg: Arg, bound: dict[str, MessageTemplate], frame: _Frame) -> Arg:
        """An argument an `__init__` passes on, in terms of what it was given; one that
        chooses (`message or ""`) is evaluated."""
        node = _parsed(arg.source)
        if isinstance(node, ast.BoolOp | ast.IfExp):
            value = self._eval(arg.source, frame, 0)
            if isinstance(value, MessageTemplate):
                return Arg(value, arg.source, arg.name)
        return Arg(substitute(arg_template(arg), bound), arg.source, arg.name)

    def _params(
        self, params: tuple[str, ...], bound: dict[str, MessageTemplate], text: ClassText
    ) -> dict[str, MessageTemplate | None]:
        """The parameters' values: as passed, else their literal defaults (a None default
        leaves the class attribute in place: `if description is not None: self.x = ...`)."""
        values: dict[str, MessageTemplate | None] = {}
        for name in params:
            if name in bound:
                values[name] = bound[name]
            elif name in text.defaults:
                literal = _literal(text.defaults[name])
                if not isinstance(literal, _Unknown):
                    values[name] = literal
        return values

    def _method(
        self, instance: _Instance, name: str, start: int = 0
    ) -> tuple[FileFacts, TextMethod, int] | None:
        """The nearest class of the chain (from `start`) that defines the method: its file,
        its returns, and its place in the chain."""
        for at in range(start, len(instance.chain)):
            cls, text = instance.chain[at], instance.texts[at]
            if text is not None and name in text.methods:
                return cls.file, text.methods[name], at
            if name in cls.fact.methods:
                return None  # defined there, but it makes no text we can read
        return None

    def super_str(self, frame: _Frame, depth: int) -> Value:
        """`super().__str__()` in a method of the chain's class `frame.at`: the next
        `__str__` of the chain, else `BaseException`'s (of what reached its `__init__`)."""
        instance = frame.instance
        if any("__str__" in c.fact.methods for c in instance.chain[frame.at + 1 :]):
            owner = self._method(instance, "__str__", frame.at + 1)
            if owner is None or len(owner[1].returns) != 1:
                return UNKNOWN
            return self.fill(owner[1].returns[0], _owned_frame(instance, owner), depth)
        args = instance.args
        if args is None:
            return UNKNOWN
        if len(args) == 1:
            return arg_template(args[0])
        return builtin_str(_builtin_root(instance.chain) or "Exception", args) or UNKNOWN

    # -- evaluating ----------------------------------------------------------------------------

    def fill(self, template: MessageTemplate, frame: _Frame, depth: int) -> MessageTemplate:
        """The template with each placeholder the facts can tell replaced by its value."""
        parts: list[Part] = []
        for part in template.parts:
            if isinstance(part, str):
                parts.append(part)
                continue
            value = self._eval(part.expr, frame, depth)
            if isinstance(value, _Unknown) and part.expr in frame.locals:
                # What the local holds says more than its name: `{kind!r}` is
                # `{type(self._obj).__name__!r}`.
                parts.append(Placeholder(frame.locals[part.expr], part.conversion, part.spec))
            elif isinstance(value, _Unknown):
                parts.append(part)
            elif value is None:
                parts.append("None")
            elif part.conversion == "r":
                parts.extend(quoted(value).parts)
            else:
                parts.extend(value.parts)
        return MessageTemplate.of(*parts)

    def _eval(self, source: str, frame: _Frame, depth: int) -> Value:
        source = source.strip()
        node = _parsed(source)
        if node is None or depth > _DEPTH:
            return UNKNOWN
        return _Evaluation(self, source, frame, depth + 1).value(node)

    def name(self, name: str, frame: _Frame, depth: int) -> Value:
        if name in frame.params:
            return frame.params[name]
        if name in frame.locals:
            return self._eval(frame.locals[name], frame, depth)
        constant = self._constant(frame.facts, name)
        if isinstance(constant, str | int | float):
            return MessageTemplate.of(str(constant))
        return UNKNOWN

    def attribute(self, node: ast.Attribute, frame: _Frame, depth: int) -> Value:
        owner = node.value
        instance = frame.instance
        if node.attr == "__name__" and _is_own_class(owner):
            return MessageTemplate.of(instance.chain[0].fact.name)
        if not (isinstance(owner, ast.Name) and owner.id == "self"):
            return UNKNOWN
        attr = node.attr
        if attr in instance.attrs:
            return instance.attrs[attr]
        for text in instance.texts:
            if text is None:
                continue
            if attr in text.attrs:
                return _literal(text.attrs[attr])
            if attr in text.methods:
                return self.own_method(attr, frame, depth)
        return UNKNOWN

    def own_method(self, name: str, frame: _Frame, depth: int) -> Value:
        """`self.name()` (or the property `self.name`): what it returns, when that is
        one text (a choice among several returns is no value)."""
        owner = self._method(frame.instance, name)
        if owner is None or len(owner[1].returns) != 1:
            return UNKNOWN
        return self.fill(owner[1].returns[0], _owned_frame(frame.instance, owner), depth)

    def entry(self, mapping: ast.expr, key: Value, default: Value, frame: _Frame) -> Value:
        """`TABLE[key]` or `TABLE.get(key, default)` of a module constant."""
        name = ast.unparse(mapping) if isinstance(mapping, ast.Name | ast.Attribute) else None
        table = self._constant(frame.facts, name) if name else None
        if name is not None and self._names.qualify(frame.facts, name) in _STATUS_TABLES:
            found = _phrase(key)
            known = isinstance(key, MessageTemplate) and not key.placeholders
            return found if isinstance(found, MessageTemplate) or not known else default
        if not isinstance(table, dict) or not isinstance(key, MessageTemplate) or key.placeholders:
            return UNKNOWN
        text = key.text
        value = table.get(text, table.get(int(text)) if text.lstrip("-").isdigit() else None)
        if isinstance(value, str | int | float):
            return MessageTemplate.of(str(value))
        return default

    def qualified(self, name: str, frame: _Frame) -> str:
        return self._names.qualify(frame.facts, name) if name else ""

    def _constant(self, facts: FileFacts, name: str) -> object:
        """A module constant by name: the file's (or what it imports), else the one module
        of the version that defines it (a function may import it where it is used)."""
        found = self._names.resolve_constant(facts, name)
        if found is not None:
            return found[0]
        if "." in name:
            return None
        if self._constants is None:
            self._constants = {}
            for module in self._names.modules.values():
                for constant in module.constants:
                    self._constants.setdefault(constant, []).append(module)
        holders = self._constants.get(name, [])
        return holders[0].constants[name] if len(holders) == 1 else None


# Bases that write no `repr()` of their own.
_PLAIN_BASES = frozenset({"object", "ABC", "Generic", "Protocol"})


def _prose(text: MessageTemplate) -> bool:
    """Text that reads as words (`"Invalid input."`), not a value (`-1`, `"utf-8"`)."""
    return any(isinstance(part, str) and " " in part.strip() for part in text.parts)


def _builtin_root(chain: list[ResolvedClass]) -> str | None:
    """The builtin exception the class derives from, when the version says."""
    for cls in chain:
        for base in cls.fact.bases:
            if base in BUILTIN_EXCEPTIONS:
                return base
    return None


def put_text(template: MessageTemplate, expr: str, text: MessageTemplate) -> MessageTemplate:
    """The template with its placeholders of `expr` replaced by `text`."""
    parts: list[Part] = []
    for part in template.parts:
        if isinstance(part, Placeholder) and part.expr == expr:
            parts.extend(text.parts)
        else:
            parts.append(part)
    return MessageTemplate.of(*parts)


def _owned_frame(instance: _Instance, owner: tuple[FileFacts, TextMethod, int]) -> _Frame:
    """Where a method of the chain is evaluated."""
    file, method, at = owner
    return _Frame(instance, file, method.locals, at=at)


def _next_init(chain: list[ResolvedClass], start: int) -> int | None:
    """The index of the first class from `start` that defines `__init__`."""
    return next((i for i in range(start, len(chain)) if "__init__" in chain[i].fact.methods), None)


def _is_super(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and not node.args
    )


def _is_own_class(node: ast.expr) -> bool:
    """`type(self)` or `self.__class__`."""
    if isinstance(node, ast.Call):
        return (
            isinstance(node.func, ast.Name)
            and node.func.id == "type"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "self"
        )
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "__class__"
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _literal(source: str) -> Value:
    """The value of a literal's source: its text, None, or unknown."""
    try:
        value = ast.literal_eval(source)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN
    if value is None:
        return None
    return MessageTemplate.of(str(value)) if isinstance(value, str | int | float) else UNKNOWN


class _Evaluation:
    """One expression's value, its nodes read against the source they were parsed from."""

    def __init__(self, composer: Composer, source: str, frame: _Frame, depth: int) -> None:
        self._composer = composer
        self._source = source
        self._frame = frame
        self._depth = depth

    def value(self, node: ast.expr) -> Value:
        composer, frame, depth = self._composer, self._frame, self._depth
        if isinstance(node, ast.Constant):
            if node.value is None:
                return None
            if isinstance(node.value, str | int | float):
                return MessageTemplate.of(str(node.value))
            return UNKNOWN
        if isinstance(node, ast.Name):
            return composer.name(node.id, frame, depth)
        if isinstance(node, ast.Attribute):
            if node.attr == "phrase" and self._status(node.value):
                # `HTTPStatus(code).phrase`: Python's own table of reason phrases.
                assert isinstance(node.value, ast.Call)
                return _phrase(self.value(node.value.args[0]))
            return composer.attribute(node, frame, depth)
        if isinstance(node, ast.IfExp):
            chosen = self.value(node.body)
            if isinstance(chosen, MessageTemplate):
                return chosen
            other = self.value(node.orelse)
            # (`x.name if x else None` with x unknown: "None" is a guess, the value is not)
            return UNKNOWN if other is None and isinstance(chosen, _Unknown) else other
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            # `message or self.default_message`: the first value that is some text; one
            # the facts cannot tell is taken as not given, so the fallback shows.
            for operand in node.values[:-1]:
                value = self.value(operand)
                if isinstance(value, MessageTemplate) and (value.placeholders or value.text):
                    return value
            return self.value(node.values[-1])
        if isinstance(node, ast.Subscript):
            return composer.entry(node.value, self.value(node.slice), None, frame)
        receiver = formatted_receiver(node)
        if receiver is not None and not isinstance(receiver, ast.Constant | ast.JoinedStr):
            # `self.message % dict(max=self.max)`: the text the receiver holds, formatted.
            text = self.value(receiver)
            built = format_text(node, text) if isinstance(text, MessageTemplate) else None
            return composer.fill(built, frame, depth) if built is not None else UNKNOWN
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.JoinedStr | ast.BinOp):
            built = TemplateBuilder(self._source).build(node)
            return composer.fill(built, frame, depth) if built is not None else UNKNOWN
        return UNKNOWN

    def _status(self, node: ast.expr) -> bool:
        """`HTTPStatus(code)` (or `http.HTTPStatus(code)`)."""
        if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
            return False
        name = ast.unparse(node.func) if isinstance(node.func, ast.Name | ast.Attribute) else ""
        return self._composer.qualified(name, self._frame) == "http.HTTPStatus"

    def _call(self, node: ast.Call) -> Value:
        func = node.func
        if isinstance(func, ast.Name) and func.id in _TEXT_CALLS and len(node.args) == 1:
            return self.value(node.args[0])
        if not isinstance(func, ast.Attribute):
            return UNKNOWN
        owner = func.value
        if func.attr == "__str__" and _is_super(owner) and not node.args:
            return self._composer.super_str(self._frame, self._depth)
        if func.attr in _GETTEXT_METHODS and node.args:
            return self.value(node.args[0])  # a translation object's `self.gettext("...")`
        if isinstance(owner, ast.Name) and owner.id == "self" and not node.args:
            return self._composer.own_method(func.attr, self._frame, self._depth)
        if func.attr == "get" and node.args:
            key = self.value(node.args[0])
            default = self.value(node.args[1]) if len(node.args) > 1 else None
            return self._composer.entry(owner, key, default, self._frame)
        return UNKNOWN


# The standard library's HTTP reason phrases by status code (`http.client.responses`,
# `HTTPStatus(code).phrase`): HTTP exceptions fall back to them when given no detail.
_STATUS_PHRASES = {status.value: status.phrase for status in http.HTTPStatus}
_STATUS_TABLES = frozenset(
    {"http.client.responses", "http.server.BaseHTTPRequestHandler.responses"}
)


def _phrase(code: Value) -> Value:
    """The reason phrase of a status code known as text."""
    if not isinstance(code, MessageTemplate) or code.placeholders or not code.text.isdigit():
        return UNKNOWN
    phrase = _STATUS_PHRASES.get(int(code.text))
    return MessageTemplate.of(phrase) if phrase else UNKNOWN


# Calls that give back the text they are given (`str(x)`, gettext's `_(x)`).
_TEXT_CALLS = frozenset({"str", "_", "gettext", "gettext_lazy", "lazy_gettext"})
_GETTEXT_METHODS = frozenset({"gettext", "ngettext", "gettext_lazy", "lazy_gettext"})


@functools.lru_cache(maxsize=4096)
def _parsed(source: str) -> ast.expr | None:
    try:
        return ast.parse(source.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
