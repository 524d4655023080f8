"""A message's placeholders in a solution's text, said in the user's terms: the value when
the index knows it, else the user's value named.

A solution quotes the message ("Valid tasks are: {list(VALID_TASKS)}") or is built from it
("Give argument {key!r} a value that is {expected}"). Braces and the code inside them are no
instruction a user can read. A placeholder of the site's own message whose names are
literals the index holds (a module constant, a local assigned a literal, a literal list,
set or dict, a builtin or class name) is shown as Python prints it (`['action', 'query']`);
any other is the user's value and reads as a name of theirs (`KEY`, `EXPECTED`), with
`Solution.fills` keeping the placeholder so that a lookup puts in the value of their paste.
Code the solution quotes (an f-string in backticks) is left as it is.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

import msgspec

from errdex.ast_walk import walk
from errdex.explain.context import Facts, lines_of
from errdex.explain.literal_members import assigned_at, imported_text, statement_at
from errdex.explain.page import Solution
from errdex.facts import SiteKind
from errdex.link.expression_texts import parse_expression

# a standard format spec (`.2f`, `>10`, `,d`): what may follow `:` in a placeholder
_SPEC = re.compile(r"(?:.?[<>=^])?[+\- ]?z?#?0?\d*[,_]?(?:\.\d+)?[bcdeEfFgGnosxX%]?")
_CONVERSION = re.compile(r"!([rsa])$")
# the names an error value usually has in a message (`{e}`, `{exc}`)
_ERRORS = frozenset({"e", "exc", "err", "error", "ex", "exception"})
# calls that print their first argument as it is, or a form of it
_WRAPPERS = frozenset({"str", "repr", "list", "sorted", "tuple", "set", "frozenset", "format"})
_TYPE_NAMES = frozenset(
    {"str", "int", "float", "bytes", "bool", "list", "dict", "tuple", "set", "frozenset",
     "type", "object", "complex", "bytearray", "range"}
)  # fmt: skip
_CONSTANT_NAME = re.compile(r"_*[A-Z][A-Z0-9_]*")
# methods that read a collection (`TABLE.get(key)`, `MAP.keys()`): no change to it
_READS = tuple(
    f".{m}("
    for m in ("get", "keys", "values", "items", "copy", "index", "count", "format", "join",
              "startswith", "endswith", "split", "lower", "upper", "strip", "replace")
)  # fmt: skip
# an f-string opened in code the solution quotes: its braces are the code's
_F_STRING = re.compile(r"\b[fF][rR]?['\"]")
_MAX_DEPTH = 4
_MAX_ITEMS = 40


@dataclass(frozen=True)
class Braced:
    """A placeholder found in a text: where it is, its expression, conversion and spec."""

    start: int
    end: int  # the text[start:end] is the placeholder with its braces
    expr: ast.expr
    conversion: str | None
    spec: str


def worded(
    facts: Facts, solutions: list[Solution], text_of: Callable[[str], str | None]
) -> list[Solution]:
    """The solutions with each placeholder of a message put in as its value or as a word
    naming the user's value. `text_of(path)` reads another file of the version (for a
    constant imported by the site's file)."""
    if not any("{" in s.text for s in solutions):
        return solutions  # most pages: nothing to read
    known = _Known(facts, text_of)
    return [_worded(s, known) for s in solutions]


