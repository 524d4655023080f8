"""What a statement or call looks like: the AST shapes that make (or feed) an error site."""

from __future__ import annotations

import ast
import builtins
import re
import sys
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from errdex.extract.conditions import NAME_OR_ATTRIBUTE, dotted_name
from errdex.lazy_re import lazy_compile

# The names of a method's own object, its first parameter: the instance, or the class.
OWN_OBJECT = ("self", "cls")
# how an attribute of the object's own starts (`self.runner`)
OWN_ATTRIBUTE = tuple(f"{name}." for name in OWN_OBJECT)

# Methods that run while the object is made, inside the caller's own call of the class (a
# dataclass's `__post_init__`): their checks are of that call's keywords.
CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__"})

LOG_LEVELS = frozenset({"warning", "warn", "error", "exception", "critical", "fatal"})
LOGGER_NAME = lazy_compile(r"^_*(?:[A-Za-z0-9]+_)*(?:log|logger|logging|LOG|LOGGER)$", re.I)
LOG_LEVEL_ARG = lazy_compile(r"(?:logging\.)?(WARNING|WARN|ERROR|CRITICAL|FATAL)$")
WARN_FUNCS = frozenset({"warnings.warn", "warn", "warnings.warn_explicit", "_warnings.warn"})
EXIT_FUNCS = frozenset({"sys.exit", "exit", "quit"})
MESSAGE_KEYWORDS = ("msg", "message", "detail", "reason", "text", "description", "error")
# Parameter names a message is passed on in (`def warn(msg): _warn(msg, SAWarning)`).
MESSAGE_PARAMS = frozenset({*MESSAGE_KEYWORDS, "warning", "err_msg", "error_msg", "warn_msg"})
JOIN = lazy_compile(r"\.join\(\s*(?:sorted\(\s*)?([A-Za-z_]\w*)\s*\)?\s*\)")
# Calls that take strings all day and never raise with them: not raising-helper candidates.
NOT_HELPERS = frozenset(
    "print append extend add insert join format get pop setdefault startswith endswith split "
    "replace strip lstrip rstrip write info debug encode decode register_buffer update find "
    "index count lower upper getattr setattr hasattr isinstance open compile match search sub "
    "fullmatch __init__ super dict list set tuple str repr len".split()
)
# An error code given before a message (`"value_error"`, `"sequence_str"`): lower-case words
# joined by underscores, at least two of them.
_ERROR_CODE = lazy_compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
# A member of the object that holds a message (`self.message`, `self.default_msg`).
# (`self` first and a look-behind for the start of its word, not a leading `\b`, which the
# engine tries at every character)
MESSAGE_MEMBER = lazy_compile(r"self(?<!\wself)\.\w*(?:message|msg)\w*")
# `self.error_messages[key]`: a message table looked up by a key (see `KeyedHelper`). The
# name is the whole run of word characters before `[`: a look-ahead for the `[` (the name
# taken possessively) fails at once at most `self.`, before the words are looked for in it.
KEYED_LOOKUP = lazy_compile(r"self\.(?=\w*+\[)(?=\w*(?i:message|error|msg))\w*+\[\s*(\w+)\s*\]")
# The text last scanned for `KEYED_LOOKUP` and where its matches start (`keyed_lookups`).
_KEYED_IN: tuple[str, tuple[int, ...]] = ("", ())


def keyed_lookups(text: str) -> tuple[int, ...]:
    """Where each `KEYED_LOOKUP` of `text` starts: one scan of a file's text for both the
    skeleton and the definitions that ask (each scan tries the pattern at every `self.`).
    The last text is known by identity, which costs nothing, where hashing it would cost
    a pass over it."""
    global _KEYED_IN
    last = _KEYED_IN
    if last[0] is text:
        return last[1]
    found = tuple(m.start() for m in KEYED_LOOKUP.finditer(text))
    _KEYED_IN = (text, found)
    return found


def receiver(func: ast.Name | ast.Attribute) -> str | None:
    if isinstance(func, ast.Name):
        return None
    target = func.value
    if (
        isinstance(target, ast.Call)
        and isinstance(target.func, ast.Name)
        and target.func.id == "super"
        and not target.args
    ):
        return SUPER  # the method of a base of the caller's class
    return dotted_name(target) or "..."


SUPER = "super()"


