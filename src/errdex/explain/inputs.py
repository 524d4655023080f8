"""Ways out through the input: a condition on what the caller of a public function passed.

A condition is on the input when every name it reads is an argument of the public function
that raises (or an attribute its class's constructor set from an argument), a constant, or
a builtin. The solution then says which argument to change and to what: an instance of the
type it checks, one of the values it accepts (a constant's members when the index holds
them), a value within the bound it compares with.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass

from errdex.explain.context import Facts
from errdex.explain.page import Change, ConditionView
from errdex.explain.plain import code
from errdex.explain.user_call import required_arguments, user_call
from errdex.extract.conditions import dotted_name
from errdex.facts import ConditionKind

_BUILTINS = frozenset(dir(builtins))
_MAX_VALUES = 12
# Methods that give the same value normalised: a check of their result is one of the value.
_NORMALIZERS = frozenset({"strip", "lower", "upper", "casefold", "lstrip", "rstrip"})


@dataclass(frozen=True)
class Given:
    """What to pass instead: the sentence, and the argument's change as data when the
    value to pass is exact (for the example fix)."""

    text: str
    change: Change | None = None


@dataclass(frozen=True)
class _Instead:
    text: str
    # the name of the input it changes, and the argument's value before and after as
    # Python source (None: left out); no name when the value is not exact
    name: str | None = None
    before: str | None = None
    after: str | None = None


def input_action(condition: ConditionView, facts: Facts) -> Given | None:
    """What to pass instead, when the condition is on the input of a public function."""
    function = facts.stored.site.function
    try:
        node = ast.parse(condition.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    # a private method of a public class: its own arguments come from the class's code,
    # the attributes its constructor set from the user's keywords
    public = public_name(function)
    method = _public_method_owner(function, facts.stored.site.class_name)
    # the keys a private function wants of a mapping it is given: such a mapping is
    # data passed in (a prompt, a request body), whatever calls pass it on
    keyed = not public and not method and _keys_only(node)
    if not (public or method or keyed):
        return None
    if method and not public and condition.kind is ConditionKind.EARLY_EXIT:
        # an exit of a method the user does not call is a mode it handles first (a quiet
        # console writes nothing), no fix of what the check is about
        return None
    # `if "strategy" in kwargs: return ...` taken earlier is another use of the function;
    # only the exit right before the site (`if "prompt" in p: return p`, then the raise)
    # is the check itself
    nearest = max((c.line for c in facts.held), default=condition.line)
    earlier_exit = condition.kind is ConditionKind.EARLY_EXIT and condition.line < nearest
    if earlier_exit and _has_key_test(node):
        return None
    mode = "public" if public else "keyed" if keyed else "method"
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        keys = _input_instead(node, facts, function, mode)
        if keys is not None or keyed:
            return keys
        # making one conjunct false avoids the check: the first on the input will do
        for part in node.values:
            found = _input_instead(part, facts, function, mode)
            if found is not None:
                return found
        return None
    return _input_instead(node, facts, function, mode)


def _has_key_test(node: ast.expr) -> bool:
    return any(
        isinstance(n, ast.Compare) and len(n.ops) == 1 and _key_test(n) is not None
        for n in ast.walk(node)
    )


def _keys_only(node: ast.expr) -> bool:
    """`"k" not in x`, or several of them joined by `and`."""
    parts = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) else [node]
    # a key present (`"video" in items`) chooses what the code does with it: only a key
    # missing is the mapping lacking what the check asks for
    return all(
        isinstance(p, ast.Compare)
        and len(p.ops) == 1
        and isinstance(p.ops[0], ast.NotIn)
        and _key_test(p) is not None
        for p in parts
    )


def _input_instead(node: ast.expr, facts: Facts, function: str, mode: str) -> Given | None:
    """What to pass for one condition whose names the input decides; `mode` says which
    names are the input: a public function's arguments ("public"), the keyword its class's
    constructor took ("method", a private method), a mapping's keys ("keyed")."""
    read = facts.read
    constants = {b.name: b.value for b in facts.bindings if b.origin == "constant"}
    inputs: dict[str, str] = {}
    # the input's name → (whether the constructor takes it, the parameter), for the call
    # a user writes
    passed: dict[str, tuple[bool, str]] = {}
    owner = function.rsplit(".", 1)[0] if "." in function else None
    callee = function.removesuffix(".__init__")
    params = read.params if mode != "method" else ()

    def argument(name: str) -> str:
        if mode == "keyed":
            return f"the value passed as {code(name)} (it reaches {code(callee)})"
        return f"the argument {code(name)} of {code(callee)}"

    others: set[str] = set()
    for name in _free_names(node):
        if name in params:
            inputs[name] = argument(name)
            if name not in read.positional:
                passed[name] = (False, name)
        elif name.startswith("self.") and name[5:] in read.init_params and owner:
            param = read.init_params[name[5:]]
            inputs[name] = f"the argument {code(param)} of {code(owner)}"
            passed[name] = (True, param)
        elif name.split(".")[0] in params:
            root = name.split(".")[0]
            inputs[root] = argument(root)
        elif name in constants or name.split(".")[0] in _BUILTINS or name[:1].isupper():
            continue
        else:
            others.add(name)  # a name the input does not decide
    if not inputs:
        return None
    if others:
        instead = _bound_by_other(node, inputs, constants, others)
    elif mode == "method":
        # a private method's check of what the constructor took is the class's own
        # bookkeeping, unless it bounds what the user made happen (above)
        return None
    else:
        instead = _instead(node, inputs, constants)
    if instead is None:
        return None
    return Given(instead.text, _change(instead, passed, facts))