def _worded(solution: Solution, known: _Known) -> Solution:
    text = solution.text
    found = list(placeholders(text))
    if not found:
        printed = _printed(text, 0, len(text))
        return solution if printed == text else msgspec.structs.replace(solution, text=printed)
    fills = dict(solution.fills)
    taken = set(re.findall(r"\b[A-Z][A-Z0-9_]*\b", text))
    words: dict[str, str] = {}
    out: list[str] = []
    at = 0
    for placeholder in found:
        raw = text[placeholder.start : placeholder.end]
        out.append(_printed(text, at, placeholder.start))
        at = placeholder.end
        code = _in_code(text, placeholder.start)
        if code and _F_STRING.search(
            text, text.rfind("`", 0, placeholder.start), placeholder.start
        ):
            out.append(raw)  # an f-string of the code the solution quotes
            continue
        bare = code or _in_quote(text, placeholder.start) or _in_word(text, placeholder)
        shown = known.shown(placeholder, raw)
        if shown is not None:
            out.append(shown if bare else f"`{shown}`")
            continue
        word = words.get(raw)
        if word is None:
            word = word_for(placeholder.expr)
            if word == _own_name(placeholder.expr) and word in taken:
                # the constant the check tests, named in the text as well (`x not in
                # KV_CACHE_DTYPES`): the same name, which a lookup's value must not replace
                words[raw] = word
            else:
                word = _free(word, taken)
                taken.add(word)
                words[raw] = word
                fills[word] = raw
        out.append(word if bare else f"`{word}`")
    out.append(_printed(text, at, len(text)))
    return msgspec.structs.replace(solution, text="".join(out), fills=fills)


def _printed(text: str, start: int, end: int) -> str:
    """`text[start:end]`, the message's quoted words in it with their literal braces as
    they print: the template doubles them (`{{1, 2}}` is `{1, 2}` on the screen)."""
    piece = text[start:end]
    if "{{" not in piece and "}}" not in piece:
        return piece
    out: list[str] = []
    index = start
    while index < end:
        pair = text[index : index + 2]
        if pair in ("{{", "}}") and index + 2 <= end and _in_quote(text, index):
            out.append(pair[0])
            index += 2
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


def placeholders(text: str) -> Iterator[Braced]:
    """The `{expr}`, `{expr!r}`, `{expr:spec}` of a text that name something (a literal in
    braces, `{6}` of a pattern or a set `{'a', 'b'}`, and doubled braces are no placeholder)."""
    index = 0
    while (start := text.find("{", index)) >= 0:
        if text.startswith("{{", start):
            index = start + 2
            continue
        end = _closing(text, start)
        if end is None:
            return
        index = end
        parsed = _parsed(text[start + 1 : end - 1])
        if parsed is not None:
            yield Braced(start, end, *parsed)


def _closing(text: str, start: int) -> int | None:
    """The index after the brace that closes the one at `start`."""
    depth = 0
    for index in range(start, min(len(text), start + 400)):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        elif char == "\n":
            return None
    return None


def _parsed(content: str) -> tuple[ast.expr, str | None, str] | None:
    """(expression, conversion, spec) of a placeholder's inside; None when it is no
    expression of names."""
    if not content.strip() or content != content.strip():
        return None
    tries = [(content, "")]
    tries += [(content[:i], content[i + 1 :]) for i, c in enumerate(content) if c == ":"]
    for expr_text, spec in tries:
        if spec and _SPEC.fullmatch(spec) is None:
            continue
        conversion = _CONVERSION.search(expr_text)
        if conversion is not None:
            expr_text = expr_text[: conversion.start()]
        node = parse_expression(expr_text)
        if node is None:
            continue
        if not any(isinstance(n, ast.Name) for n in walk(node)):
            return None  # a literal in braces, not a placeholder
        return node, conversion.group(1) if conversion else None, spec
    return None


def _in_code(text: str, index: int) -> bool:
    """Whether `index` is inside a backtick span."""
    return text.count("`", 0, index) % 2 == 1


def _in_quote(text: str, index: int) -> bool:
    """Whether `index` is inside a “quote” (the message's words, or a name it prints)."""
    return text.rfind("“", 0, index) > text.rfind("”", 0, index)


