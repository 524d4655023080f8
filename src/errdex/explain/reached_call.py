"""A Python call's example fix whose "before" reaches the check, or no fix at all.

httpx's `Cookies.clear` asserts `domain is not None` only when `path` is given: a fix of
`cookies.clear()` → `cookies.clear(domain=DOMAIN)` shows a "before" that never fails.
Each argument of the call that a condition of the path reads is given in both lines, in a
form that holds the condition: the user's own value named for `path is not None`
(`path=PATH`), the literal of `mode == "fast"`, `None` for `x is None` where the default
is another value, the first alternative of an `or` that one argument holds
(`output is not None or fp16_out`: `output=OUTPUT`); nothing where the default holds it.
Two literals for one argument leave no line that holds both: no fix. Nor is there one
for a call that must pass a keyword named private (`construct_params(_check=False)`): the
package's own code passes it.

How the call is written follows the function: a class method or static method is called
on its class (`M2NTrainerWeightTransferEngine.trainer_init(...)`), not on an object the
user would have to make first. A constructor's keyword whose value another method checks
(`Pool(timeout=...)`, checked in `pool.acquire()`) reaches the check only with that
method: it is called on the object made, in both lines, where a user calls it (a public
method the package's own code does not call; a property is read, `response.request`); a
check a private method makes is reached by the constructor alone only where a constructor
calls it (a base class's `__init__` calling `self._parse_decls()`). Anything else (a layer's
`forward` step the model runs) has no line a user writes: no fix. Nor has a method the
class hands to a framework from one of its hooks (`yield cls.frozenset_length_validator`
in pydantic's `__get_validators__`): the framework calls it, never the user.
"""

from __future__ import annotations

import ast
import re

import msgspec

from errdex.ast_walk import walk
from errdex.explain.context import Facts, decorator_names
from errdex.explain.input_nodes import part_views
from errdex.explain.page import Change, ConditionView
from errdex.explain.private_names import private_name
from errdex.explain.user_call import user_call
from errdex.explain.validators import handed_by_type
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import CONSTRUCTORS
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

__all__ = ["reached_change"]

# what an assignment or a `del` of an attribute runs: no call of its own
_ACCESSORS = frozenset({"setter", "deleter"})
_NONE_DEFAULTS = frozenset({"None"})
_FALSE_DEFAULTS = frozenset({"None", "False", "0", "''", '""', "()", "[]", "{}"})


def reached_change(change: Change, facts: Facts) -> Change | None:
    """`change` (of a Python call) written so that its "before" reaches the check: with
    the arguments the path holds, on the class for a class method, followed by the
    method that checks; None when no such call can be written. A change of a call other
    than the site's own is returned as it is."""
    if change.form != "call" or not _own_call(change, facts):
        return change
    owner, _, member = facts.stored.site.function.rpartition(".")
    if owner and "." not in owner and handed_by_type(facts, owner, member):
        return None  # a validator its class hands to the framework: no call of the user's
    reached = _reached(change, facts)
    if reached is None or _private_keyword(reached):
        return None  # (a keyword named private is the package's own to pass)
    return reached


