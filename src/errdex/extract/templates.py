"""Expressions to `MessageTemplate`s: literal text kept, computed parts as source placeholders."""

from __future__ import annotations

import ast
import inspect
import string
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TypeAlias

from errdex.extract.conditions import NAME_OR_ATTRIBUTE, dotted_name
from errdex.extract.source_text import source_of
from errdex.facts import MessageTemplate, Part, Placeholder
from errdex.lazy_re import lazy_compile

# One printf-style conversion; `%(key)s` keys with nested parentheses are not supported.
_PERCENT = lazy_compile(
    r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
    r"(?:\.(?P<prec>\*|\d*))?[hlL]?(?P<type>[diouxXeEfFgGcrsa%])"
)
_FIELD_HEAD = lazy_compile(r"[^.\[]*")
_INDEX = lazy_compile(r"\[([^\]]*)\]")
# Placeholders travel through string operations as private-use characters.
_SENTINEL_BASE, _SENTINEL_COUNT = 0xE000, 0x1900
_SENTINEL = lazy_compile("([\ue000-\uf8ff])")
_BIG_NUMBER = lazy_compile(r"\d{4,}")  # a width that would make format() build a huge string
_CONVERSIONS = {115: "s", 114: "r", 97: "a"}
# tuples made once, not a union at each test
_LITERALS = (ast.Constant, ast.JoinedStr)
_STR_BYTES = (str, bytes)
_GETTEXT = {"_", "N_", "gettext", "ugettext", "gettext_lazy", "lazy_gettext", "ngettext"}
_DEDENTS = {"dedent": textwrap.dedent, "cleandoc": inspect.cleandoc}
_DEDENTS |= {f"{f.__module__}.{name}": f for name, f in _DEDENTS.items()}
# Methods that only trim or rewrite literal text, so they apply around placeholders (not
# `upper()` and the like, which would change a placeholder's value too).
_EDGE_METHODS = {"strip", "lstrip", "rstrip", "replace", "removeprefix", "removesuffix"}
_TEXT_FUNCTIONS = {"str", "repr", "ascii", "format", *_GETTEXT, *_DEDENTS}
_TEXT_METHODS = {"format", "format_map", "join", *_EDGE_METHODS}
_ATOMIC = (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.List, ast.Dict, ast.Constant)
_FORMATTER = string.Formatter()
_MISSING = object()

Target: TypeAlias = ast.expr | str  # a node, or the source of an expression made up here
Piece: TypeAlias = Part | MessageTemplate