def _in_word(text: str, placeholder: Braced) -> bool:
    """Whether the placeholder is part of a longer token (`'--{name}'`, `"{base}"`,
    `{major}.{minor}`): a name put there reads without backticks."""
    before = text[placeholder.start - 1] if placeholder.start else " "
    after = text[placeholder.end : placeholder.end + 2] + "  "
    ends = after[0].isspace() or (after[0] in ".,:;)" and after[1].isspace())
    return not (before.isspace() or before == "(") or not ends


def _own_name(node: ast.expr) -> str | None:
    """The upper-case name a placeholder that is one name or attribute has, or the
    constant's name it prints a form of (`sorted(SUPPORTED_OPS)`)."""
    if isinstance(node, ast.Name):
        return node.id.strip("_").upper()
    if isinstance(node, ast.Attribute):
        return node.attr.strip("_").upper()
    word = word_for(node)
    for inner in walk(node):
        name = inner.id if isinstance(inner, ast.Name) else getattr(inner, "attr", None)
        if name and _CONSTANT_NAME.fullmatch(name) and name.strip("_") == word:
            return word
    return None


def _free(word: str, taken: set[str]) -> str:
    """The word, or a numbered form of it when the text already holds it."""
    if word not in taken:
        return word
    for number in range(2, 100):
        if (numbered := f"{word}_{number}") not in taken:
            return numbered
    return word


def word_for(node: ast.expr) -> str:
    """The upper-case name a user's value of `node` reads as: `{key!r}` → `KEY`,
    `{self.name.title()}` → `NAME`, `{", ".join(map(repr, self.choices))}` → `CHOICES`."""
    # (a class's CamelCase name in words: `KVCacheLayout` → `KV_CACHE_LAYOUT`)
    word = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", _word(node))
    word = word.strip("_").upper()
    return word if re.fullmatch(r"[A-Z][A-Z0-9_]*", word) else "VALUE"


def _word(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        if node.id in _ERRORS:
            return "error"
        return "value" if len(node.id) == 1 else node.id
    if isinstance(node, ast.Attribute):
        if node.attr in ("__name__", "__qualname__", "__class__"):
            return _class_word(node.value)
        return node.attr
    if isinstance(node, ast.Call):
        return _call_word(node)
    if isinstance(node, ast.Subscript):
        index = node.slice
        if isinstance(index, ast.Constant) and isinstance(index.value, str):
            return index.value
        base = _word(node.value)
        if isinstance(index, ast.Constant) and isinstance(index.value, int):
            return f"{base}_{index.value}"
        return base
    if isinstance(node, ast.Starred):
        return _word(node.value)
    if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp) and node.generators:
        return _word(node.generators[0].iter)  # `[m.name for m in KVCacheLayout]`
    return "value"


