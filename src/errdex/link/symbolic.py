"""Symbolic evaluation of the expressions that compose an exception's text.

An exception's `__str__`, properties and `__init__` read what the raise gave it, what its
`__init__`s stored on `self`, class attributes each subclass overrides, module constants,
gettext calls and HTTP reason phrases. Each is evaluated over its extracted source: a value
the facts cannot tell stays a placeholder, so lookup still extracts it from a paste.
"""

from __future__ import annotations

import ast
import functools

import msgspec

from errdex.extract.templates import TemplateBuilder
from errdex.facts import Arg, ClassText, FileFacts, MessageTemplate, Part, Placeholder, TextMethod
from errdex.link.builtin_text import arg_template, builtin_str, quoted
from errdex.link.messages import format_text, formatted_receiver
from errdex.link.resolve import BUILTIN_EXCEPTIONS, Namespace, ResolvedClass

__all__ = [
    "DEPTH",
    "UNKNOWN",
    "Evaluator",
    "Frame",
    "Instance",
    "Value",
    "builtin_root",
    "literal",
    "owned_frame",
    "parsed",
]

DEPTH = 6  # how deep a property may read another, a local another local


class _Unknown:
    """A value the facts cannot tell: the placeholder stays."""


UNKNOWN = _Unknown()
# A value: text (a template, maybe with placeholders), Python's None, or unknown.
Value = MessageTemplate | None | _Unknown


class Instance(msgspec.Struct):
    """An exception object as the raise built it."""

    chain: list[ResolvedClass]  # the class raised, then its bases the version defines
    texts: list[ClassText | None]  # each one's `ClassText`
    attrs: dict[str, MessageTemplate | None] = msgspec.field(default_factory=dict)  # set on `self`
    # What reached `BaseException.__init__`, when the facts tell.
    args: tuple[Arg, ...] | None = None


class Frame(msgspec.Struct):
    """Where an expression is evaluated: an instance, and a function's locals and params."""

    instance: Instance
    facts: FileFacts  # the file of the function, for its constants
    locals: dict[str, str] = msgspec.field(default_factory=dict)
    params: dict[str, MessageTemplate | None] = msgspec.field(default_factory=dict)
    at: int = 0  # the class of the chain whose method this is (for `super()`)