def _reached(change: Change, facts: Facts) -> Change | None:
    site = facts.stored.site
    owner, _, member = site.function.rpartition(".")
    params = set(facts.read.params) - set(facts.read.positional)
    given = {change.argument, change.keyword} | {_name(a) for a in change.required}
    # (`classmethod`, `property`, the `setter` of `@x.setter`: the function alone is parsed
    # without them)
    decorators = decorator_names(facts.source_text, member, site.line)
    if change.method is None and owner and member not in CONSTRUCTORS:
        # the keyword is the constructor's; the check runs in another method
        inits = dict(facts.read.init_params)
        held = _held_arguments(facts, params | {f"self.{a}" for a in inits})
        if held is None:
            return None
        made = {inits[n[5:]]: v for n, v in held.items() if n.startswith("self.")}
        called = {n: v for n, v in held.items() if not n.startswith("self.")}
        extra = _written({k: v for k, v in made.items() if k not in given})
        if change.constructed:
            return _with_required(change, extra)  # the method's arguments are its to hand
        if _reached_from_constructor(facts):
            return _with_required(change, extra) if not called else None
        if member.startswith("_") or _called_by_package(facts) or decorators & _ACCESSORS:
            return None  # the package runs the method itself: no line of the user's
        # a property is read, not called (`@property`, `@util.memoized_property`)
        read = any(d.endswith("property") for d in decorators)
        then = member if read else _then(facts, member, called)
        return msgspec.structs.replace(_with_required(change, extra), then=then)
    held = _held_arguments(facts, params)
    if held is None:
        return None
    extra = _written({k: v for k, v in held.items() if k not in given})
    change = _with_required(change, extra)
    if change.method is not None and decorators & {"classmethod", "staticmethod"}:
        change = msgspec.structs.replace(change, static=True)
    return change


def _private_keyword(change: Change) -> bool:
    """Whether the call passes a keyword whose name is private (`_check=False`)."""
    words = [change.argument or "", change.keyword or "", *change.required]
    words += re.findall(r"(\w+)=", change.then or "")
    return any(private_name(_name(w)) for w in words)


def _own_call(change: Change, facts: Facts) -> bool:
    """Whether the change is of the site's own function (or of its class's constructor)."""
    for constructor in (False, True):
        call = user_call(facts, constructor)
        if call is not None and call == (change.target, change.method):
            return True
    return False


def _name(argument: str) -> str:
    return argument.partition("=")[0] if "=" in argument else argument.lower()


def _with_required(change: Change, extra: tuple[str, ...]) -> Change:
    if not extra:
        return change
    return msgspec.structs.replace(change, required=(*change.required, *extra))


def _written(values: dict[str, str]) -> tuple[str, ...]:
    return tuple(f"{name}={value}" for name, value in values.items())


def _held_arguments(facts: Facts, names: set[str]) -> dict[str, str] | None:
    """Each of `names` (the call's parameters, `self.x` set from the constructor) that a
    condition of the path reads → the value that holds it, as source; None when two
    conditions want two literals of one."""
    found: dict[str, str] = {}
    for condition in facts.held:
        for part in _parts(condition):
            node = parse_expression(part.text)
            if node is None:
                continue
            wanted = _holding(node, names, facts)
            if wanted and part.kind is ConditionKind.EARLY_EXIT:
                # a guard passed on the way (`if cell_len(characters) < 1: raise`): the
                # default passes it, so only a value it names is given; but not where the
                # default takes the exit (`if not path: return`, `path=None`)
                defaults = facts.read.defaults
                wanted = {
                    n: v
                    for n, v in wanted.items()
                    if not _placeholder(v) or _default_exits(node, n, defaults.get(n))
                }
            for name, value in (wanted or {}).items():
                was = found.get(name)
                if was is None or _placeholder(was):
                    found[name] = value
                elif not _placeholder(value) and value != was:
                    return None  # two literals: no line holds both
    return {n: v for n, v in found.items() if v != ""}


def _parts(condition: ConditionView) -> list[ConditionView]:
    return part_views(condition) or []