_CLASS_NAME = lazy_compile(r"(?:\w+\.)*[A-Z]\w*(?:Error|Exception|Warning)$")


def looks_like_exception_class(written: str) -> bool:
    """`ValidationError`, `errors.ConfigException`, `UserWarning`: named as exceptions are."""
    return _CLASS_NAME.match(written) is not None


# `name.format(...)`, `name.format_map(...)`, `name % ...` as written in a placeholder.
_FORMATTED = lazy_compile(r"([A-Za-z_]\w*)\s*(?:\.\s*format(?:_map)?\s*\(|%)")


def formatted_name(expr: str) -> str | None:
    """The name whose text the expression formats (`msg.format(*args)`, `msg % args`:
    `msg`), or None."""
    found = _FORMATTED.match(expr)
    if found is None:
        return None
    try:
        node = ast.parse(expr, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        target: ast.expr = node.left
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "format_map")
    ):
        target = node.func.value
    else:
        return None
    return target.id if isinstance(target, ast.Name) else None


def is_factory(call: ast.Call) -> bool:
    """`make_error(SomeError, "...")`: a lower-case callee given an exception class first."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if not name or name[0].isupper() or not call.args:
        return False
    first = call.args[0]
    written = dotted_name(first) if isinstance(first, NAME_OR_ATTRIBUTE) else None
    return written is not None and looks_like_exception_class(written)


def self_attribute(node: ast.expr) -> str | None:
    """The attribute's name when the node is `self.<name>`, else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr if node.value.id == "self" else None
    return None


def and_parts(node: ast.expr) -> list[ast.expr]:
    """The parts of a test that all hold: the operands of an `a and b`, else the test whole."""
    return node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) else [node]


def is_none(node: ast.expr | None) -> bool:
    """Whether `node` is the literal `None`."""
    return isinstance(node, ast.Constant) and node.value is None


def without_docstring(statements: list[ast.stmt]) -> list[ast.stmt]:
    """`statements` with the docstring (or any bare constant) aside."""
    return [
        s for s in statements if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]


def is_name(node: ast.AST, name: str) -> bool:
    """Whether `node` is the plain name `name`."""
    return isinstance(node, ast.Name) and node.id == name


def is_not_none(node: ast.expr) -> ast.expr | None:
    """`X` of `X is not None`, else None."""
    return _compared_to_none(node, ast.IsNot)


def is_none_test(node: ast.expr) -> ast.expr | None:
    """`X` of `X is None`, else None."""
    return _compared_to_none(node, ast.Is)


def _compared_to_none(node: ast.expr, op: type[ast.cmpop]) -> ast.expr | None:
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], op)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    ):
        return node.left
    return None


def copied_chain(value: ast.expr) -> str | None:
    """The attribute chain an assigned value copies as it is, or behind a default for
    its object's absence: `cfg.x`, `(cfg.x)`, `cfg.x if cfg is not None else "auto"`,
    `cfg.x or "auto"`. None for anything else (a call, arithmetic, a comparison): what
    the attribute holds is then not the setting's value. The chain's root is a name or
    `self`, with at least one attribute after it."""
    if isinstance(value, ast.IfExp):
        chain = copied_chain(value.body)
        if chain is None or not isinstance(value.orelse, ast.Constant):
            return None
        # `if cfg is not None` (or `if cfg`) of the chain's own object, or a prefix of it
        test = is_not_none(value.test) or value.test
        held = dotted_name(test) if isinstance(test, ast.Name | ast.Attribute) else None
        return chain if held is not None and chain.startswith(held + ".") else None
    if isinstance(value, ast.BoolOp):
        if not isinstance(value.op, ast.Or) or len(value.values) != 2:
            return None
        if not isinstance(value.values[1], ast.Constant):
            return None
        return copied_chain(value.values[0])
    if not isinstance(value, ast.Attribute):
        return None
    chain = dotted_name(value)
    return chain if chain is not None and "." in chain else None


# Calls that give back the dict they are handed, or a copy of it: its keys are the same.
_DICT_COPIES = frozenset({"copy", "deepcopy", "dict"})
# Calls around a key's value that keep a value of the compared type (`bool(d.pop("k", False))`)
_KEPT_CONVERSIONS = frozenset({"str", "int", "float", "bool"})


