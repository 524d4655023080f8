"""What to pass instead, in words: the sentence for one condition shape on the input (an
instance of the type it checks, one of the values it accepts, a value within the bound it
compares with, a key the mapping must contain), and the argument's value before and after
when the value to pass is exact."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from errdex.explain.input_nodes import collection_members, field_key, is_call, key_test
from errdex.explain.plain import code
from errdex.extract.conditions import dotted_name

_MAX_VALUES = 12
# How a way out leaves out what a `*args` or `**kwargs` parameter collects (`inputs`): an
# argument given up, as "Pass an empty (false) value for the argument" is (`kept_first`).
SPREAD_LEFT_OUT = (
    "Leave out the keyword arguments that ",
    "Leave out the positional arguments that ",
)
# Methods that give the same value normalised: a check of their result is one of the value.
_NORMALIZERS = frozenset({"strip", "lower", "upper", "casefold", "lstrip", "rstrip"})


@dataclass(frozen=True)
class Instead:
    text: str
    # the name of the input it changes, and the argument's value before and after as
    # Python source (None: left out); no name when the value is not exact
    name: str | None = None
    before: str | None = None
    after: str | None = None
    # an input whose default is a non-zero number: only `0` is a way out, where the path
    # orders it as a number (`inputs._empty_number`); None would be kept in its place
    zero_only: bool = False
    # the input the sentence changes as it stands (its key of `described`), and what it
    # gives it, as `ChangedArgument.value` says it: "None", "true", "false" or the source of
    # a member left out of it; None when the sentence changes a part of it, or to a value
    # of another kind
    subject: str | None = None
    given: str | None = None


def what_to_pass(
    node: ast.expr,
    described: dict[str, str],
    constants: dict[str, str],
    defaults: dict[str, str] | None = None,
    refused: frozenset[str] = frozenset(),
) -> Instead | None:
    """The sentence for one condition shape; None for shapes not put in words exactly.
    `defaults` holds what an input is when the call leaves it out (its default's source):
    "or leave it out" is said only where that value makes the condition false. `refused`
    names the keywords whose value the message refuses (`refused_keywords`): only of those
    is a switch's other value a way out."""
    defaults = defaults or {}
    finite = _not_finite(node)
    if finite is not None:
        target = _described(finite, described)
        return Instead(f"Pass {target} as {FINITE}.") if target is not None else None
    if isinstance(node, ast.BoolOp):
        return _missing_keys(node, described) if isinstance(node.op, ast.And) else None
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    inner = node.operand if isinstance(node, ast.UnaryOp) and negative else node
    if isinstance(inner, ast.Call) and is_call(inner, "isinstance") and len(inner.args) == 2:
        target = _described(inner.args[0], described)
        if target is None:
            return None
        types = _types(inner.args[1])
        # `isinstance(x, T)` holding says which kind of input the check is for: leaving
        # that kind is no fix for it, so only the negative shape is a way out
        return Instead(f"Pass {target} as {types}.") if negative else None
    if isinstance(inner, ast.Compare) and len(inner.ops) == 1 and not negative:
        key = key_test(inner)
        if key is not None:
            holder = _described(key[1], described)
            if holder is None:
                return None
            # "contain": a key of a mapping, a part of a string, a member of a list alike
            if isinstance(inner.ops[0], ast.NotIn):
                return Instead(f"Make {holder} contain {code(repr(key[0]))}.")
            member = repr(key[0]) if isinstance(key[0], str) else None
            return Instead(
                f"Leave {code(repr(key[0]))} out of {holder}.",
                subject=_passed_name(key[1], described) if member else None,
                given=member,
            )
        target = _described(inner.left, described)
        if target is None:
            return None
        name = _passed_name(inner.left, described)
        mine = name.rsplit(".", 1)[-1].upper() if name else None
        op = inner.ops[0]
        right = inner.comparators[0]
        if isinstance(right, ast.Constant) and right.value is None:
            part = _attribute_of(inner.left, described)
            if part is not None and isinstance(op, ast.Is | ast.IsNot):
                held = "set (not None)" if isinstance(op, ast.Is) else "None"
                return Instead(f"Pass for {part[0]} a value whose {code(part[1])} is {held}.")
            if isinstance(op, ast.Is):
                text = f"Give {target} a value (it is None here)."
                return Instead(text, name, None, mine, subject=name, given="true")
            if isinstance(op, ast.IsNot):
                if name is not None and _default_value(name, defaults, constants) is None:
                    # a default of None: a call that leaves it out gives it None
                    text = f"Leave {target} out (it is None by default), or pass None."
                    return Instead(text, name, mine, None, subject=name, given="None")
                # a default that is not None (or not known) keeps the value that fails
                text = f"Pass None for {target}."
                return Instead(text, name, mine, "None", subject=name, given="None")
        if isinstance(right, ast.Constant) and isinstance(right.value, bool):
            # the argument itself, not an attribute of an object passed (a compiler's
            # `column.autoincrement`, made by the package from the user's declaration)
            if name is None or name.rsplit(".", 1)[-1] not in refused:
                return None
            return _switch_refused(op, right.value, target, name, defaults, constants)
        values = _values(right, constants)
        if isinstance(op, ast.NotIn) and values:
            first = _first_literal(right, constants)
            default = _default_value(name, defaults, constants) if name else _UNKNOWN
            # a default among the values accepted: leaving the argument out passes too
            out = (
                f", or leave it out (it is {code(repr(default))} by default)"
                if default is not _UNKNOWN and _among(default, right, constants)
                else ""
            )
            return Instead(
                f"Pass {target} as one of {values}{out}.", name if first else None, mine, first
            )
        if isinstance(op, ast.In) and values:
            return Instead(f"Pass {target} as a value other than {values}.")
        bound = _value(right, constants)
        positive = isinstance(right, ast.Constant) and (type(op), right.value) in (
            (ast.Gt, 0),
            (ast.GtE, 1),
        )
        if bound is not None and not positive:  # `n > 0`: none of a thing is no fix
            words = {
                ast.Gt: "at most",
                ast.GtE: "below",
                ast.Lt: "at least",
                ast.LtE: "above",
                ast.NotEq: "equal to",
                ast.Eq: "other than",
            }.get(type(op))
            # the bound itself avoids `>`, `<` and `!=`; `>=`, `<=` and `==` name no value
            exact = (
                _literal(right, constants) if isinstance(op, ast.Gt | ast.Lt | ast.NotEq) else None
            )
            if words:
                return Instead(
                    f"Pass {target} {words} {bound}.", name if exact else None, mine, exact
                )
        return None
    if isinstance(inner, ast.Name | ast.Attribute) or field_key(inner) is not None:
        target = _described(inner, described)
        if target is None:
            return None
        part = _attribute_of(inner, described)
        if part is not None:
            # a condition on an attribute of the argument: passing None or nothing instead
            # of the object fails on the attribute (or the call), the attribute is the fix
            held = "true (not empty)" if negative else "false (empty)"
            return Instead(f"Pass for {part[0]} a value whose {code(part[1])} is {held}.")
        name = _passed_name(inner, described)
        default = _default_value(name, defaults, constants) if name is not None else _UNKNOWN
        if negative:
            out = ""
            if default is not _UNKNOWN and default:
                out = f", or leave it out (it is {code(repr(default))} by default)"
            text = f"Pass a non-empty (true) value for {target}{out}."
            if default is True:
                # a switch on by default that the call turned off: turned back on, exactly
                return Instead(text, name, "False", "True", subject=name, given="true")
            return Instead(text, subject=name, given="true")
        mine = name.rsplit(".", 1)[-1].upper() if name else None
        if default is not _UNKNOWN and not default:
            text = f"Pass an empty (false) value for {target}, or leave it out"
            text = f"{text} (it is {code(repr(default))} by default)."
            return Instead(text, name, mine, None, subject=name, given="false")
        if default is True:
            # a flag that is on by default: the value that turns it off is `False`
            return Instead(
                f"Pass {code('False')} for {target} (it is on by default).", name, mine, "False"
            )
        if default is not _UNKNOWN and not isinstance(default, bool):
            # a non-empty default (`"conditional_savepoint"`, `8`): the code lets a false
            # value through and keeps it where the default was, for later code that expects
            # one of its values; an empty value is no way out (but `0` may be, for a number
            # the path bounds from below by 0)
            if not isinstance(default, int | float):
                return None
            text = f"Pass an empty (false) value for {target}."
            return Instead(text, name, mine, "None", zero_only=True, subject=name, given="false")
        # a field read with `.get(key)` is None when missing; a parameter's default is not
        # known, so leaving it out may keep the very value that fails
        field = field_key(inner)
        missing = isinstance(inner, ast.Call) and field is not None and len(inner.args) == 1
        out = ", or leave it out" if missing else ""
        text = f"Pass an empty (false) value for {target}{out}."
        return Instead(text, name, mine, "None", subject=name, given="false")
    return None


_UNKNOWN = object()
# A number `math.isfinite` accepts, in words.
FINITE = "a finite number (not `nan` or an infinity)"


def _not_finite(node: ast.expr) -> ast.expr | None:
    """The value a test fails for not being a finite number: `not math.isfinite(x)`,
    `math.isinf(x)`, `math.isnan(x) or math.isinf(x)` (each part on the same `x`); else
    None. (`math.isnan(x)` alone lets an infinity by: no "finite" way out of it alone.)"""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _math_of(node.operand, "isfinite")
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        parts = [_math_of(v, "isnan") or _math_of(v, "isinf") for v in node.values]
        shown = {ast.unparse(p) for p in parts if p is not None}
        if None in parts or len(shown) != 1:
            return None
        return parts[0]
    return _math_of(node, "isinf")


def _math_of(node: ast.expr, name: str) -> ast.expr | None:
    """`x` of `math.<name>(x)`; else None."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
        return None
    called = dotted_name(node.func)
    return node.args[0] if called == f"math.{name}" else None


# What a message says of a value it refuses outright.
_REFUSES = re.compile(
    r"\b(?:(?:no\s+longer|not)\s+(?:supported|allowed|permitted)|unsupported|deprecated|"
    r"ignored)\b",
    re.I,
)


def refused_keywords(message: str | None) -> frozenset[str]:
    """The names a message refuses a value of: every name it writes, when it says what it
    names is unsupported, deprecated or ignored ("validate_on_init=False is no longer
    supported", "`allow_reuse` is deprecated and will be ignored"). Giving up a switch the
    user set is a way out only then: elsewhere it drops what they asked for ("'name' is
    required with 'prompt=True'" wants a name, not the prompt left out)."""
    if message is None or _REFUSES.search(message) is None:
        return frozenset()
    return frozenset(re.findall(r"[A-Za-z_]\w*", message))


def _switch_refused(
    op: ast.cmpop,
    value: bool,
    target: str,
    name: str,
    defaults: dict[str, str],
    constants: dict[str, str],
) -> Instead | None:
    """`validate_on_init is False` (pydantic's `dataclass`, "validate_on_init=False is no
    longer supported"), `strict is not True`: one value of a switch refused, or the one it
    needs. A keyword whose default is neither (`None`) is left out; one whose default is
    the refused value is passed the other."""
    mine = name.rsplit(".", 1)[-1].upper()
    default = _default_value(name, defaults, constants)
    if isinstance(op, ast.Is):
        if default is not _UNKNOWN and default is not value:
            text = (
                f"Pass {target} other than {code(repr(value))}, or leave it out "
                f"(it is {code(repr(default))} by default)."
            )
            # a switch the user turned on, left out, gives up what they asked for: no
            # call drawn as if that were the whole change
            return Instead(text) if value else Instead(text, name, repr(value), None)
        return Instead(f"Pass {code(repr(not value))} for {target}.", name, mine, repr(not value))
    if isinstance(op, ast.IsNot):
        out = ", or leave it out" if default is value else ""
        return Instead(f"Pass {code(repr(value))} for {target}{out}.", name, mine, repr(value))
    return None


def _default_value(name: str, defaults: dict[str, str], constants: dict[str, str]) -> object:
    """The value an input holds when the call leaves it out, when its default is a literal
    (or a constant's literal); `_UNKNOWN` when it has none, or none that is known."""
    source = defaults.get(name)
    if source is None:
        return _UNKNOWN
    source = constants.get(source, source)
    try:
        return ast.literal_eval(source)
    except (ValueError, SyntaxError, RecursionError, TypeError, MemoryError):
        return _UNKNOWN


def _passed_name(node: ast.expr, described: dict[str, str]) -> str | None:
    """The input a node is as it stands (`proxy`, `self.nargs`), not a part of one (its
    length, an attribute, a field): only then is its value the argument's."""
    dotted = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    return dotted if dotted is not None and dotted in described else None


def _literal(node: ast.expr, constants: dict[str, str]) -> str | None:
    """The Python source of a literal value, or of a constant's literal value."""
    dotted = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    source = constants.get(dotted) if dotted is not None else ast.unparse(node)
    if source is None:
        return None
    try:
        ast.literal_eval(source)
    except (ValueError, SyntaxError, RecursionError, TypeError, MemoryError):
        return None
    return source


def _first_literal(node: ast.expr, constants: dict[str, str]) -> str | None:
    """The first member of a literal collection (or a constant's), as Python source,
    when it is itself a literal."""
    source = _literal(node, constants)
    if source is None:
        return None
    collection = ast.parse(source, mode="eval").body
    found = collection_members(collection)
    if not found:
        return None
    if isinstance(collection, ast.Set):
        found.sort(key=ast.unparse)  # a set has no order: the same one on every page
    return ast.unparse(found[0])


def _missing_keys(node: ast.BoolOp, described: dict[str, str]) -> Instead | None:
    """`"prompt" not in p and "prompt_token_ids" not in p`: every one is missing, so any
    one of them avoids the check."""
    keys: list[str] = []
    holders: dict[str, ast.expr] = {}
    for part in node.values:
        if not (isinstance(part, ast.Compare) and len(part.ops) == 1):
            return None
        key = key_test(part)
        if key is None or not isinstance(part.ops[0], ast.NotIn):
            return None
        keys.append(code(repr(key[0])))
        holders[ast.unparse(key[1])] = key[1]
    if len(holders) != 1 or len(keys) < 2:
        return None
    holder = _described(next(iter(holders.values())), described)
    if holder is None:
        return None
    return Instead(f"Make {holder} contain one of {', '.join(keys)}.")


def _described(node: ast.expr, described: dict[str, str]) -> str | None:
    """The words for the input a node reads: `the argument url of urlparse`, or its length,
    attribute or item."""
    if isinstance(node, ast.NamedExpr):
        return _described(node.value, described)
    if isinstance(node, ast.Call) and is_call(node, "len") and len(node.args) == 1:
        inner = _described(node.args[0], described)
        return f"{inner} with a length" if inner else None
    field = field_key(node)
    if field is not None:
        inner = _described(field[0], described)
        return f"the field {code(field[1])} of {inner}" if inner else None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _NORMALIZERS
        and not node.args
        and not node.keywords
    ):
        # `value.strip().lower() not in {...}`: the value as given, spaces and case aside
        return _described(node.func.value, described)
    dotted = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    if dotted is None:
        return None
    if dotted in described:
        return described[dotted]
    root, _, rest = dotted.partition(".")
    if root in described and rest:
        return f"{described[root]} with a `.{rest}`"
    return None


def _attribute_of(node: ast.expr, described: dict[str, str]) -> tuple[str, str] | None:
    """`parallel_config.enable_elastic_ep` where only `parallel_config` is the input: the
    words for the argument and the attribute's dotted rest."""
    dotted = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    if dotted is None or dotted in described:
        return None
    root, _, rest = dotted.partition(".")
    return (described[root], rest) if root in described and rest else None


def _types(node: ast.expr) -> str:
    if isinstance(node, ast.Tuple):
        names = [ast.unparse(e) for e in node.elts]
        return "an instance of one of " + ", ".join(code(n) for n in names)
    return f"an instance of {code(ast.unparse(node))}"


def _value(node: ast.expr, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant):
        return code(repr(node.value))
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) in (int, float)
    ):
        return code(ast.unparse(node))  # `-1`
    dotted = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    if dotted is not None and dotted in constants:
        return f"{code(dotted)} ({code(constants[dotted])})"
    if dotted is not None:
        return code(dotted)
    if isinstance(node, ast.Call):
        return code(ast.unparse(node))  # `len(history)`: the value the input must pass
    return None


def _values(node: ast.expr, constants: dict[str, str]) -> str | None:
    """The members of a literal collection or of a constant, in words."""
    source: ast.expr | None = node
    name = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    if name is not None:
        if name not in constants:
            return None
        try:
            source = ast.parse(constants[name], mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            return None
    found = collection_members(source) if source is not None else None
    if not found:
        return None
    shown = ", ".join(code(ast.unparse(m)) for m in found[:_MAX_VALUES])
    more = f" (and {len(found) - _MAX_VALUES} more)" if len(found) > _MAX_VALUES else ""
    return shown + more


def _among(value: object, node: ast.expr, constants: dict[str, str]) -> bool:
    """Whether a literal value is a member of the literal collection `node` (or a
    constant's)."""
    source = _literal(node, constants)
    if source is None:
        return False
    members = collection_members(ast.parse(source, mode="eval").body) or []
    for member in members:
        try:
            if ast.literal_eval(member) == value:
                return True
        except (ValueError, SyntaxError, RecursionError, TypeError, MemoryError):
            continue
    return False