class Evaluator:
    """The value of an expression's source where an exception's method reads it: what its
    instance holds, the method's locals and parameters, the version's constants."""

    def __init__(self, names: Namespace) -> None:
        self._names = names
        self._constants: dict[str, list[FileFacts]] | None = None

    def method(
        self, instance: Instance, name: str, start: int = 0
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

    def super_str(self, frame: Frame, depth: int) -> Value:
        """`super().__str__()` in a method of the chain's class `frame.at`: the next
        `__str__` of the chain, else `BaseException`'s (of what reached its `__init__`)."""
        instance = frame.instance
        if any("__str__" in c.fact.methods for c in instance.chain[frame.at + 1 :]):
            owner = self.method(instance, "__str__", frame.at + 1)
            if owner is None or len(owner[1].returns) != 1:
                return UNKNOWN
            return self.fill(owner[1].returns[0], owned_frame(instance, owner), depth)
        args = instance.args
        if args is None:
            return UNKNOWN
        if len(args) == 1:
            return arg_template(args[0])
        return builtin_str(builtin_root(instance.chain) or "Exception", args) or UNKNOWN

    def fill(self, template: MessageTemplate, frame: Frame, depth: int) -> MessageTemplate:
        """The template with each placeholder the facts can tell replaced by its value."""
        parts: list[Part] = []
        for part in template.parts:
            if isinstance(part, str):
                parts.append(part)
                continue
            value = self.evaluate(part.expr, frame, depth)
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

    def evaluate(self, source: str, frame: Frame, depth: int) -> Value:
        source = source.strip()
        node = parsed(source)
        if node is None or depth > DEPTH:
            return UNKNOWN
        return _Evaluation(self, source, frame, depth + 1).value(node)

    def name(self, name: str, frame: Frame, depth: int) -> Value:
        if name in frame.params:
            return frame.params[name]
        if name in frame.locals:
            return self.evaluate(frame.locals[name], frame, depth)
        constant = self._constant(frame.facts, name)
        if isinstance(constant, str | int | float):
            return MessageTemplate.of(str(constant))
        return UNKNOWN

    def attribute(self, node: ast.Attribute, frame: Frame, depth: int) -> Value:
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
                return literal(text.attrs[attr])
            if attr in text.methods:
                return self.own_method(attr, frame, depth)
        return UNKNOWN

    def own_method(self, name: str, frame: Frame, depth: int) -> Value:
        """`self.name()` (or the property `self.name`): what it returns, when that is
        one text (a choice among several returns is no value)."""
        owner = self.method(frame.instance, name)
        if owner is None or len(owner[1].returns) != 1 or owner[1].params:
            return UNKNOWN
        return self.fill(owner[1].returns[0], owned_frame(frame.instance, owner), depth)

    def called_method(
        self, name: str, given: list[Value], keywords: dict[str, Value], frame: Frame, depth: int
    ) -> Value:
        """`self.name(...)` of a method that formats the values it is given: its one
        returned text, each parameter what the call passes (one not known, or left to its
        default, stays open)."""
        owner = self.method(frame.instance, name)
        if owner is None or len(owner[1].returns) != 1:
            return UNKNOWN
        params = owner[1].params
        if not params or len(given) > len(params) or not set(keywords) <= set(params):
            return UNKNOWN
        values = dict(zip(params, given, strict=False)) | keywords
        method_frame = owned_frame(frame.instance, owner)
        for param in params:
            value = values.get(param, UNKNOWN)
            if value is not None and not isinstance(value, MessageTemplate):
                value = MessageTemplate.of(Placeholder(param))
            method_frame.params[param] = value
        return self.fill(owner[1].returns[0], method_frame, depth)

    def entry(self, mapping: ast.expr, key: Value, default: Value, frame: Frame) -> Value:
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

    def qualified(self, name: str, frame: Frame) -> str:
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


def builtin_root(chain: list[ResolvedClass]) -> str | None:
    """The builtin exception the class derives from, when the version says."""
    for cls in chain:
        for base in cls.fact.bases:
            if base in BUILTIN_EXCEPTIONS:
                return base
    return None


def owned_frame(instance: Instance, owner: tuple[FileFacts, TextMethod, int]) -> Frame:
    """Where a method of the chain is evaluated."""
    file, method, at = owner
    return Frame(instance, file, method.locals, at=at)


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


@functools.lru_cache(maxsize=4096)
def literal(source: str) -> Value:
    """The value of a literal's source: its text, None, or unknown (once per source: the
    values are immutable, and the same defaults are read for every call)."""
    try:
        value = ast.literal_eval(source)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN
    if value is None:
        return None
    return MessageTemplate.of(str(value)) if isinstance(value, str | int | float) else UNKNOWN


class _Evaluation:
    """One expression's value, its nodes read against the source they were parsed from."""

    def __init__(self, evaluator: Evaluator, source: str, frame: Frame, depth: int) -> None:
        self._evaluator = evaluator
        self._source = source
        self._frame = frame
        self._depth = depth

    def value(self, node: ast.expr) -> Value:
        evaluator, frame, depth = self._evaluator, self._frame, self._depth
        if isinstance(node, ast.Constant):
            if node.value is None:
                return None
            if isinstance(node.value, str | int | float):
                return MessageTemplate.of(str(node.value))
            return UNKNOWN
        if isinstance(node, ast.Name):
            return evaluator.name(node.id, frame, depth)
        if isinstance(node, ast.Attribute):
            if node.attr == "phrase" and self._status(node.value):
                # `HTTPStatus(code).phrase`: Python's own table of reason phrases.
                assert isinstance(node.value, ast.Call)
                return _phrase(self.value(node.value.args[0]))
            return evaluator.attribute(node, frame, depth)
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
            return evaluator.entry(node.value, self.value(node.slice), None, frame)
        receiver = formatted_receiver(node)
        if receiver is not None and not isinstance(receiver, ast.Constant | ast.JoinedStr):
            # `self.message % dict(max=self.max)`: the text the receiver holds, formatted.
            text = self.value(receiver)
            built = format_text(node, text) if isinstance(text, MessageTemplate) else None
            return evaluator.fill(built, frame, depth) if built is not None else UNKNOWN
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.JoinedStr | ast.BinOp):
            built = TemplateBuilder(self._source).build(node)
            return evaluator.fill(built, frame, depth) if built is not None else UNKNOWN
        return UNKNOWN

    def _passed(self, node: ast.expr) -> Value:
        """An argument's value, else the argument itself left open (`{self.token.line}`)."""
        value = self.value(node)
        if value is None or isinstance(value, MessageTemplate):
            return value
        source = ast.get_source_segment(self._source, node)
        return MessageTemplate.of(Placeholder(source)) if source else UNKNOWN

    def _status(self, node: ast.expr) -> bool:
        """`HTTPStatus(code)` (or `http.HTTPStatus(code)`)."""
        if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
            return False
        name = ast.unparse(node.func) if isinstance(node.func, ast.Name | ast.Attribute) else ""
        return self._evaluator.qualified(name, self._frame) == "http.HTTPStatus"

    def _call(self, node: ast.Call) -> Value:
        func = node.func
        if isinstance(func, ast.Name) and func.id in _TEXT_CALLS and len(node.args) == 1:
            return self.value(node.args[0])
        if not isinstance(func, ast.Attribute):
            return UNKNOWN
        owner = func.value
        if func.attr == "__str__" and _is_super(owner) and not node.args:
            return self._evaluator.super_str(self._frame, self._depth)
        if func.attr in _GETTEXT_METHODS and node.args:
            return self.value(node.args[0])  # a translation object's `self.gettext("...")`
        if isinstance(owner, ast.Name) and owner.id == "self":
            if not node.args and not node.keywords:
                return self._evaluator.own_method(func.attr, self._frame, self._depth)
            if any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords
            ):
                return UNKNOWN
            given = [self._passed(a) for a in node.args]
            keywords = {k.arg: self._passed(k.value) for k in node.keywords if k.arg is not None}
            return self._evaluator.called_method(
                func.attr, given, keywords, self._frame, self._depth
            )
        if func.attr == "get" and node.args:
            key = self.value(node.args[0])
            default = self.value(node.args[1]) if len(node.args) > 1 else None
            return self._evaluator.entry(owner, key, default, self._frame)
        return UNKNOWN


