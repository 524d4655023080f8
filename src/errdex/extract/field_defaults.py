"""The defaults a command line starts from: of an arguments or configuration class's fields,
and of an argparse flag's declaration.

A fix that turns a yes/no flag off must know where it starts: leaving out a flag whose
field defaults to `True` (`swa_bounded_replay: bool = True`, given to the command line as
`--swa-bounded-replay`/`--no-swa-bounded-replay`) leaves it on.
"""

from __future__ import annotations

import ast

from errdex.lazy_re import lazy_compile

# `action="store_true"`, `action=argparse.BooleanOptionalAction` in an `add_argument` call
_ACTION = lazy_compile(
    r"""\baction\s*=\s*(?:["'](store_true|store_false)["']|(?:argparse\.)?(BooleanOptionalAction)\b)"""
)
_DEFAULT = lazy_compile(r"\bdefault\s*=\s*(True|False|None)\s*[,)]")
_MAX_CALL = 800  # characters of an `add_argument(` call read for its keywords
# what `call_arguments` stops at: outside a string, and inside one of each quote
_CALL_MARK = lazy_compile(r"[\"'#()\[\]{}]")
_STRING_MARK = {'"': lazy_compile(r'[\\"]'), "'": lazy_compile(r"[\\']")}


# a string default longer than this is no value a page writes
_MAX_LITERAL = 60


def field_defaults(body: list[ast.stmt]) -> dict[str, str]:
    """`name: T = <default>` of a class body, each default a literal as `repr` writes it
    (`"True"`, `"0"`, `"'auto'"`), also inside `Field(default=...)`/`field(default=...)`,
    or another class's field as the generators of flags write it (`CacheConfig.x`,
    `get_field(CacheConfig, "x")`: `"CacheConfig.x"`)."""
    found: dict[str, str] = {}
    for item in body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        value = _default_of(item.value)
        if value is not None:
            found[item.target.id] = value
    return found


def optional_bools(body: list[ast.stmt], keys: tuple[str, ...]) -> tuple[str, ...]:
    """Those of `keys` the class body declares a yes/no or None (`x: bool | None = None`,
    `Optional[bool]`): a key whose `true` and `false` its validator takes."""
    found: list[str] = []
    for item in body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        if item.target.id in keys and _optional_bool(item.annotation):
            found.append(item.target.id)
    return tuple(found)


def _optional_bool(annotation: ast.expr) -> bool:
    """`bool | None`, `None | bool`, `Optional[bool]` (`typing.` too)."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = {ast.unparse(annotation.left), ast.unparse(annotation.right)}
        return sides == {"bool", "None"}
    if isinstance(annotation, ast.Subscript):
        head = ast.unparse(annotation.value)
        return head in ("Optional", "typing.Optional") and ast.unparse(annotation.slice) == "bool"
    return False


def _default_of(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant | ast.UnaryOp):
        return literal_text(node)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    if not isinstance(node, ast.Call):
        return None
    name = node.func.id if isinstance(node.func, ast.Name) else None
    if name == "get_field" and len(node.args) == 2:
        owner, attr = node.args
        if (
            isinstance(owner, ast.Name)
            and isinstance(attr, ast.Constant)
            and isinstance(attr.value, str)
        ):
            return f"{owner.id}.{attr.value}"
    if name in ("Field", "field"):
        for keyword in node.keywords:
            if keyword.arg == "default":
                return literal_text(keyword.value)
    return None


def literal_text(node: ast.expr) -> str | None:
    """A plain literal as `repr` writes it: `True`, `None`, `0`, `-1`, `0.5`, `'auto'` (a
    string up to `_MAX_LITERAL` characters); None for anything else."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = literal_text(node.operand)
        return f"-{inner}" if inner is not None and inner[:1].isdigit() else None
    if not isinstance(node, ast.Constant):
        return None
    value = node.value
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    if isinstance(value, str) and len(value) <= _MAX_LITERAL:
        return repr(value)
    return None


def flag_form(text: str, start: int) -> tuple[bool, bool, str | None]:
    """(takes no value, has a `--no-x` form, its default) of the `add_argument(` call whose
    arguments start at `start` of `text`: read up to the parenthesis that closes it."""
    call = call_arguments(text, start)
    if "action" not in call and "default" not in call:
        return False, False, None  # most calls: a type, a help text, `**kwargs`
    action = _ACTION.search(call)
    written = _DEFAULT.search(call)
    default = written.group(1) if written else None
    if action is None:
        return False, False, default
    if action.group(1) == "store_true":
        return True, False, default or "False"
    if action.group(1) == "store_false":
        return True, False, default or "True"
    return True, True, default or "None"


def call_arguments(text: str, start: int) -> str:
    """The text of a call's arguments from `start` to its closing parenthesis (brackets
    counted, strings and comments skipped), or as much as was read. The engine jumps from
    one quote, bracket or `#` to the next (`_CALL_MARK`), and inside a string from one
    backslash or closing quote to the next (`_STRING_MARK`)."""
    depth = 0
    end = min(len(text), start + _MAX_CALL)
    at = start
    while (mark := _CALL_MARK.search(text, at, end)) is not None:
        at = mark.start()
        char = text[at]
        if char == "#":
            newline = text.find("\n", at)
            if newline < 0:
                break
            at = newline
        elif char in "\"'":
            inside = _STRING_MARK[char]
            at += 1
            while (mark := inside.search(text, at, end)) is not None and mark[0] == "\\":
                at = mark.start() + 2  # the escaped character is no quote
            if mark is None:
                break
            at = mark.start()
        elif char in "([{":
            depth += 1
        elif depth == 0:
            return text[start:at] + ")"
        else:
            depth -= 1
        at += 1
    return text[start:end]
