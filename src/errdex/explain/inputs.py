"""Ways out through the input: a condition on what the caller of a public function passed.

A condition is on the input when every name it reads is an argument of the public function
that raises (or an attribute its class's constructor set from an argument), a constant, or
a builtin. The solution then says which argument to change and to what: an instance of the
type it checks, one of the values it accepts (a constant's members when the index holds
them), a value within the bound it compares with. An argument the package keeps for itself
(one leading underscore, `_adapt`: passed by its own descriptor or merge) is no input
(`private_argument`, which every rule naming an argument asks).
"""

from __future__ import annotations

import ast
import builtins
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.chain_branches import chain_arms
from errdex.explain.context import PART, Facts
from errdex.explain.dead_ends import returns_refused, warning_alone
from errdex.explain.declared_fields import declared_keyword, declared_required
from errdex.explain.empty_objects import empty_is_nonsense
from errdex.explain.init_values import allows, decided
from errdex.explain.input_nodes import conjuncts, field_key, free_names, is_call, key_test
from errdex.explain.input_shapes import module_patterns, more_shapes
from errdex.explain.input_words import SPREAD_LEFT_OUT, Instead, refused_keywords, what_to_pass
from errdex.explain.item_fields import own_init
from errdex.explain.kept_argument import kept_arguments
from errdex.explain.none_assigned import none_from_keyword
from errdex.explain.none_passthrough import passes_none_back
from errdex.explain.outline import compiling
from errdex.explain.page import Change, ChangedArgument, ConditionView
from errdex.explain.plain import code
from errdex.explain.private_names import private_name
from errdex.explain.refused_ways import FALSY, flipped_value, part_may_trip, passed_refused
from errdex.explain.unpacked_params import unpacked_params
from errdex.explain.user_call import required_arguments, user_call
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import and_parts
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