def held_dict(value: ast.expr) -> str | None:
    """The attribute chain whose dict `value` holds as it is, a copy of it or behind an
    empty fallback: `cfg.extra`, `copy(cfg.extra or {})`, `dict(cfg.extra)`,
    `copy.deepcopy(cfg.extra) or {}`. None for anything else."""
    for _ in range(4):
        if isinstance(value, ast.BoolOp):
            empty = value.values[-1] if len(value.values) == 2 else None
            if not isinstance(value.op, ast.Or) or not (
                (isinstance(empty, ast.Dict) and not empty.keys)
                or (isinstance(empty, ast.Call) and _called(empty) == "dict" and not empty.args)
            ):
                return None
            value = value.values[0]
        elif isinstance(value, ast.Call):
            if _called(value) not in _DICT_COPIES or len(value.args) != 1 or value.keywords:
                return None
            value = value.args[0]
        else:
            break
    if not isinstance(value, ast.Attribute):
        return None
    chain = dotted_name(value)
    return chain if chain is not None and "." in chain else None


def _called(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def copied_key(value: ast.expr, dicts: Mapping[str, str]) -> str | None:
    """One key read of a dict (`d.get("k", default)`, `d.pop("k")`, `d["k"]`, up to a
    conversion that keeps the type), written with the dict's chain in place of a local
    that holds it (`dicts`: local → chain) or as it is: `cfg.extra.pop('k', True)`. None
    for anything else, and for a default that is not a literal."""
    while (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in _KEPT_CONVERSIONS
        and len(value.args) == 1
        and not value.keywords
    ):
        value = value.args[0]
    if isinstance(value, ast.Subscript):
        holder, key, rest = value.value, value.slice, ""
    elif (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        # `get`/`pop` of the dict, or a getter of the object holding it with the key as its
        # argument (`cfg.get_from_extra_config("k", True)`: the linker knows which method
        # returns which dict's key, `PropertyFact.gets_key`)
        and (value.func.attr in ("get", "pop") or value.func.attr.startswith("get_"))
        and 1 <= len(value.args) <= 2
        and not value.keywords
    ):
        holder, key = value.func.value, value.args[0]
        if len(value.args) == 2 and not isinstance(value.args[1], ast.Constant):
            return None  # what leaving the key out gives is worked out elsewhere
        rest = ", " + ast.unparse(value.args[1]) if len(value.args) == 2 else ""
    else:
        return None
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return None
    if not key.value.isidentifier():
        return None
    chain = dicts.get(holder.id) if isinstance(holder, ast.Name) else held_dict(holder)
    if chain is None:
        return None
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return f"{chain}[{key.value!r}]"
    return f"{chain}.{value.func.attr}({key.value!r}{rest})"


def tested_absent(test: ast.expr) -> ast.expr | None:
    """What `not X` or `X is None` tests is missing: X; None for any other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and is_none(test.comparators[0])
    ):
        return test.left
    return None


def isinstance_test(node: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """(`x`, `K`) of the test `isinstance(x, K)`; None for any other node."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
    ):
        return node.args[0], node.args[1]
    return None


def isinstance_of(node: ast.expr, name: str) -> ast.expr | None:
    """The class argument `K` of the test `isinstance(name, K)`; None for any other."""
    found = isinstance_test(node)
    if found is not None and isinstance(found[0], ast.Name) and found[0].id == name:
        return found[1]
    return None


def raised_call(node: ast.expr) -> ast.expr:
    """What a `raise` that chooses its exception makes when it makes one: the call in
    `raise error or ValueError("...")` (the fallback when none was given) and in
    `raise A("...") if strict else B("...")` (the first). Anything else as it is."""
    chosen = node
    while True:
        if isinstance(chosen, ast.BoolOp) and isinstance(chosen.op, ast.Or):
            chosen = chosen.values[-1]
        elif isinstance(chosen, ast.IfExp):
            chosen = chosen.body if isinstance(chosen.body, ast.Call) else chosen.orelse
        else:
            return chosen if isinstance(chosen, ast.Call) else node


def message_arg(call: ast.Call) -> ast.expr | None:
    # `ConstructorError(None, None, "could not determine ...", mark)`: leading Nones are
    # the context a class's other arguments leave out.
    first = next((a for a in call.args if not is_none(a)), None)
    if first is not None and not isinstance(first, ast.Starred):
        return _template_after_code(call, first) or first
    for name in MESSAGE_KEYWORDS:
        found = keyword(call, name)
        if found is not None:
            return found
    return None