@functools.cache
def _status_phrases() -> dict[int, str]:
    """The standard library's HTTP reason phrases by status code (`http.client.responses`,
    `HTTPStatus(code).phrase`): HTTP exceptions fall back to them when given no detail.
    Read when first asked: making `HTTPStatus` is most of what importing `http` costs."""
    import http

    return {status.value: status.phrase for status in http.HTTPStatus}


_STATUS_TABLES = frozenset(
    {"http.client.responses", "http.server.BaseHTTPRequestHandler.responses"}
)


def _phrase(code: Value) -> Value:
    """The reason phrase of a status code known as text."""
    if not isinstance(code, MessageTemplate) or code.placeholders or not code.text.isdigit():
        return UNKNOWN
    phrase = _status_phrases().get(int(code.text))
    return MessageTemplate.of(phrase) if phrase else UNKNOWN


# Calls that give back the text they are given (`str(x)`, gettext's `_(x)`).
_TEXT_CALLS = frozenset({"str", "_", "gettext", "gettext_lazy", "lazy_gettext"})
_GETTEXT_METHODS = frozenset({"gettext", "ngettext", "gettext_lazy", "lazy_gettext"})


@functools.lru_cache(maxsize=4096)
def parsed(source: str) -> ast.expr | None:
    try:
        return ast.parse(source.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