def _change(instead: _Instead, passed: dict[str, tuple[bool, str]], facts: Facts) -> Change | None:
    """The argument's change as data: the call, the parameter and its values, when the
    package's public modules reach the function (`httpx.AsyncClient`)."""
    if instead.name is None or instead.name not in passed:
        return None
    constructor, param = passed[instead.name]
    call = user_call(facts, constructor)
    if call is None:
        return None
    target, method = call
    of_init = constructor and not facts.stored.site.function.endswith(".__init__")
    required = required_arguments(facts, param, constructor=of_init)
    names = facts.read.init_required if of_init else facts.read.required
    # a parameter is left out only where it has a default: else it is passed as None
    must = names is None or param in names
    before, after = instead.before, instead.after
    return Change(
        form="call",
        target=target,
        method=method,
        argument=param,
        before="None" if before is None and must else before,
        after="None" if after is None and must else after,
        required=required or (),
    )


def _bound_by_other(
    node: ast.expr, inputs: dict[str, str], constants: dict[str, str], others: set[str]
) -> _Instead | None:
    """`len(history) > self.max_redirects`: a limit the constructor set from the user's
    keyword on one side, a value it does not decide on the other: the limit can be set
    past it."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not all(name.startswith("self.") for name in inputs):
        # a limit the user set on the object (`Client(max_redirects=...)`); an argument
        # compared with what the machine or the code computed is the code's own bound
        return None
    counted = node.left
    if not (isinstance(counted, ast.Call) and _is_call(counted, "len")):
        # a count of what the use made (redirects followed, tokens of a prompt) is what a
        # limit bounds; an index or a size the code computed is its own consistency
        return None
    flipped = _FLIPPED.get(type(node.ops[0]))
    left, right = node.left, node.comparators[0]
    read = {n for n in _free_names(left) if n.split(".")[0] not in _BUILTINS}
    if flipped is None or not read <= others | set(constants):
        return None
    if set(_free_names(right)) & others:
        return None  # both sides read what the input does not decide
    return _instead(ast.Compare(left=right, ops=[flipped()], comparators=[left]), inputs, constants)


_FLIPPED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Gt: ast.Lt,
    ast.GtE: ast.LtE,
    ast.Lt: ast.Gt,
    ast.LtE: ast.GtE,
}


def _public_method_owner(function: str, class_name: str | None) -> bool:
    """A method (of any name) of a class a user makes: `Client._send_handling_redirects`."""
    owner = function.rpartition(".")[0]
    return bool(owner) and owner == class_name and public_name(owner)


def merged_type_checks(conditions: list[ConditionView]) -> dict[int, ConditionView]:
    """`not isinstance(x, str)` then `not isinstance(x, URL)` (an if/elif chain that
    accepts either), or `x not in {...}` then `x not in {...}`: the last of them as one
    check of all the types or values, by its line."""
    types: dict[str, list[str]] = {}
    values: dict[str, list[str]] = {}
    last: dict[str, ConditionView] = {}
    for condition in conditions:
        try:
            node = ast.parse(condition.text, mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
        members = _not_in_literal(node)
        if members is not None:
            target = f"in:{members[0]}"
            values.setdefault(target, []).extend(members[1])
            last[target] = condition
            continue
        if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            continue
        call = node.operand
        if not (
            isinstance(call, ast.Call) and _is_call(call, "isinstance") and len(call.args) == 2
        ):
            continue
        target = ast.unparse(call.args[0])
        kinds = call.args[1]
        elements = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        types.setdefault(target, []).extend(ast.unparse(e) for e in elements)
        last[target] = condition
    out: dict[int, ConditionView] = {}
    for target, condition in last.items():
        if target.startswith("in:"):
            every = list(dict.fromkeys(values[target]))
            if len(every) == len(set(_not_in_literal_members(condition))):
                continue  # one check: nothing merged
            text = f"{target[3:]} not in ({', '.join(every)},)"
        else:
            every = list(dict.fromkeys(types[target]))
            if len(every) <= 1:
                continue
            text = f"not isinstance({target}, ({', '.join(every)},))"
        out[condition.line] = ConditionView(
            text=text, test=text, kind=condition.kind, holds=True, line=condition.line
        )
    return out


def _not_in_literal(node: ast.expr) -> tuple[str, list[str]] | None:
    """`x not in {"a", "b"}`: (`x`, the members' sources)."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    right = node.comparators[0]
    if not (
        isinstance(node.ops[0], ast.NotIn) and isinstance(right, ast.Set | ast.Tuple | ast.List)
    ):
        return None
    return ast.unparse(node.left), [ast.unparse(e) for e in right.elts]


def _not_in_literal_members(condition: ConditionView) -> list[str]:
    try:
        found = _not_in_literal(ast.parse(condition.text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return []
    return found[1] if found else []


def public_name(function: str) -> bool:
    """A function a user calls: no part of its qualname is private (dunders are public)."""
    parts = [p for p in function.split(".") if p != "<locals>"]
    if "<locals>" in function or not parts:
        return False
    return all(not p.startswith("_") or (p.startswith("__") and p.endswith("__")) for p in parts)


def _free_names(node: ast.expr) -> list[str]:
    """The dotted names read (`self.x`, `url`, `MAX`), outermost chain only, and the
    bare names of calls' functions skipped when builtins (`len`, `isinstance`)."""
    out: list[str] = []

    def visit(n: ast.AST) -> None:
        if isinstance(n, ast.Attribute | ast.Name):
            dotted = dotted_name(n)
            if dotted is not None:
                out.append(dotted)
                return
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            visit(n.func.value)  # `x.startswith(...)`: the receiver is what is read
            for arg in [*n.args, *(k.value for k in n.keywords)]:
                visit(arg)
            return
        if isinstance(n, ast.NamedExpr):
            visit(n.value)  # `(x := data.get("x")) is not None` reads the field
            return
        if isinstance(n, ast.comprehension | ast.Lambda | ast.GeneratorExp | ast.ListComp):
            out.append("<comprehension>")  # its own names: not worked out here
            return
        for child in ast.iter_child_nodes(n):
            visit(child)

    visit(node)
    return list(dict.fromkeys(out))


def _instead(
    node: ast.expr, described: dict[str, str], constants: dict[str, str]
) -> _Instead | None:
    """The sentence for one condition shape; None for shapes not put in words exactly."""
    if isinstance(node, ast.BoolOp):
        return _missing_keys(node, described) if isinstance(node.op, ast.And) else None
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    inner = node.operand if isinstance(node, ast.UnaryOp) and negative else node
    if isinstance(inner, ast.Call) and _is_call(inner, "isinstance") and len(inner.args) == 2:
        target = _described(inner.args[0], described)
        if target is None:
            return None
        types = _types(inner.args[1])
        # `isinstance(x, T)` holding says which kind of input the check is for: leaving
        # that kind is no fix for it, so only the negative shape is a way out
        return _Instead(f"Pass {target} as {types}.") if negative else None
    if isinstance(inner, ast.Compare) and len(inner.ops) == 1 and not negative:
        key = _key_test(inner)
        if key is not None:
            holder = _described(key[1], described)
            if holder is None:
                return None
            # "contain": a key of a mapping, a part of a string, a member of a list alike
            if isinstance(inner.ops[0], ast.NotIn):
                return _Instead(f"Make {holder} contain {code(repr(key[0]))}.")
            return _Instead(f"Leave {code(repr(key[0]))} out of {holder}.")
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
                return _Instead(f"Pass for {part[0]} a value whose {code(part[1])} is {held}.")
            if isinstance(op, ast.Is):
                return _Instead(f"Give {target} a value (it is None here).", name, None, mine)
            if isinstance(op, ast.IsNot):
                # the parameter's default is not known: leaving it out may keep the value
                return _Instead(f"Pass None for {target}.", name, mine, "None")
        values = _values(right, constants)
        if isinstance(op, ast.NotIn) and values:
            first = _first_literal(right, constants)
            return _Instead(
                f"Pass {target} as one of {values}.", name if first else None, mine, first
            )
        if isinstance(op, ast.In) and values:
            return _Instead(f"Pass {target} as a value other than {values}.")
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
                return _Instead(
                    f"Pass {target} {words} {bound}.", name if exact else None, mine, exact
                )
        return None
    if isinstance(inner, ast.Name | ast.Attribute) or _field_key(inner) is not None:
        target = _described(inner, described)
        if target is None:
            return None
        part = _attribute_of(inner, described)
        if part is not None:
            # a condition on an attribute of the argument: passing None or nothing instead
            # of the object fails on the attribute (or the call), the attribute is the fix
            held = "true (not empty)" if negative else "false (empty)"
            return _Instead(f"Pass for {part[0]} a value whose {code(part[1])} is {held}.")
        if negative:
            return _Instead(f"Pass a non-empty (true) value for {target}.")
        name = _passed_name(inner, described)
        mine = name.rsplit(".", 1)[-1].upper() if name else None
        # a field read with `.get(key)` is None when missing; a parameter's default is not
        # known, so leaving it out may keep the very value that fails
        field = _field_key(inner)
        missing = isinstance(inner, ast.Call) and field is not None and len(inner.args) == 1
        out = ", or leave it out" if missing else ""
        return _Instead(f"Pass an empty (false) value for {target}{out}.", name, mine, "None")
    return None


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
    members = _members(collection)
    if not members:
        return None
    if isinstance(collection, ast.Set):
        members.sort(key=ast.unparse)  # a set has no order: the same one on every page
    return ast.unparse(members[0])


def _key_test(node: ast.Compare) -> tuple[str, ast.expr] | None:
    """`"prompt" not in data` (or `in`): the key and the mapping the input holds."""
    left = node.left
    if (
        isinstance(node.ops[0], ast.In | ast.NotIn)
        and isinstance(left, ast.Constant)
        and isinstance(left.value, str)
    ):
        return left.value, node.comparators[0]
    return None


def _missing_keys(node: ast.BoolOp, described: dict[str, str]) -> _Instead | None:
    """`"prompt" not in p and "prompt_token_ids" not in p`: every one is missing, so any
    one of them avoids the check."""
    keys: list[str] = []
    holders: dict[str, ast.expr] = {}
    for part in node.values:
        if not (isinstance(part, ast.Compare) and len(part.ops) == 1):
            return None
        key = _key_test(part)
        if key is None or not isinstance(part.ops[0], ast.NotIn):
            return None
        keys.append(code(repr(key[0])))
        holders[ast.unparse(key[1])] = key[1]
    if len(holders) != 1 or len(keys) < 2:
        return None
    holder = _described(next(iter(holders.values())), described)
    if holder is None:
        return None
    return _Instead(f"Make {holder} contain one of {', '.join(keys)}.")


def _is_call(node: ast.Call, name: str) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id == name


def _described(node: ast.expr, described: dict[str, str]) -> str | None:
    """The words for the input a node reads: `the argument url of urlparse`, or its length,
    attribute or item."""
    if isinstance(node, ast.NamedExpr):
        return _described(node.value, described)
    if isinstance(node, ast.Call) and _is_call(node, "len") and len(node.args) == 1:
        inner = _described(node.args[0], described)
        return f"{inner} with a length" if inner else None
    field = _field_key(node)
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


def _field_key(node: ast.expr) -> tuple[ast.expr, str] | None:
    """`data.get("stream")` or `data["stream"]`: (`data`, `stream`), a field of a mapping
    the caller passed (a request body, a config dict)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.func.value, node.args[0].value
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.value, node.slice.value
    return None


def _types(node: ast.expr) -> str:
    if isinstance(node, ast.Tuple):
        names = [ast.unparse(e) for e in node.elts]
        return "an instance of one of " + ", ".join(code(n) for n in names)
    return f"an instance of {code(ast.unparse(node))}"


def _value(node: ast.expr, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant):
        return code(repr(node.value))
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
    members = _members(source) if source is not None else None
    if not members:
        return None
    shown = ", ".join(code(ast.unparse(m)) for m in members[:_MAX_VALUES])
    more = f" (and {len(members) - _MAX_VALUES} more)" if len(members) > _MAX_VALUES else ""
    return shown + more


def _members(collection: ast.expr) -> list[ast.expr] | None:
    """The members of a literal collection (a dict's keys), None for anything else."""
    if isinstance(collection, ast.Dict):
        return [k for k in collection.keys if k is not None]
    if isinstance(collection, ast.Tuple | ast.List | ast.Set):
        return list(collection.elts)
    return None