def _template_after_code(call: ast.Call, first: ast.expr) -> ast.expr | None:
    """The message of a class that takes an error code first and the text after it
    (`CustomError("value_error", "value is not valid: {reason}", {"reason": why})`): the
    text, filled from the mapping that follows it as the class fills it (`{reason}` is
    the mapping's entry); None for any other call. A builtin exception prints the tuple of
    its arguments, so the shape is not read there."""
    args = call.args
    at = args.index(first)
    if (
        len(args) < at + 2
        or not isinstance(first, ast.Constant)
        or not isinstance(first.value, str)
        or not _ERROR_CODE.fullmatch(first.value)
        or _builtin_exception(call.func)
    ):
        return None
    text = args[at + 1]
    if not (
        isinstance(text, ast.JoinedStr)
        or (isinstance(text, ast.Constant) and isinstance(text.value, str) and " " in text.value)
    ):
        return None
    context = args[at + 2] if len(args) > at + 2 else None
    if (
        not isinstance(text, ast.Constant)
        or "{" not in str(text.value)
        or not isinstance(context, ast.Dict | ast.Name)
    ):
        return text
    # The mapping fills the text's fields: read as `text.format(**context)`.
    filled = ast.Call(ast.Attribute(text, "format", ast.Load()), [], [ast.keyword(None, context)])
    return ast.copy_location(filled, text)


def _builtin_exception(func: ast.expr) -> bool:
    found = getattr(builtins, func.id, None) if isinstance(func, ast.Name) else None
    return isinstance(found, type) and issubclass(found, BaseException)


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def is_stringy(node: ast.expr, constants: Mapping[str, Any]) -> bool:
    """Whether an expression plausibly evaluates to message text."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Name):
        return isinstance(constants.get(node.id), str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
        return is_stringy(node.left, constants) or is_stringy(node.right, constants)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        last = node.values[-1]  # `self.message or _("...")`, not `message or ""`
        return is_stringy(last, constants) and not (
            isinstance(last, ast.Constant) and not last.value
        )
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in ("gettext", "ngettext", "lazy_gettext", "gettext_lazy"):
            # A translation object's method (`field.gettext("...")`).
            return bool(node.args) and is_stringy(node.args[0], constants)
        return node.func.attr in ("format", "join", "strip", "dedent") and (
            is_stringy(node.func.value, constants)
            or bool(node.args and is_stringy(node.args[0], constants))
        )
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return (
            node.func.id in ("_", "gettext", "ngettext", "dedent")
            and bool(node.args)
            and is_stringy(node.args[0], constants)
        )
    return False


def names_imported_constant(node: ast.expr, imports: Mapping[str, str]) -> bool:
    """Whether an expression names what is most likely another module's constant: a name
    in capitals that an import from outside the standard library binds (`NOT_FOUND`,
    `messages.NOT_FOUND`). Whether it holds text only the linker can say."""
    name = dotted_name(node) if isinstance(node, NAME_OR_ATTRIBUTE) else None
    if name is None or not name.rpartition(".")[2].isupper():
        return False
    target = imports.get(name.partition(".")[0])
    return target is not None and target.partition(".")[0] not in sys.stdlib_module_names


def annotated_classes(annotation: ast.expr | None) -> list[str]:
    """The classes an annotation says its value may be, as written: `Foo`, `mod.Foo`, each
    of `A | B` and `Union[A, B]`, that of `Optional[A]`, a forward reference `"Foo"`. A
    builtin (`int`), typing's `Any` and a generic (`list[Foo]`) name no class."""
    found = [name for node in _alternatives(annotation) if (name := _class_name(node))]
    return list(dict.fromkeys(found))


def annotated_class(annotation: ast.expr | None) -> str | None:
    """The one class an annotation names (`annotated_classes`), None when it admits
    anything else than that class and `None` (`A | B`, `Foo | int`, `list[Foo]`)."""
    if annotation is None:
        return None  # most parameters: no annotation to read
    sides = _alternatives(annotation)
    return _class_name(sides[0]) if len(sides) == 1 else None