def _holding(node: ast.expr, names: set[str], facts: Facts) -> dict[str, str] | None:
    """What each of `names` that `node` reads must be for `node` to hold ("" where leaving
    it out does); None when `node` reads something else too (not the call's to give)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        for value in node.values:
            found = _holding(value, names, facts)
            if found:
                return found  # one alternative the call gives is enough
        return None
    if isinstance(node, ast.BoolOp):
        merged: dict[str, str] = {}
        for value in node.values:
            found = _holding(value, names, facts)
            if found is None:
                return None
            merged.update(found)
        return merged
    read = _read(node)
    if not read or not read <= names:
        return None
    if len(read) == 1:
        (name,) = read
        default = facts.read.defaults.get(name)
        held = _value_holding(node, name, default)
        if held is not None:
            return {name: "" if held == default else held}  # the default holds it
    return {n: _mine(n) for n in read}  # any other test: the user's own value, named


def _value_holding(node: ast.expr, name: str, default: str | None) -> str | None:
    """The value of `name` that makes the test of it hold ("" where leaving it out does),
    for a truth test, a test against None, `==` or `in` a literal; None for another test."""
    if isinstance(node, ast.Name | ast.Attribute):
        if default == "True":
            return ""  # left out, it holds
        return "True" if default == "False" else _mine(name)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        is_name = isinstance(node.operand, ast.Name | ast.Attribute)
        return ("" if default in _FALSE_DEFAULTS else "None") if is_name else None
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and _is_name(node.left, name)):
        return None
    op, right = node.ops[0], node.comparators[0]
    if isinstance(right, ast.Constant) and isinstance(op, ast.Is | ast.Eq):
        if right.value is None:
            return "" if default in _NONE_DEFAULTS else "None"
        return repr(right.value)
    if isinstance(op, ast.In) and isinstance(right, ast.Tuple | ast.List | ast.Set):
        first = right.elts[0] if right.elts else None
        return repr(first.value) if isinstance(first, ast.Constant) else None
    return None


def _default_exits(node: ast.expr, name: str, default: str | None) -> bool:
    """Whether `node`, what the path past an early exit needs, is a truth test of `name`
    or a test that it is not None, which `name`'s default fails (`path` for `if not path:
    return`, default None): left out, the call takes the exit."""
    if isinstance(node, ast.Name | ast.Attribute):
        return _is_name(node, name) and default in _FALSE_DEFAULTS
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and _is_name(node.left, name)):
        return False
    right = node.comparators[0]
    none = isinstance(right, ast.Constant) and right.value is None
    return none and isinstance(node.ops[0], ast.IsNot | ast.NotEq) and default in _NONE_DEFAULTS


def _read(node: ast.expr) -> set[str]:
    """The names and `self.x` attributes the test reads (not the functions it calls)."""
    called = {id(n.func) for n in walk(node) if isinstance(n, ast.Call)}
    found = set()
    for child in walk(node):
        if id(child) in called:
            continue
        if isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name):
            if child.value.id == "self":
                found.add(f"self.{child.attr}")
        elif isinstance(child, ast.Name) and child.id != "self":
            found.add(child.id)
    return found - {"None", "True", "False"}


def _is_name(node: ast.expr, name: str) -> bool:
    return ast.unparse(node) == name


def _mine(name: str) -> str:
    return name.removeprefix("self.").upper()


def _placeholder(value: str) -> bool:
    return value.isidentifier() and value.isupper() and value not in ("True", "False", "None")


def _then(facts: Facts, member: str, called: dict[str, str]) -> str:
    """`acquire()`: the method that checks, with the arguments it must give and the ones
    the path holds."""
    positional = facts.read.positional
    given = [
        name.upper() if name in positional else f"{name}={name.upper()}"
        for name in facts.read.required
        if name not in called
    ]
    given += [f"{name}={value}" for name, value in called.items()]
    return f"{member}({', '.join(given)})"


def _reached_from_constructor(facts: Facts) -> bool:
    """Whether a constructor calls the method (its class's, or a base class's that calls
    `self._parse_decls(...)` for each subclass), itself or through another method."""
    cls = facts.own_class()
    if cls is None:
        return False
    # of the class itself or a base it names (`Parameter.__init__` for `Option`): a
    # subclass's constructor runs it only for an object of the subclass
    names = {cls.name, *((dotted_name(b) or "").rpartition(".")[2] for b in cls.bases)}
    return any(
        c.function.rpartition(".")[2] in CONSTRUCTORS
        and c.function.rpartition(".")[0].rpartition(".")[2] in names
        for c in facts.callers
    )


def _called_by_package(facts: Facts) -> bool:
    return any(c.depth == 1 for c in facts.callers)