def _class_word(node: ast.expr) -> str:
    """`type(self).__name__`, `self.__class__.__name__`, `cls.__name__`: the class's name."""
    if isinstance(node, ast.Name) and node.id in ("self", "cls"):
        return "class_name"
    if isinstance(node, ast.Attribute) and node.attr == "__class__":
        return _class_word(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type":
        inner = node.args[0] if node.args else None
        if inner is None or (isinstance(inner, ast.Name) and inner.id in ("self", "cls")):
            return "class_name"
        return f"{_word(inner)}_type"
    return _word(node)


def _call_word(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Constant) and node.args:
            return _word(node.args[0])  # `", ".join(x)`
        if not node.args and func.attr.startswith("get_"):
            return func.attr[4:]  # `config.get_min_capability()`
        if isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
            return func.attr  # `self._describe_range()`
        return _word(func.value)  # `self.name.title()`, `x.lower()`
    if isinstance(func, ast.Name):
        if func.id == "len" and node.args:
            return f"{_word(node.args[0])}_count"
        if func.id == "type" and node.args:
            return f"{_word(node.args[0])}_type"
        if func.id == "getattr" and len(node.args) >= 2:
            return f"{_word(node.args[1])}_value"
        if func.id == "map" and node.args:
            return _word(node.args[-1])
        if node.args and (func.id in _WRAPPERS or not func.id.startswith("_")):
            return _word(node.args[0])  # `format_filename(value)`
        return func.id  # `_cutlass_version()`
    return "value"


class _Opaque:
    """A value the index does not know (a dict's value of a call): a dict holding it still
    has its keys."""


_OPAQUE = _Opaque()


class _Type:
    """A class named in a message: printed by its name."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__


class _View(list[object]):
    """A dict's `keys()` or `values()`: its items, printed as Python prints the view."""

    def __init__(self, kind: str, items: Iterable[object]) -> None:
        super().__init__(items)
        self.kind = kind


class _Frozen(frozenset[object]):
    """A `frozenset(...)`, which prints its name (a set display, a `set(...)` does not)."""


class _Unknown(Exception):
    pass


class _Known:
    """The values of the site's own message's names that the index holds as literals."""

    def __init__(self, facts: Facts, text_of: Callable[[str], str | None]) -> None:
        self.facts = facts
        self.text_of = text_of
        site = facts.stored.site
        # a helper's message is bound to another function's names: its values are not read
        own = site.message is not None and site.kind != SiteKind.HELPER
        self.own = (
            {p.render() for p in site.message.placeholders} if own and site.message else set()
        )
        self.locals = {b.name: b.value for b in facts.bindings if b.origin == "local"}
        self.fixed: dict[str, bool] = {}
        self.constants = {b.name: b.value for b in facts.bindings if b.origin == "constant"}
        self.module: dict[str, ast.expr | None] = {}

    def shown(self, placeholder: Braced, raw: str) -> str | None:
        """The placeholder as the message prints it, when its value is known."""
        if raw not in self.own:
            return None
        try:
            value = self._value(placeholder.expr, 0)
            if _holds_opaque(value):
                return None
            if placeholder.conversion == "r":
                return _repr(value)
            if placeholder.conversion is None and not placeholder.spec:
                return value if isinstance(value, str) else _repr(value)
            return format(value, placeholder.spec) if not placeholder.conversion else None
        except (_Unknown, ValueError, TypeError, RecursionError):
            return None

    def _value(self, node: ast.expr, depth: int) -> object:
        if depth > _MAX_DEPTH:
            raise _Unknown
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            items = [self._value(e, depth) for e in node.elts]
            if isinstance(node, ast.List):
                return items
            return tuple(items) if isinstance(node, ast.Tuple) else frozenset(items)
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise _Unknown
            keys = [self._value(k, depth) for k in node.keys if k is not None]
            return dict(zip(keys, (self._maybe(v, depth) for v in node.values), strict=True))
        if isinstance(node, ast.Name):
            return self._name(node.id, depth)
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        if isinstance(node, ast.Subscript):
            base = self._value(node.value, depth)
            index = self._value(node.slice, depth)
            if isinstance(base, list | tuple | dict | str):
                return base[index]  # type: ignore[index,call-overload]
            raise _Unknown
        if isinstance(node, ast.Attribute) and node.attr == "__name__":
            value = self._value(node.value, depth)
            if isinstance(value, _Type):
                return value.name
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            assigned = self._class_value(node.value.id, node.attr)
            if assigned is not None:
                return self._value(assigned, depth + 1)
        raise _Unknown

    def _maybe(self, node: ast.expr, depth: int) -> object:
        try:
            return self._value(node, depth)
        except _Unknown:
            return _OPAQUE

    def _name(self, name: str, depth: int) -> object:
        if name in self.locals:
            if not self._fixed(name):
                raise _Unknown  # assigned again, in a loop or a branch, or changed in place
            return self._value(_expression(self.locals[name]), depth + 1)
        if name in _TYPE_NAMES:
            return _Type(name)
        if _CONSTANT_NAME.fullmatch(name) is None:
            if name[:1].isupper():
                return _Type(name)  # a class (`AliasChoices`)
            raise _Unknown  # a parameter, a local the index holds no literal for
        node = self._module_value(name)
        if node is not None:
            return self._value(node, depth + 1)
        # the linker's value of a constant: its collections are written as lists (a
        # tuple's too), so only a single value is taken as it prints
        if name not in self.constants:
            raise _Unknown
        value = self._value(_expression(self.constants[name]), depth + 1)
        if isinstance(value, list | tuple | frozenset | dict):
            raise _Unknown
        return value

    def _fixed(self, name: str) -> bool:
        """Whether the local is assigned once in the site's function and never changed."""
        if name not in self.fixed:
            function = self.facts.site_function()
            self.fixed[name] = function is not None and assigned_once(function, name)
        return self.fixed[name]

    def _class_value(self, owner: str, name: str) -> ast.expr | None:
        """The literal the body of the site's class assigns a constant it reads as
        `self.NAME`, `cls.NAME` or `Class.NAME`, when the file assigns that name nowhere
        else and changes it nowhere."""
        if _CONSTANT_NAME.fullmatch(name) is None:
            return None
        own = self.facts.own_class()
        if own is None or owner not in ("self", "cls", own.name):
            return None
        text = self.facts.source_text or ""
        header = re.compile(rf"^[ \t]*{re.escape(name)}\s*(?::[^=\n]*)?=(?!=)", re.M)
        assigned = re.search(rf"\.{re.escape(name)}\s*=(?!=)", text)
        if assigned or _changed(text, rf"\.{re.escape(name)}") or len(header.findall(text)) != 1:
            return None
        for statement in own.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
            elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                target = statement.target
            else:
                continue
            if isinstance(target, ast.Name) and target.id == name:
                return statement.value
        return None

    def _module_value(self, name: str) -> ast.expr | None:
        """The literal a top-level `NAME = ...` of the site's file (or the module it
        imports the name from, a package's `__init__.py` too) assigns."""
        if name not in self.module:
            text = self.facts.source_text
            node = _assigned(text, name) if text is not None else None
            if node is None and text is not None:
                other = imported_text(text, name, self.facts.stored.file, self.text_of)
                node = _assigned(other, name) if other is not None else None
            self.module[name] = node
        return self.module[name]

    def _call(self, node: ast.Call, depth: int) -> object:
        if node.keywords:
            raise _Unknown
        func = node.func
        if isinstance(func, ast.Name) and len(node.args) == 1:
            value = self._value(node.args[0], depth)
            return _called(func.id, value)
        if isinstance(func, ast.Name) and func.id == "map" and len(node.args) == 2:
            how = node.args[0]
            if isinstance(how, ast.Name) and how.id in ("repr", "str"):
                items = _items(self._value(node.args[1], depth))
                return [repr(i) if how.id == "repr" else str(i) for i in items]
        if isinstance(func, ast.Attribute):
            owner = self._value(func.value, depth)
            args = [self._value(a, depth) for a in node.args]
            if isinstance(owner, dict) and not args and func.attr in ("keys", "values"):
                return _View(
                    f"dict_{func.attr}", owner.keys() if func.attr == "keys" else owner.values()
                )
            if isinstance(owner, str) and func.attr == "join" and len(args) == 1:
                items = _items(args[0])
                if all(isinstance(i, str) for i in items):
                    return owner.join(items)  # type: ignore[arg-type]
        raise _Unknown


def assigned_once(function: ast.FunctionDef, name: str) -> bool:
    """Whether `name` is bound once in the function, by a plain assignment, and nothing
    changes it in place after (no item or attribute set, no method called on it)."""
    if name in {a.arg for a in walk(function.args) if isinstance(a, ast.arg)}:
        return False
    stores = 0
    for node in walk(function):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            stores += 1
        elif isinstance(node, ast.Attribute | ast.Subscript):
            base = node.value
            if isinstance(base, ast.Name) and base.id == name:
                return False  # `x.append(...)`, `x[k] = v`: it changes after its assignment
        elif isinstance(node, ast.AugAssign | ast.Global | ast.Nonlocal):
            target = getattr(node, "target", None)
            if isinstance(target, ast.Name) and target.id == name:
                return False
            if name in getattr(node, "names", ()):
                return False
    return stores == 1


def _called(name: str, value: object) -> object:
    if name in ("list", "tuple"):
        items = _items(value)
        return items if name == "list" else tuple(items)
    if name in ("set", "frozenset"):
        return frozenset(_items(value)) if name == "set" else _Frozen(_items(value))
    if name == "sorted":
        return sorted(_items(value), key=_sort_key)
    if name == "len" and isinstance(value, list | tuple | dict | frozenset | str):
        return len(value)
    if name == "str":
        return value if isinstance(value, str) else _repr(value)
    if name == "repr":
        return _repr(value)
    raise _Unknown


def _items(value: object) -> list[object]:
    """A collection's items in the order Python gives them; a set's sorted (its order is
    the hash's: any order is the one the user may see)."""
    if isinstance(value, frozenset):
        return sorted(value, key=_sort_key)
    if isinstance(value, list | tuple | str):
        return list(value)
    if isinstance(value, dict):
        return list(value)
    raise _Unknown


def _sort_key(value: object) -> tuple[str, str]:
    return (type(value).__name__, repr(value))


def _repr(value: object) -> str:
    if len(_flat(value)) > _MAX_ITEMS:
        raise _Unknown  # too long to read as a solution
    if isinstance(value, frozenset):
        shown = "{" + ", ".join(_repr(v) for v in _items(value)) + "}" if value else ""
        if isinstance(value, _Frozen):
            return f"frozenset({shown})"
        return shown or "set()"
    if isinstance(value, list):
        listed = "[" + ", ".join(_repr(v) for v in value) + "]"
        return f"{value.kind}({listed})" if isinstance(value, _View) else listed
    if isinstance(value, tuple):
        inner = ", ".join(_repr(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_repr(k)}: {_repr(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _flat(value: object) -> list[object]:
    if isinstance(value, list | tuple | frozenset):
        return [x for v in value for x in _flat(v)] or [value]
    if isinstance(value, dict):
        return [*value, *(x for v in value.values() for x in _flat(v))]
    return [value]


def _holds_opaque(value: object) -> bool:
    return any(v is _OPAQUE for v in _flat(value))


def _expression(text: str) -> ast.expr:
    node = parse_expression(text)
    if node is None:
        raise _Unknown
    return node


def _changed(text: str, name: str) -> bool:
    """Whether the text changes what the pattern `name` names in place: a method called
    on it other than one that reads, an item set, an augmented assignment."""
    found = re.finditer(rf"{name}(?:\.[a-z_]+\(|\[[^\]\n]*\]\s*=(?!=)|\s*[-+|&]=)", text)
    return any(not m.group(0).endswith(_READS) for m in found)


def _assigned(text: str, name: str) -> ast.expr | None:
    """The value of the one top-level assignment `name = ...` in a module's text (None
    when it is assigned more than once, or not at all, or the module changes it in place:
    `KV_CACHE_DTYPES.append(name)` of a registry)."""
    lines = lines_of(text)
    starts = assigned_at(lines, name)
    if len(starts) != 1 or _changed(text, rf"\b{re.escape(name)}"):
        return None
    statement = statement_at(lines, starts[0])
    if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
        return statement.value
    return None


def fill_words(text: str, fills: Mapping[str, str], value: Callable[[str], str]) -> str:
    """A solution's text with each word a user's value was named by replaced by the value
    their paste holds (`value(placeholder)` gives it, or the placeholder unchanged)."""
    for word, placeholder in fills.items():
        given = value(placeholder)
        if given == placeholder:
            continue
        text = re.sub(rf"\b{re.escape(word)}\b", given.replace("\\", "\\\\"), text)
    return text