def _alternatives(annotation: ast.expr | None) -> list[ast.expr]:
    """What an annotation admits besides `None`: the sides of `|`, the members of `Union`,
    the inside of `Optional`, through forward references."""
    node = annotation
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        node = annotation_in(node.value)
    if node is None or is_none(node):
        return []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _alternatives(node.left) + _alternatives(node.right)
    if isinstance(node, ast.Subscript):
        wrapper = dotted_name(node.value) or ""
        inner = node.slice
        if _wrapper_is(wrapper, "Optional"):
            return _alternatives(inner)
        if _wrapper_is(wrapper, "Union"):
            members = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            return [side for member in members for side in _alternatives(member)]
    return [node]


def _class_name(node: ast.expr) -> str | None:
    name = dotted_name(node) if isinstance(node, NAME_OR_ATTRIBUTE) else None
    if name is None or name in BUILTIN_NAMES or name.rpartition(".")[2] in _TYPING_SPECIALS:
        return None  # `int`, `Any`: never the version's
    return name


BUILTIN_NAMES = frozenset(vars(builtins))
_TYPING_SPECIALS = frozenset({"Any", "NoReturn", "Never", "Self", "LiteralString"})


def _wrapper_is(wrapper: str, name: str) -> bool:
    r"""Whether a dotted name is `name` or one module's `name` (`Optional`,
    `typing.Optional`): `(?:\w+\.)?name$` told without a regex, which costs more than the
    rest of an annotation's reading (`\w` is what `str.isalnum` takes, and `_`)."""
    if wrapper == name:
        return True
    head, _, last = wrapper.rpartition(".")
    return last == name and head.replace("_", "a").isalnum()


def annotation_in(text: str) -> ast.expr | None:
    """The annotation a string holds (a forward reference: `"Foo"`)."""
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None


def call_shape(call: ast.Call) -> str | None:
    """`get_foo()`, `self.info.parse()`: the dotted name a call calls, with `()`; a method
    of an object that is no name is `?.parse()` (`make_parser().parse(data)`)."""
    func = call.func
    name = dotted_name(func) if isinstance(func, NAME_OR_ATTRIBUTE) else None
    if name is None and isinstance(func, ast.Attribute):
        name = f"?.{func.attr}"
    return f"{name}()" if name is not None else None


def is_parser_error(func: ast.expr) -> bool:
    """`parser.error(...)`, `self.parser.error(...)`: argparse's and optparse's way to print
    the usage and `prog: error: message`, then exit."""
    if not isinstance(func, ast.Attribute) or func.attr != "error":
        return False
    receiver = func.value
    name = receiver.attr if isinstance(receiver, ast.Attribute) else None
    if isinstance(receiver, ast.Name):
        name = receiver.id
    return name is not None and name.lower().lstrip("_").endswith("parser")


def is_reasons_call(call: ast.Call) -> bool:
    func = call.func
    return isinstance(func, ast.Name) or (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
    )


def log_level(func: ast.Attribute, call: ast.Call) -> str | None:
    method = func.attr.removesuffix("_once")
    if method not in LOG_LEVELS and (method != "log" or not call.args):
        return None  # most method calls: the receiver's name is not even read
    receiver = func.value
    name = receiver.attr if isinstance(receiver, ast.Attribute) else None
    if isinstance(receiver, ast.Name):
        name = receiver.id
    elif isinstance(receiver, ast.Call):  # logging.getLogger(__name__).error(...)
        callee = receiver.func
        name = callee.attr if isinstance(callee, ast.Attribute) else None
        name = "logger" if name == "getLogger" else None
    if name is None or not LOGGER_NAME.match(name):
        return None
    if method in LOG_LEVELS:
        return "warning" if method == "warn" else method
    if method == "log" and call.args:
        return level_from_first_arg(call)
    return None