class TemplateBuilder:
    """Builds templates from expressions of one source text.

    `line_offset` is the number of lines of the parsed text that precede `source`: a node
    at line `n` is on line `n - line_offset` of `source`. `constants` are module-level names
    (dotted names allowed) bound to literals; `locals` are names already known to hold a
    template. Both are inlined.
    """

    def __init__(
        self,
        source: str,
        *,
        line_offset: int = 0,
        constants: Mapping[str, object] | None = None,
        locals: Mapping[str, MessageTemplate] | None = None,
        source_of: Callable[[ast.AST], str] | None = None,
    ) -> None:
        self._source = source
        self._line_offset = line_offset
        # `source_of(source, node)` remembered by whoever made the builder (the walk's
        # `WalkState.source`): a placeholder's text is asked again for the same node there
        self._known_source = source_of
        self._constants: Mapping[str, object] = constants or {}
        self._locals: Mapping[str, MessageTemplate] = locals or {}

    def build(self, node: ast.expr) -> MessageTemplate | None:
        """The template of `node`; None only for the constant `None` (no message at all)."""
        if isinstance(node, ast.Constant) and node.value is None:
            return None
        try:
            return self._tpl(node)
        except RecursionError:  # absurdly deep expressions: keep the source, never crash
            return MessageTemplate.of(Placeholder(self._src(node)))

    def percent(self, fmt: ast.expr, args: Sequence[ast.expr]) -> MessageTemplate:
        """Logging's lazy form `logger.error("x %s y %d", a, b)`."""
        try:
            if not args:  # logging formats only when given arguments: `%%` stays `%%`
                return self._tpl(fmt)
            # A lone mapping argument feeds `%(key)s`, as in logging.
            result = self._percent(fmt, args, args[0] if len(args) == 1 else None)
            return result if result is not None else self._tpl(fmt)
        except RecursionError:
            return MessageTemplate.of(Placeholder(self._src(fmt)))

    # -- expressions ------------------------------------------------------------------------

    def _tpl(self, node: ast.expr, *, check: bool = False) -> MessageTemplate:
        result: MessageTemplate | None = None
        if isinstance(node, ast.Constant):
            result = MessageTemplate.of(_constant_text(node.value))
        elif isinstance(node, ast.JoinedStr):
            result = _join(self._tpl(v) for v in node.values)
        elif isinstance(node, ast.FormattedValue):
            spec = None if node.format_spec is None else _raw(self._tpl(node.format_spec))
            result = self._field(node.value, _CONVERSIONS.get(node.conversion), spec, fstr=True)
        elif isinstance(node, NAME_OR_ATTRIBUTE):
            result = self._named(dotted_name(node))
        elif isinstance(node, ast.BinOp):
            result = self._binop(node)
        elif isinstance(node, ast.Call):
            result = self._call(node)
        elif (last := _or_text(node)) is not None and self._is_text(last):
            # `self.message or _("Not a valid choice.")`: the text a user sees unless the
            # code was given one of its own (which only the values can tell); not `or ""`.
            fallback = self._tpl(last)
            result = fallback if fallback.literal_text.strip() else None
        if result is None:
            result = MessageTemplate.of(Placeholder(self._src(node, check=check)))
        return result

    def _is_text(self, node: ast.expr) -> bool:
        """Whether `node` evaluates to message text (so `+` concatenates and `%` formats)."""
        if isinstance(node, _LITERALS):
            return isinstance(node, ast.JoinedStr) or isinstance(node.value, _STR_BYTES)
        if isinstance(node, NAME_OR_ATTRIBUTE):
            name = dotted_name(node)
            return name in self._locals or isinstance(self._constants.get(name or ""), str)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):
                return any(self._is_text(o) for o in _spine(node))
            if isinstance(node.op, ast.Mult):
                return self._is_text(node.left) or self._is_text(node.right)
            return isinstance(node.op, ast.Mod) and self._is_text(node.left)
        if (last := _or_text(node)) is not None:  # (`x or ""` may be anything)
            return self._is_text(last) and not (isinstance(last, ast.Constant) and not last.value)
        if isinstance(node, ast.Call):
            if dotted_name(node.func) in _TEXT_FUNCTIONS or _is_gettext(node.func):
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr in _TEXT_METHODS:
                recv = node.func.value
                return dotted_name(recv) == "str" or self._is_text(recv)
        return False

    def _named(self, name: str | None) -> MessageTemplate | None:
        if name is not None and name in self._locals:
            return self._locals[name]
        value = self._constants.get(name or "", _MISSING)
        return MessageTemplate.of(str(value)) if isinstance(value, str | int | float) else None

    def _value(self, target: Target) -> object:
        """The literal value behind `target` when it is known, else `_MISSING`."""
        if isinstance(target, ast.Constant):
            return target.value
        name = target if isinstance(target, str) else dotted_name(target)
        if name is not None and name in self._locals:
            local = self._locals[name]
            return _MISSING if local.placeholders else _raw(local)
        value = self._constants.get(name or "", _MISSING)
        return value if isinstance(value, str | int | float) else _MISSING

    def _field(
        self, target: Target, conv: str | None, spec: str | None, *, fstr: bool = False
    ) -> MessageTemplate:
        """One replacement field (`{x!r:>5}`, `%5r`): inlined when its value is known."""
        value = self._value(target)
        if value is not _MISSING and not _BIG_NUMBER.search(spec or ""):
            try:
                shown = repr(value) if conv == "r" else ascii(value) if conv == "a" else value
                return MessageTemplate.of(format(shown, spec or ""))
            except (ValueError, TypeError):
                pass  # a spec that fits only the runtime value: keep a placeholder
        if conv is None and not spec:
            if not isinstance(target, str):
                return self._tpl(target, check=fstr)
            named = self._named(target)
            if named is not None:
                return named
        source = target if isinstance(target, str) else self._src(target, check=fstr)
        return MessageTemplate.of(Placeholder(source, conv, spec or None))

    def _binop(self, node: ast.BinOp) -> MessageTemplate | None:
        if isinstance(node.op, ast.Add):
            operands = _spine(node)
            if any(self._is_text(o) for o in operands):
                return _join(self._tpl(o) for o in operands)
        elif isinstance(node.op, ast.Mod) and self._is_text(node.left):
            if isinstance(node.right, ast.Tuple):
                return self._percent(node.left, node.right.elts, None)
            return self._percent(node.left, None, node.right)
        elif isinstance(node.op, ast.Mult):
            left, right = self._value(node.left), self._value(node.right)
            if isinstance(right, str):
                left, right = right, left
            if isinstance(left, str) and type(right) is int and len(left) * right <= 10_000:
                return MessageTemplate.of(left * right)
        return None

    def _call(self, node: ast.Call) -> MessageTemplate | None:
        name, args, kws = dotted_name(node.func), node.args, node.keywords
        simple = not kws and not any(isinstance(a, ast.Starred) for a in args)
        if name in {"str", "repr", "ascii"} and simple and len(args) == 1:
            return self._field(args[0], {"str": None, "repr": "r"}.get(name, "a"), None)
        if name == "format" and simple and 1 <= len(args) <= 2:
            spec = self._value(args[1]) if len(args) == 2 else ""
            return self._field(args[0], None, spec) if isinstance(spec, str) else None
        if _is_gettext(node.func) and args and self._is_text(args[0]):
            # `_("...")`, `self.gettext("...")`: the untranslated text is what we know
            return self._tpl(args[0])
        if name in _DEDENTS and simple and len(args) == 1 and self._is_text(args[0]):
            return self._transform(args[0], _DEDENTS[name])
        if not isinstance(node.func, ast.Attribute):
            return None
        attr, recv = node.func.attr, node.func.value
        if attr in {"format", "format_map"} and dotted_name(recv) == "str" and args:
            recv, args = args[0], args[1:]  # `str.format(MSG, ...)`
        if not self._is_text(recv):
            return None
        if attr == "format":
            return self._format(recv, args, kws)
        if attr == "format_map" and len(args) == 1:
            return self._format(recv, [], [ast.keyword(arg=None, value=args[0])])
        if attr in _EDGE_METHODS and not kws:
            values = [self._value(a) for a in args]
            if _MISSING in values:
                return None
            method: Callable[[str], object] = lambda text: getattr(text, attr)(*values)  # noqa: E731
            return self._transform(recv, method)
        return None

    def _transform(self, node: ast.expr, fn: Callable[[str], object]) -> MessageTemplate | None:
        """Apply a string function to a template, placeholders standing in as sentinels."""
        base = self._tpl(node)
        encoded = _encode(base)
        if encoded is None:
            return None
        try:
            result = fn(encoded)
        except (TypeError, ValueError):
            return None
        return _decode([result], base.placeholders) if isinstance(result, str) else None

    # -- printf-style and str.format --------------------------------------------------------

    def _percent(
        self, fmt: ast.expr, items: Sequence[ast.expr] | None, whole: ast.expr | None
    ) -> MessageTemplate | None:
        """`fmt % args`: `items` are the separate arguments, `whole` the single right side."""
        base = self._tpl(fmt)
        text = _encode(base)
        if text is None:
            return None
        matches = list(_PERCENT.finditer(text))
        slots = sum(
            (m["type"] != "%") + (m["width"] == "*") + (m["prec"] == "*")
            for m in matches
            if m["key"] is None
        )
        taken = iter(range(len(text)))

        def take() -> Target | None:
            index = next(taken)
            if items is not None:
                return self._nth(items, index)
            if whole is None:
                return None
            # A lone right side is the argument itself, or a tuple held in a variable.
            return whole if slots == 1 else f"{self._wrapped(whole)}[{index}]"

        def star(token: str | None) -> str | None:
            target = take() if token == "*" else None
            return token if target is None else _raw(self._field(target, None, None))

        out: list[Piece] = []
        pos = 0
        for m in matches:
            out.append(text[pos : m.start()])
            pos = m.end()
            if m["type"] == "%":
                out.append("%")
                continue
            if m["key"] is not None and _SENTINEL.search(m["key"]):
                return None  # a placeholder inside `%(...)s`
            width, prec = star(m["width"]), star(m["prec"])
            target: Target | None = take() if m["key"] is None else m["key"]
            if m["key"] is not None and whole is not None:
                target = self._lookup(whole, m["key"])
            if target is None:  # more conversions than arguments: keep the spec itself
                out.append(Placeholder(m[0]))
                continue
            conv, spec = _printf_spec(m["flags"], width, prec, m["type"])
            out.append(self._field(target, conv, spec))
        out.append(text[pos:])
        return _decode(out, base.placeholders)

    def _format(
        self, fmt: ast.expr, args: Sequence[ast.expr], kws: Sequence[ast.keyword]
    ) -> MessageTemplate | None:
        base = self._tpl(fmt)
        text = _encode(base)
        if text is None:
            return None
        try:
            pieces = self._format_pieces(text, args, kws, iter(range(len(text))))
        except (ValueError, StopIteration):  # malformed: an unbalanced `{`, a bad field
            return None
        return _decode(pieces, base.placeholders)

    def _format_pieces(
        self, text: str, args: Sequence[ast.expr], kws: Sequence[ast.keyword], auto: Iterator[int]
    ) -> list[Piece]:
        out: list[Piece] = []
        for literal, field, spec, conv in _FORMATTER.parse(text):
            out.append(literal)
            if field is None:
                continue
            if _SENTINEL.search(field):  # a placeholder inside `{...}`: no field we can name
                raise ValueError(field)
            head = _FIELD_HEAD.match(field)[0]  # type: ignore[index]  # always matches
            target: Target | None
            if not head or head.isdigit():
                target = self._nth(args, int(head) if head else next(auto))
            else:
                target = self._keyword(kws, head)
            if target is None:
                target = field  # no such argument: keep the field as written
            elif head != field:
                target = self._wrapped(target) + _accessors(field[len(head) :])
            if spec and "{" in spec:  # nested fields, numbered after the field's own
                spec = _raw(_join(self._format_pieces(spec, args, kws, auto)))
            out.append(self._field(target, conv, spec))
        return out

    def _nth(self, items: Sequence[ast.expr], index: int) -> Target | None:
        """The `index`th positional argument; past a `*args`, an index into it."""
        for i, item in enumerate(items):
            if isinstance(item, ast.Starred):
                return f"{self._wrapped(item.value)}[{index - i}]"
            if i == index:
                return item
        return None

    def _keyword(self, kws: Sequence[ast.keyword], name: str) -> Target | None:
        found = next((k.value for k in kws if k.arg == name), None)
        splat = next((k.value for k in kws if k.arg is None), None)  # `**kwargs`
        return found if found is not None or splat is None else self._lookup(splat, name)

    def _lookup(self, mapping: ast.expr, key: str) -> Target:
        """`mapping[key]` for `%(key)s` and `**mapping`."""
        if isinstance(mapping, ast.Dict):
            keys = [k.value if isinstance(k, ast.Constant) else None for k in mapping.keys]
            return mapping.values[keys.index(key)] if key in keys else key
        if isinstance(mapping, ast.Call):
            func = dotted_name(mapping.func)
            if func in {"locals", "globals", "vars"} and not mapping.args:
                return key  # the name itself, inlined when a local or constant
            if func == "dict" and not mapping.args:
                return self._keyword(mapping.keywords, key) or key
        if isinstance(mapping, ast.Attribute) and mapping.attr == "__dict__":
            return f"{self._wrapped(mapping.value)}.{key}"
        return f"{self._wrapped(mapping)}[{key!r}]"

    def _src(self, node: ast.AST, *, check: bool = False) -> str:
        if self._known_source is not None and not check and not self._line_offset:
            return self._known_source(node)
        return source_of(self._source, node, self._line_offset, check=check)

    def _wrapped(self, target: Target) -> str:
        """Source to put before `[i]` or `.attr`: parenthesized unless atomic."""
        if isinstance(target, str):
            return target
        source = self._src(target)
        return source if isinstance(target, _ATOMIC) else f"({source})"