_BUILTINS = frozenset(dir(builtins))
# Modules whose functions a condition calls on the input alone (`re.match(p, x)`), or on
# the file it names (`os.path.isfile(x)`).
_PURE_MODULES = frozenset({"re", "os.path"})
_ATTRIBUTE_METHODS = frozenset({"__setattr__", "__delattr__", "__getattr__", "__getattribute__"})
_ORDERINGS: dict[type[ast.cmpop], Callable[[float, float], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


@dataclass(frozen=True)
class Given:
    """What to pass instead: the sentence, and the argument's change as data when the
    value to pass is exact (for the example fix)."""

    text: str
    change: Change | None = None
    # the argument of the user's call the sentence is about, when it is about one
    argument: str | None = None
    # the raising function's argument it changes, as data (`Solution.argument`)
    changed: ChangedArgument | None = None


def input_action(condition: ConditionView, facts: Facts, *, handed: bool = False) -> Given | None:
    """What to pass instead, when the condition is on the input of a public function (or,
    `handed`, of a function no user calls whose arguments `facts.entry_args` names at the
    public call that hands each on as it is)."""
    function = facts.stored.site.function
    node = parse_expression(condition.text)
    if node is None:
        return None
    # a private method of a public class: its own arguments come from the class's code,
    # the attributes its constructor set from the user's keywords
    public = handed or public_name(function)
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
    if warning_alone(condition, facts):
        # a test that only picks when to tell of a branch that gives up all the same
        # (its answer, kept, lets the page say why this input is no way out: `not_offered`)
        return None
    if passes_none_back(condition, facts):
        # a converter or a refusing default: None in, None out, so passing None gives up
        # the value (none_passthrough)
        return None
    mode = "public" if public else "keyed" if keyed else "method"
    exit_ = condition.kind is ConditionKind.EARLY_EXIT
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        keys = _input_instead(node, facts, function, mode, exit_, condition.line)
        if keys is not None or keyed:
            return keys
        # making one conjunct false avoids the check: the first on the input will do, but
        # a value from the closed set the check accepts keeps what the user asked for
        # (`vertical is not None and vertical not in ("top", ...)`: one of them, not None)
        # a part whose other value an earlier check of the path refuses, or may refuse,
        # has none: `self.is_bool_flag and self.hide_input and ...` (click's `Option`),
        # where a false `is_flag` fails `if not self.is_bool_flag and self.secondary_opts:
        # raise` for a `--x/--no-x` option, and `hide_input` no other guard reads
        given = []
        for part in node.values:
            found = _input_instead(part, facts, function, mode, exit_, condition.line)
            if found is None:
                continue
            if returns_refused(part, condition, facts):
                continue  # the function returns a value its callers refuse
            tripped = part_may_trip(part, condition, facts)
            if tripped:
                _said_tripping(part, found, tripped, facts)
            else:
                given.append(found)
        closed = next((g for g in given if _CLOSED_SET in g.text), None)
        if closed is not None and closed is not given[0]:
            return _with_left_out(closed, given[0])
        bound = len(given) > 1 and any(w in given[1].text for w in _BOUNDS)
        if bound and given[0].text.startswith("Pass None for ") and given[1].change:
            # `x is not None and x < 1`: a value within the bound keeps the limit the user
            # set, where None drops it
            return given[1]
        return given[0] if given else None
    return _input_instead(node, facts, function, mode, exit_, condition.line)


# The ways out that guards before the check read too: (the argument, how it would be
# passed) → the guards' lines.
TRIPPING = "inputs.tripping"


def _said_tripping(part: ast.expr, given: Given, lines: list[int], facts: Facts) -> None:
    """Kept for "What it means": a false `is_flag` of click's `Option`, which the guards at
    lines 2612 and 2615 read again. Only a part on the argument itself, or on the attribute
    the constructor set from it (`self.is_bool_flag`), is told: `tensors.cnt` None is not
    what "changing `tensors`" means."""
    flipped = flipped_value(part)
    argument = given.argument
    if argument is None or flipped is None:
        return
    name, value = flipped
    if name != argument and not (name.startswith("self.") and name.count(".") == 1):
        return
    how = (
        "None"
        if value is None
        else "an empty (false) value"
        if value is FALSY
        else "a non-empty (true) value"
    )
    tripping: dict[tuple[str, str], list[int]] = facts.memo.setdefault(TRIPPING, {})
    tripping.setdefault((argument, how), lines)


_CLOSED_SET = " as one of "
_BOUNDS = (" at least ", " at most ", " above ", " below ")
# "Leave the argument `x` of `f` out (it is None by default), or pass None.", "Pass an
# empty (false) value for ..., or leave it out (it is `None` by default)."
_LEFT_OUT = re.compile(r"\b(?:leave it out|out) \(it is (?P<default>.+?) by default\)")


def _with_left_out(closed: Given, other: Given) -> Given:
    """The value from the closed set first; leaving the argument out (the other conjunct's
    way out, `x is not None`, `x and ...`) said after it when that is what the other says."""
    found = _LEFT_OUT.search(other.text)
    if found is None or ", or leave it out" in closed.text:
        return closed
    default = found.group("default")
    text = closed.text.removesuffix(".") + f", or leave it out (it is {default} by default)."
    return Given(text, closed.change)


def with_chain_values(
    given: Given,
    condition: ConditionView,
    checks: list[ConditionView],
    merged: dict[int, ConditionView],
    facts: Facts,
) -> Given:
    """`x is not None` at the end of an `if x == "a": ... elif x == "b": ... elif x is not
    None: raise` chain: leaving `x` out avoids the raise, and so do the values the chain
    takes (their checks merged, `merged_type_checks`), said first, as they keep what the
    user asked for."""
    node = parse_expression(condition.text)
    if not (
        isinstance(node, ast.Compare)
        and isinstance(node.ops[0], ast.IsNot)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
        and _LEFT_OUT.search(given.text)
    ):
        return given
    subject = ast.unparse(node.left)
    for check in chain_arms(checks, condition):
        chain = merged.get(check.line)
        found = parse_expression(chain.text) if chain is not None else None
        if (
            chain is None
            or not isinstance(found, ast.Compare)
            or ast.unparse(found.left) != subject
        ):
            continue
        closed = input_action(chain, facts)
        if closed is not None and _CLOSED_SET in closed.text:
            return _with_left_out(closed, given)
    return given


def _not_input(name: str, constants: dict[str, str], patterns: dict[str, str]) -> bool:
    """A name the check compares the input with: a constant, a builtin, a class, `re`, or
    a pattern the module compiles."""
    fixed = name in constants or name in patterns or name in _PURE_MODULES
    return fixed or name.split(".")[0] in _BUILTINS or name[:1].isupper()


def _calls_pattern(node: ast.expr) -> bool:
    """Whether the condition calls a pattern's method (`.match(x)`): only then is the
    module read for its compiled patterns."""
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("match", "fullmatch")
        for n in walk(node)
    )


def _has_key_test(node: ast.expr) -> bool:
    return any(
        isinstance(n, ast.Compare) and len(n.ops) == 1 and key_test(n) is not None
        for n in walk(node)
    )


def _keys_only(node: ast.expr) -> bool:
    """`"k" not in x`, or several of them joined by `and`."""
    parts = and_parts(node)
    # a key present (`"video" in items`) chooses what the code does with it: only a key
    # missing is the mapping lacking what the check asks for
    return all(
        isinstance(p, ast.Compare)
        and len(p.ops) == 1
        and isinstance(p.ops[0], ast.NotIn)
        and key_test(p) is not None
        for p in parts
    )


def _input_instead(
    node: ast.expr, facts: Facts, function: str, mode: str, exit_: bool = False, line: int = 0
) -> Given | None:
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
    attribute = _attribute_named(function, params)
    params = tuple(p for p in params if p != attribute)

    arguments: dict[str, str] = {}  # the input's name → the argument of the user's call
    # the input's name → (its parameter, the function it is a parameter of, the public
    # calls that hand it on), where the sentence names it as an argument
    holders: dict[str, tuple[str, str, str | None]] = {}

    def argument(name: str) -> str:
        if mode == "keyed":
            return f"the value passed as {code(name)} (it reaches {code(callee)})"
        if name in facts.entry_args:
            # a function no user calls: the public call that hands the value on as it is
            entry = facts.entry_args[name]
            arguments[name] = entry.argument
            if not entry.how.startswith(PART):
                holders[name] = (name, callee, entry.named())
            if entry.how.startswith(PART):
                # a named group of a pattern's match on the argument (`entry_flow`)
                group, _, keyword = entry.how.removeprefix(PART).partition("=")
                instead = f"or the keyword {code(keyword)} given in its place; " if keyword else ""
                return (
                    f"the {code(group)} part of the argument {code(entry.argument)} of "
                    f"{entry.named()} ({instead}it reaches {code(callee)} as {code(name)})"
                )
            return (
                f"the argument {code(entry.argument)} of {entry.named()} "
                f"(it reaches {code(callee)})"
            )
        arguments[name] = name
        holders[name] = (name, callee, None)
        return f"the argument {code(name)} of {code(callee)}"

    if mode == "public":
        spread = _spread_test(node, facts, callee)
        if spread is not None:
            # `**dumps_kwargs` is no keyword a call names: a call writing
            # `dumps_kwargs={}` puts that very key in it
            return None if spread is _NO_WAY else Given(spread)
    others: set[str] = set()
    through: dict[str, str] = {}  # an attribute the constructor set → its keyword
    declared: set[str] = set()  # a field as the user's call gave it (`declared_fields`)
    # the module's patterns are a few of its top-level statements, not the whole file parsed
    patterns = module_patterns(facts.top_module(compiling)) if _calls_pattern(node) else {}
    # `kw.get("_binary_op")`: a private keyword the package's own calls hand on through
    # `**kw`, no field a user gives
    packed_private = _private_keys(node, params, facts)
    for name in free_names(node):
        if name in packed_private or private_argument(name, params, read.init_params, facts):
            # `_adapt`, `_check`: a keyword named private is the package's own to pass (its
            # descriptor, its merge); a user never writes it, and turning it over skips the
            # check with the value that fails it still there
            others.add(name)
        elif name in params and name in unpacked_params(facts, line):
            # bound again to a part of what a call returned: the check reads that part
            others.add(name)
        elif name in params:
            inputs[name] = argument(name)
            if name not in read.positional:
                passed[name] = (False, name)
        elif name.startswith("self.") and name[5:] in read.init_params and owner:
            param = arguments[name] = read.init_params[name[5:]]
            inputs[name] = f"the argument {code(param)} of {code(owner)}"
            holders[name] = (param, owner, None)
            if name in facts.entry_args:
                # a class no user makes: the public call that makes it hands the value on
                entry = facts.entry_args[name]
                arguments[name] = entry.argument
                holders[name] = (name, owner, entry.named())
                inputs[name] = (
                    f"the argument {code(entry.argument)} of {entry.named()} "
                    f"(it reaches {code(owner)})"
                )
            passed[name] = (True, param)
            through[name[5:]] = param
        elif (
            name.startswith("self.")
            and owner
            and (kept := declared_keyword(facts, owner, name[5:]))
        ):
            # a dataclass's field, a base's keyword handed on through `**kwargs`
            arguments[name] = kept
            inputs[name] = f"the argument {code(kept)} of {code(owner)}"
            holders[name] = (kept, owner, None)
            passed[name] = (True, kept)
            declared.add(name)
        elif name.split(".")[0] in params:
            root = name.split(".")[0]
            inputs[root] = argument(root)
        elif _not_input(name, constants, patterns):
            continue
        else:
            others.add(name)  # a name the input does not decide
    if not inputs:
        return None
    if declared and exit_:
        # an exit that skips the object's checks (`if self.owners is None: return`) drops
        # what the field asks for; a later check may want it all the same
        return None
    if others:
        instead = _bound_by_other(node, inputs, constants, others)
    elif (
        mode == "method"
        and not (declared and declared == set(inputs))
        and not _kept_as_given(inputs, through, facts)
    ):
        # a private method's check of what the constructor took is the class's own
        # bookkeeping, unless it bounds what the user made happen (above), checks the
        # fields as the call gave them while the object is made (`_verify_args()` of
        # `__post_init__`), or reads arguments the constructor kept as they are and
        # nothing else sets (`kept_argument`)
        return None
    else:
        message = facts.stored.site.message
        refused = refused_keywords(message.text if message is not None else None)
        # under an `except`, a path tried earlier (`Path(name).is_dir()`) is one way among
        # others the value is taken (a name to download then): only a path made to name a
        # file on disk is said as the value
        bare = facts.innermost_except() is None
        instead = what_to_pass(node, inputs, constants, read.defaults, refused) or more_shapes(
            node,
            inputs,
            constants,
            patterns,
            lambda part: (
                what_to_pass(part, inputs, constants, read.defaults, refused)
                or more_shapes(part, inputs, constants, patterns, lambda _: None, bare_paths=bare)
            ),
            bare_paths=bare,
        )
    if instead is None:
        return None
    if owner and not all(
        allows(decided(facts, owner, attribute, param), instead.text)
        for attribute, param in through.items()
    ):
        return None  # the keyword does not decide the attribute that way alone
    if owner and _none_elsewhere(instead, through, owner, facts):
        return None  # the attribute is None for another reason than the keyword
    instead = _empty_number(instead, facts)
    if instead is None:
        return None
    if "an empty (false) value" in instead.text and _empty_nonsense(instead, through, owner, facts):
        return None  # None for an object the code wants: another error, no way out
    if passed_refused(instead, through, owner, facts):
        return None  # the function taking the value refuses it first: another error
    named = set(arguments.values())
    return Given(
        instead.text,
        _change(instead, passed, facts),
        named.pop() if len(named) == 1 else None,
        _changed_argument(instead, holders, inputs),
    )


def _changed_argument(
    instead: Instead, holders: dict[str, tuple[str, str, str | None]], inputs: dict[str, str]
) -> ChangedArgument | None:
    """The argument the sentence changes as it stands, as data, where the sentence names
    it as an argument (not a key of a mapping passed in, nor a part of a pattern's match)."""
    if instead.subject is None or instead.given is None or instead.subject not in holders:
        return None
    param, function, handed = holders[instead.subject]
    return ChangedArgument(
        param=param,
        function=function,
        value=instead.given,
        words=inputs[instead.subject],
        through=handed,
    )


_NO_WAY = ""


def _spread_test(node: ast.expr, facts: Facts, callee: str) -> str | None:
    """For a test of whether the function's `*args` or `**kwargs` collected anything
    (`if dumps_kwargs: raise`): what to pass, said of the extra arguments the call gives,
    never of a keyword named after the parameter; `_NO_WAY` when the parameter is
    handed on from another call, None when the condition tests no such parameter as a
    whole."""
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    inner = node.operand if isinstance(node, ast.UnaryOp) and negative else node
    if not isinstance(inner, ast.Name):
        return None
    function = facts.site_function()
    if function is None:
        return None
    args = function.args
    if args.kwarg is not None and args.kwarg.arg == inner.id:
        kind, star, which = "keyword", "**", "any keyword it does not name"
    elif args.vararg is not None and args.vararg.arg == inner.id:
        kind, star, which = "positional", "*", "any beyond those it names"
    else:
        return None
    if inner.id in facts.entry_args:
        return _NO_WAY  # handed on from another call: which of its arguments is not known
    collects = f"{code(star + inner.id)} of {code(callee)} collects"
    if negative:
        return f"Pass at least one of the {kind} arguments that {collects} ({which})."
    left_out = SPREAD_LEFT_OUT[0] if kind == "keyword" else SPREAD_LEFT_OUT[1]
    return f"{left_out}{collects} ({which}): the check refuses them."


def private_argument(
    name: str, params: tuple[str, ...], init_params: dict[str, str], facts: Facts
) -> bool:
    """Whether the name is, or is read from, an argument the package keeps for itself: one
    named private, the site's own parameter (`_adapt`), the public call's argument that
    hands it on, or the constructor's keyword an attribute was set from (`self._x = _x`).
    Every rule that names an argument to change asks it (a user never writes it, and turning
    it over skips the check with the value that fails it still there)."""
    root = name.split(".")[0]
    if root in params:
        entry = facts.entry_args.get(root)
        if entry is not None:
            # the public call's own function is not read here: its name alone says
            return private_name(entry.argument)
        return private_name(root) and _kept_for_itself(root, facts.site_function())
    if name.startswith("self.") and name[5:] in init_params:
        keyword = init_params[name[5:]]
        if not private_name(keyword):
            return False  # (the class is not parsed: its name alone says)
        cls = facts.own_class()
        return _kept_for_itself(keyword, own_init(cls) if cls is not None else None)
    return False


def _private_keys(node: ast.expr, params: tuple[str, ...], facts: Facts) -> set[str]:
    """The function's `**kwargs` parameter, when the condition reads a key of it named
    private (`kw.get("_binary_op")`, `kw["_x"]`): a keyword the package's own callers pass
    through the mapping, no field a user fills."""
    keyed = [
        holder.id
        for n in walk(node)
        if (found := _read_key(n)) is not None
        and isinstance(holder := found[0], ast.Name)
        and holder.id in params
        and private_name(found[1])
    ]
    function = facts.site_function() if keyed else None
    kwarg = function.args.kwarg if function is not None else None
    return {kwarg.arg} if kwarg is not None and kwarg.arg in keyed else set()


def _read_key(node: ast.AST) -> tuple[ast.expr, str] | None:
    """(the mapping, the key) of `m.get("k")`, `m["k"]`, `"k" in m`."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        tested = key_test(node)
        return (tested[1], tested[0]) if tested is not None else None
    return field_key(node) if isinstance(node, ast.expr) else None


def _kept_for_itself(param: str, function: ast.FunctionDef | None) -> bool:
    """Whether a parameter named private is the package's own, not the user's: it is not
    the first one a call fills by position (the class a bare decorator is applied to:
    `register_oot(cls, _decorated_cls=None)`). Beside `**kwargs` too: `CaseKey(*args,
    _allow_empty=False, **kwargs)` keeps its keyword apart from the mapping's names for
    its own `default()`. True when the function is not read: its name alone says."""
    if function is None:
        return True
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args) if a.arg not in ("self", "cls")]
    return positional[:1] != [param]


def _kept_as_given(inputs: dict[str, str], through: dict[str, str], facts: Facts) -> bool:
    """Whether every input is an attribute the constructor stored its argument in as it
    is, nothing else sets, and only the raise's own test reads (`kept_argument`)."""
    if set(inputs) != {f"self.{a}" for a in through}:
        return False
    kept = kept_arguments(facts, set(inputs))
    return kept is not None and all(through.get(k.attribute) == k.param for k in kept)


def _none_elsewhere(instead: Instead, through: dict[str, str], owner: str, facts: Facts) -> bool:
    """ "Give the keyword a value (it is None here)" for an attribute the constructor sets
    only under a condition on something else, or from a keyword it reads a part of first."""
    name = instead.name
    if name is None or not name.startswith("self.") or name[5:] not in through:
        return False
    if not instead.text.endswith(_IS_NONE_HERE):
        return False
    site = facts.stored.site
    before = site.line if site.function == f"{owner}.__init__" else None
    return not none_from_keyword(facts, owner, name[5:], through[name[5:]], before)


_IS_NONE_HERE = "(it is None here)."


def _empty_nonsense(
    instead: Instead, through: dict[str, str], owner: str | None, facts: Facts
) -> bool:
    """An empty value of an object of a class, or of the content the code works on."""
    name = instead.name
    if name is not None and name.startswith("self.") and name[5:] in through and owner:
        return empty_is_nonsense(through[name[5:]], facts, owner)
    return empty_is_nonsense(name, facts)


def _empty_number(instead: Instead, facts: Facts) -> Instead | None:
    """An "empty value" for an input the path to the site also orders as a number
    (`0 <= skinny_max_m <= 8`) is `0`: None would fail that comparison with a `TypeError`
    before the check. None (no way out) when 0 fails a literal bound the path holds; no
    exact value when a bound is not known to let 0 pass (under a `not` or an `or`). For an
    input whose default is a non-zero number, `0` let through by a bound, or nothing."""
    name = instead.name
    if instead.after != "None" or name is None or "an empty (false) value" not in instead.text:
        return instead
    compared = sure = False
    for condition in facts.conditions:
        parsed = conjuncts(condition.text)
        if parsed is None:
            continue
        # the parts that all hold on the path: only there does a bound have to hold for 0
        tree, held = parsed
        for node in walk(tree):
            for left, op, right in _orderings(node):
                if name not in (dotted_name(left), dotted_name(right)):
                    continue
                if not compared:
                    compared = sure = True
                values = [0 if dotted_name(x) == name else _number(x) for x in (left, right)]
                if not any(node is part for part in held):
                    sure = False
                elif None not in values and not _ORDERINGS[type(op)](*values):  # type: ignore[arg-type]
                    return None  # neither None nor 0 gets past this bound
    if not compared:
        return None if instead.zero_only else instead
    if not sure:
        if instead.zero_only:
            return None
        return Instead(instead.text, subject=instead.subject, given=instead.given)
    text = instead.text.replace("an empty (false) value", "`0`", 1)
    return Instead(text, name, instead.before, "0")


def _orderings(node: ast.AST) -> list[tuple[ast.expr, ast.cmpop, ast.expr]]:
    """The `<`, `<=`, `>`, `>=` links of a comparison chain, each with its two operands."""
    if not isinstance(node, ast.Compare):
        return []
    operands = [node.left, *node.comparators]
    return [
        (left, op, right)
        for left, op, right in zip(operands, node.ops, operands[1:], strict=False)
        if type(op) in _ORDERINGS
    ]


def _number(node: ast.expr) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    return None


def _change(instead: Instead, passed: dict[str, tuple[bool, str]], facts: Facts) -> Change | None:
    """The argument's change as data: the call, the parameter and its values, when the
    package's public modules reach the function (`httpx.AsyncClient`)."""
    if instead.name is None or instead.name not in passed or instead.name in facts.entry_args:
        return None  # (an entry point's argument: the call a user writes is not the site's)
    constructor, param = passed[instead.name]
    call = user_call(facts, constructor)
    if call is None:
        return None
    target, method = call
    of_init = constructor and not facts.stored.site.function.endswith(".__init__")
    required = required_arguments(facts, param, constructor=of_init)
    names = facts.read.init_required if of_init else facts.read.required
    if of_init and names is None:
        # a dataclass's fields: no `__init__` was read
        names = declared_required(facts, facts.stored.site.function.rpartition(".")[0])
        if names is not None:
            required = tuple(f"{n}={n.upper()}" for n in names if n != param)
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
) -> Instead | None:
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
    if not (isinstance(counted, ast.Call) and is_call(counted, "len")):
        # a count of what the use made (redirects followed, tokens of a prompt) is what a
        # limit bounds; an index or a size the code computed is its own consistency
        return None
    flipped = _FLIPPED.get(type(node.ops[0]))
    left, right = node.left, node.comparators[0]
    read = {n for n in free_names(left) if n.split(".")[0] not in _BUILTINS}
    if flipped is None or not read <= others | set(constants):
        return None
    if set(free_names(right)) & others:
        return None  # both sides read what the input does not decide
    return what_to_pass(
        ast.Compare(left=right, ops=[flipped()], comparators=[left]), inputs, constants
    )