def level_from_first_arg(call: ast.Call) -> str | None:
    """`logger.log(logging.ERROR, ...)`: the level when it is warning or above."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr.removesuffix("_once") == "log"):
        return None
    if not call.args:
        return None
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, int) and first.value >= 30:
        return {30: "warning", 40: "error", 50: "critical"}.get(first.value, "error")
    text = ast.unparse(first) if isinstance(first, ast.Attribute | ast.Name) else ""
    match = LOG_LEVEL_ARG.search(text)
    if match:
        level = match.group(1).lower()
        return {"warn": "warning", "fatal": "critical"}.get(level, level)
    return None


def always_exits(body: list[ast.stmt]) -> bool:
    """Whether a block never falls through to what follows it."""
    last = body[-1] if body else None
    if isinstance(last, ast.Return | ast.Raise | ast.Continue | ast.Break):
        return True
    if isinstance(last, ast.If) and last.orelse:
        return always_exits(last.body) and always_exits(last.orelse)
    if isinstance(last, ast.With | ast.AsyncWith):
        return always_exits(last.body)
    if isinstance(last, ast.Try | ast.TryStar):
        if last.finalbody and always_exits(last.finalbody):
            return True
        body_exits = always_exits(last.body) or bool(last.orelse and always_exits(last.orelse))
        return body_exits and all(always_exits(h.body) for h in last.handlers)
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        return is_exit_call(last.value)
    return False


def surely_assigned(body: list[ast.stmt]) -> set[str] | None:
    """The local names every way through a block assigns (`x = ...` in both branches of an
    `if`/`else`), or None when no way falls through, which leaves nothing to replace."""
    if always_exits(body):
        return None
    names: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            if isinstance(stmt.target, ast.Name):
                names.add(stmt.target.id)
        elif isinstance(stmt, ast.If) and stmt.orelse:
            names |= branches_assign(stmt)
    return names


def branches_assign(stmt: ast.If) -> set[str]:
    """The names each branch of an `if` with an `else` (or `elif` chain ending in one)
    assigns, counting a branch that exits as assigning them all."""
    body, orelse = surely_assigned(stmt.body), surely_assigned(stmt.orelse)
    if body is None:
        return orelse or set()
    return body if orelse is None else body & orelse


def assigned_after(body: list[ast.stmt], line: int) -> set[str]:
    """The names a function's statements bind after `line` (its nested functions' aside)."""
    names: set[str] = set()
    stack: list[ast.AST] = [stmt for stmt in body if (stmt.end_lineno or stmt.lineno) > line]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            if node.lineno > line:
                names.add(node.id)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return names


def is_exit_call(call: ast.Call) -> bool:
    """`sys.exit(...)`, `os._exit(...)`, `pytest.fail(...)`: calls that never return."""
    name = dotted_name(call.func) if isinstance(call.func, NAME_OR_ATTRIBUTE) else None
    return name in ("sys.exit", "exit", "quit", "os._exit", "os.abort")


def single_binding(stmt: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """(target, value) of a statement binding one target to a value (`x = v`,
    `x: T = v`); None for any other (`a = b = v`, a bare `x: T`)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        return stmt.targets[0], stmt.value
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        return stmt.target, stmt.value
    return None


def own_attributes_set(stmt: ast.stmt) -> list[tuple[str, ast.expr]]:
    """`self.X = value` (or annotated): each attribute of the instance the statement
    assigns, with the value; nothing for any other statement."""
    if not isinstance(stmt, ast.Assign | ast.AnnAssign) or stmt.value is None:
        return []
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    return [
        (target.attr, stmt.value)
        for target in targets
        if isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    ]


def statements_under(root: ast.AST) -> Iterator[ast.AST]:
    """`root` and the statements under it (with except clauses and match cases) in the
    order `ast.walk` gives them, breadth first, without walking expressions, which hold
    none: the same statements in the same order, at a fraction of the cost."""
    queue = deque([root])
    while queue:
        node = queue.popleft()
        kind = type(node)
        fields = _BLOCK_FIELDS.get(kind)
        if fields is None:
            fields = _BLOCK_FIELDS[kind] = _block_fields(kind)
        for field in fields:
            # only the lists of statements, in the order of the node's fields: no
            # expression is gone through (`iter_child_nodes` yields every one)
            queue.extend(c for c in getattr(node, field) if isinstance(c, _STATEMENT_NODES))
        yield node


_STATEMENT_NODES = (ast.stmt, ast.excepthandler, ast.match_case)
_BLOCK_FIELDS: dict[type, tuple[str, ...]] = {}


def _block_fields(kind: type) -> tuple[str, ...]:
    """The fields of a node of `kind` that hold a list of statements, handlers or cases
    (an expression's `body` or `orelse`, `lambda`'s or `a if b else c`'s, holds none)."""
    if not issubclass(kind, (ast.Module, ast.Interactive, *_STATEMENT_NODES)):
        return ()
    blocks = ("body", "orelse", "finalbody", "handlers", "cases")
    return tuple(f for f in kind._fields if f in blocks)