def _or_text(node: ast.expr) -> ast.expr | None:
    """The last value of `a or b`: the fallback, when the others are empty or None."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return node.values[-1]
    return None


def _is_gettext(func: ast.expr) -> bool:
    """`_`, `gettext`, ... or a translation object's method of those names
    (`self.gettext`, `field.ngettext`)."""
    if isinstance(func, ast.Attribute):
        return func.attr in _GETTEXT and func.attr != "_"
    return isinstance(func, ast.Name) and func.id in _GETTEXT


def _spine(node: ast.BinOp) -> list[ast.expr]:
    """The operands of a left-nested `a + b + c`, iteratively (chains can be very long)."""
    operands: list[ast.expr] = []
    current: ast.expr = node
    while isinstance(current, ast.BinOp) and isinstance(current.op, ast.Add):
        operands.append(current.right)
        current = current.left
    operands.append(current)
    return operands[::-1]


def _accessors(rest: str) -> str:
    """A format field's `.attr[key][0]` as Python: `.attr['key'][0]`."""
    return _INDEX.sub(lambda m: f"[{m[1] if m[1].isdigit() else repr(m[1])}]", rest)


def _printf_spec(
    flags: str, width: str | None, prec: str | None, kind: str
) -> tuple[str | None, str | None]:
    """A printf conversion as a conversion and a format spec: `%-10s` → `<10`, `%5r` → r, `>5`."""
    textual = kind in "sra"
    align = "<" if "-" in flags else ">" if width and textual else ""
    sign = "+" if "+" in flags else " " if " " in flags else ""
    alternate = "#" if "#" in flags else ""
    zero = "0" if "0" in flags and not align and not textual else ""
    precision = "" if prec is None else f".{prec or 0}"
    code = "" if textual else "d" if kind in "iu" else kind
    spec = f"{align}{sign}{alternate}{zero}{width or ''}{precision}{code}"
    return (kind if kind in "ra" else None), spec or None