_FLIPPED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Gt: ast.Lt,
    ast.GtE: ast.LtE,
    ast.Lt: ast.Gt,
    ast.LtE: ast.GtE,
}


def _attribute_named(function: str, params: tuple[str, ...]) -> str | None:
    """The parameter of Python's attribute protocol that is the attribute's name:
    `model.x = 1` calls `__setattr__(self, "x", 1)`. Another name is another attribute, no
    way out of a check on the one the statement writes."""
    if function.rpartition(".")[2] not in _ATTRIBUTE_METHODS:
        return None
    own = [p for p in params if p not in ("self", "cls")]
    return own[0] if own else None


def _public_method_owner(function: str, class_name: str | None) -> bool:
    """A method (of any name) of a class a user makes: `Client._send_handling_redirects`."""
    owner = function.rpartition(".")[0]
    return bool(owner) and owner == class_name and public_name(owner)


def public_name(function: str) -> bool:
    """A function a user calls: no part of its qualname is private (dunders are public).
    A module's own `__getattr__`/`__dir__` is Python's to call, with the name the user looked
    up (`module.name`): no call of the user's passes it an argument."""
    parts = [p for p in function.split(".") if p != "<locals>"]
    if "<locals>" in function or not parts or parts in (["__getattr__"], ["__dir__"]):
        return False
    return all(not p.startswith("_") or (p.startswith("__") and p.endswith("__")) for p in parts)