def _constant_text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    return value if isinstance(value, str) else str(value)


def _raw(template: MessageTemplate) -> str:
    """Literal text as is (`.text` doubles its braces), placeholders rendered: a spec's text."""
    return "".join(p if isinstance(p, str) else p.render() for p in template.parts)


def _join(pieces: Iterable[Piece]) -> MessageTemplate:
    parts: list[Part] = []
    for piece in pieces:
        parts.extend(piece.parts if isinstance(piece, MessageTemplate) else (piece,))
    return MessageTemplate.of(*parts)


def _encode(template: MessageTemplate) -> str | None:
    """The template's text with each placeholder as one private-use character."""
    out: list[str] = []
    count = 0
    for part in template.parts:
        if isinstance(part, Placeholder):
            out.append(chr(_SENTINEL_BASE + count))
            count += 1
        elif _SENTINEL.search(part):
            return None  # the text itself uses these characters: no safe stand-in
        else:
            out.append(part)
    return "".join(out) if count < _SENTINEL_COUNT else None


def _decode(pieces: Iterable[Piece], placeholders: Sequence[Placeholder]) -> MessageTemplate:
    out: list[Piece] = []
    for piece in pieces:
        if not isinstance(piece, str):
            out.append(piece)
            continue
        for chunk in _SENTINEL.split(piece):
            index = ord(chunk) - _SENTINEL_BASE if len(chunk) == 1 else -1
            out.append(placeholders[index] if 0 <= index < len(placeholders) else chunk)
    return _join(out)
