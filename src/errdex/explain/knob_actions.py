"""What to do with a knob to make one condition false: `set VLLM_X=1`, `pass --enforce-eager`.

The action follows the condition's shape only where it is exact (the name alone, `not
name`, a comparison with a literal); a knob the name does not take as it is gets no value.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, replace

from msgspec.structs import replace as replace_knob

from errdex.ast_walk import walk
from errdex.explain.env_reads import env_read_action, without_walrus
from errdex.explain.flag_reach import only_fed
from errdex.explain.group_size_actions import group_size_action
from errdex.explain.input_nodes import computed_with, literal_value, same_expression
from errdex.explain.json_overrides import plain_flag_overrides
from errdex.explain.knob_types import (
    boolish,
    held_key,
    json_valued,
    key_json,
    key_place,
    negative_flag,
    nested_key,
    numeric,
    optional,
    passed_dict_key,
    valueless_key,
)
from errdex.explain.page import ConditionView, Knob
from errdex.explain.path_tests import PATH_WORDS, SUPPLIED, absent_path, missing_path
from errdex.explain.peer_setting import peer_text
from errdex.explain.plain import code
from errdex.facts import ConditionKind, KnobKind
from errdex.link.expression_texts import parse_expression
from errdex.linked_facts import (
    EMPTY_SECTION,
    NAMED_IN_MESSAGE,
    SECTION_FIELDS,
    may_be_false,
    own_key,
)


@dataclass(frozen=True)
class KnobAction:
    text: str
    knob: str
    before: str | None = None
    after: str | None = None
    note: str | None = None
    part: str | None = None  # the conjunct of an `and` it makes false, when not all of it
    # the Python value a flag's keyword takes to the same effect (`True`, `1`), when one is
    keyword: str | None = None
    # the way to move the setting (raise it, lower it) without a value to set it to
    direction_only: bool = False
    # a JSON flag's other fields the path holds, kept as they are in the fix: (field, value)
    # pairs in the order the path tests them; a section given is `{}`
    kept: tuple[tuple[str, object], ...] = ()
    # the keys the fix's own value makes the flag's object need (the folder a profiler
    # picked writes to), given in its "after" line alone: (field, the user's value)
    added: tuple[tuple[str, object], ...] = ()
    # a JSON key's other values the check accepts (`not in` a tuple): the fix's "before"
    # gives none of them
    accepted: tuple[object, ...] = ()
    # a JSON key's value the fix's "before" gives, as the user had it (the member a
    # message says the check refuses): (field, value)
    had: tuple[tuple[str, str | int | float | bool], ...] = ()
    # another field of the flag's JSON the path tests in a way no value is known to hold
    # (a truth test of a key of unknown type): no line of the flag reaches the check
    unreached: bool = False
    # it gives the setting up (leaves it out, turns it off, leaves it unset): what the user
    # asked for is lost, so a way that keeps it ranks first (`kept_first`)
    drops: bool = False
    # a yes/no flag offered for a name the path holds None (`--x` or `--no-x`), or to turn
    # on or off: (the name, the flag, its negative form or '' for a flag with none); which
    # of `values` takes no failing branch is settled with the page's source (`unset_choice`)
    unset: tuple[str, str, str] | None = None
    # the values of the pair it may settle on: both for a name held None, False (the
    # negative form) for a flag to turn off
    values: tuple[bool, ...] = (True, False)
    # the value settled from such a pair: the user gave the flag in neither form before
    was_unset: bool = False
    # False is given as the flag's negative form (`--no-x`), not by leaving the flag out
    negative: bool = False
    # a sentence said after the action's reason (why not the other value of a pair)
    aside: str | None = None
    # the settings it turns together (`a or b`: every part false), when more than one
    joined: int = 1
    # it sets the setting to any value (one that must not be None): what value passes the
    # function's further checks is not known (`further_checks` names their lines)
    any_value: bool = False
    # it turns off a yes/no switch the user turned on (`VLLM_X=0` where the check reads it
    # as true): the switch's other value is a way out, not a setting left out (`drops`),
    # but the feature the user asked for is given up all the same (`advice_first`)
    off: bool = False

    @property
    def vague(self) -> bool:
        """No value to set: only the setting's name, or the way to move it."""
        return self.direction_only or self.text.startswith("Change")

    @property
    def key_turned_off(self) -> bool:
        """A yes/no key of a flag's JSON turned off: the feature it keeps is given up."""
        return self.drops and (self.keyword or "").startswith("{")


@dataclass(frozen=True)
class Shape:
    """How a condition uses one name: truthy, falsy, or compared with a literal."""

    op: str  # "true", "false", "is", "is not", "==", "!=", "in", "not in", "<", ...
    value: object = None
    has_value: bool = False


# The branches the raise sits in: their test holds there, as written.
_BRANCHES = (ConditionKind.IF, ConditionKind.ELIF)

# A truth test of `not x` is the other truth test of `x`.
_TURNED = {"true": "false", "false": "true"}

# What a value must be to avoid `value <op> bound`: the words after "a value".
_OUTSIDE_BOUND = {">": "at most", ">=": "below", "<": "at least", "<=": "above"}


def knob_action(
    condition: ConditionView, knobs: list[Knob], *, either: bool = False
) -> KnobAction | None:
    """The first knob behind a name of the condition, and how to turn it off.

    For `a and b`, making one conjunct false is enough: each is tried on its own. With
    `either`, for `a or b` (one reason of a reasons list, added when any part is true) the
    exact action on a part a flag decides, the whole test kept as its reason.
    """
    if not any(_may_act(k) for k in knobs):
        return None  # most pages: nothing to parse the condition for
    try:
        node = ast.parse(condition.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        fallback: KnobAction | None = None
        turned_off: KnobAction | None = None
        for value in node.values:
            action = _action(value, condition, knobs)
            if action is None:
                continue
            action = replace(action, part=ast.unparse(value))
            if action.key_turned_off:
                # a yes/no key of the JSON turned off: a part the user's other keys decide
                # keeps the feature (`use_async and policy != "default"`: the policy)
                turned_off = turned_off or action
                continue
            if action.before is not None or not action.vague:
                return action
            fallback = _better(fallback, action)
        return turned_off or fallback
    if either and isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        # every part must be false: the other parts are said in the reason, not claimed
        for value in node.values:
            action = _action(value, condition, knobs)
            if action is not None and not action.vague:
                return action
    action = _action(node, condition, knobs)
    if (action is None or action.vague) and isinstance(node, ast.BoolOp):
        return _every_part(node, condition, knobs) or action
    return action


def _every_part(node: ast.BoolOp, condition: ConditionView, knobs: list[Knob]) -> KnobAction | None:
    """`a or b` in a branch the raise sits in (`if sleep_mode or cumem_allocator:`), each
    part decided by a setting of its own: the condition is false only when every part is,
    so the way out is every part's action together ("Do not pass `--a`, and do not pass
    `--b`"). One part no setting decides exactly, or two parts of one setting (a value to
    pick among the parts' wants, which the words of each do not say), and nothing is said.
    Not for an early exit's negated test, whose parts another check may refuse, nor for a
    local that holds an `or` (`external = self.external_lb or self.rank is not None`):
    other guards of the path read the local too, and turning it off may meet them."""
    if not isinstance(node.op, ast.Or) or condition.kind not in _BRANCHES or not condition.holds:
        return None
    written = parse_expression(condition.test)
    if not (isinstance(written, ast.BoolOp) and isinstance(written.op, ast.Or)):
        return None
    actions = [_action(value, condition, knobs) for value in node.values]
    exact = [a for a in actions if a is not None and not a.vague]
    if len(exact) != len(actions) or len({a.knob for a in exact}) != len(exact):
        return None
    rest = [a.text[0].lower() + a.text[1:] for a in exact[1:]]
    return KnobAction(
        ", and ".join([exact[0].text, *rest]),
        exact[0].knob,
        drops=any(a.drops for a in exact),
        joined=len(exact),
        off=any(a.off for a in exact),
    )


def _action(node: ast.expr, condition: ConditionView, knobs: list[Knob]) -> KnobAction | None:
    """The first exact action of a knob behind the node; one that only names the knob
    (`_generic`) when no knob gives more (a name computed from several settings follows
    each of them, and the one it takes as it is says what to set)."""
    fallback: KnobAction | None = None
    for knob in knobs:
        action = _knob_action(node, condition, knob, knobs)
        if action is None or (action.vague and only_fed(node, knob, knobs)):
            continue
        if action.vague:
            fallback = _better(fallback, action)
            continue
        return action
    return fallback


def _may_act(knob: Knob) -> bool:
    """A setting behind a name (not one the message only names) may decide a condition."""
    kinds = (KnobKind.ENV, KnobKind.FLAG)
    return knob.behind is not None and knob.kind in kinds and knob.via != NAMED_IN_MESSAGE


def _knob_action(
    node: ast.expr, condition: ConditionView, knob: Knob, knobs: list[Knob]
) -> KnobAction | None:
    action = _setting_action(node, condition, knob, knobs)
    if action is None or not knob.entry_keyword:
        return action
    return _entry_keyword_action(knob, action, condition)


def _entry_keyword_action(
    knob: Knob, action: KnobAction, condition: ConditionView
) -> KnobAction | None:
    """A flag's action as the keyword of the public class that alone builds its object
    (`KnobLink.entry_keyword`): the value written out (`LLM(disable_log_stats=False)`),
    since leaving the keyword out gives the class's own default, not the flag's; an action
    with no one value to write says nothing."""
    keyword = knob.entry_keyword
    if action.keyword is None or knob.call is None or keyword is None:
        return None
    try:
        ast.literal_eval(action.keyword)
    except (ValueError, SyntaxError, RecursionError):
        return None  # a JSON object, a name: no keyword value written here
    entry = knob.call.partition("(")[0]
    short = entry.rpartition(".")[2]
    text = f"Pass `{keyword}={action.keyword}` to `{entry}`"
    if knob.default is not None and knob.default != action.keyword:
        text += f" (left out, `{short}` gives it `{knob.default}`)"
    note = f"The keyword `{keyword}` of `{short}` decides `{condition.text}`."
    return KnobAction(text, knob.name, keyword=action.keyword, note=note)


def _setting_action(
    node: ast.expr, condition: ConditionView, knob: Knob, knobs: list[Knob]
) -> KnobAction | None:
    if knob.behind is None or not _may_act(knob):
        return None
    if knob.sets is not None:
        return _set_action(node, knob)
    if knob.json_key is not None:
        # the name holds one field of the flag's JSON: that field, or nothing
        if knob.kind != KnobKind.FLAG:
            return None
        if (
            (own_key(knob.json_key, knob.via) or held_key(knob))
            and not condition.holds
            and condition.kind in (ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE)
        ):
            # an earlier branch of a chain on the key (`elif self.method == "mtp"`, `elif
            # backend == "outlines"`): its value picks other code, with checks of its own
            return None
        shape = compared_shape(node, knob.behind)
        if knob.dict_key is not None and shape is not None and not_none(shape):
            # a key of a free dict: left out of it, where `.get` then gives None (no
            # class's validator ties the dict's keys to the object's others)
            return _dict_key_left_out(knob)
        if knob.dict_key is not None and shape is not None and _empty_left_out(shape, knob):
            return _dict_key_left_out(knob, empty=True)
        if held_key(knob) and shape is not None and not_none(shape):
            # `null` in the JSON with the user's other keys: the class's validator may tie
            # them to this one (`torch_profiler_activities` only with `profiler` "torch");
            # left out whole, the flag gives none of them
            return _flag_action(replace_knob(knob, json_key=None), shape)
        action = (
            _json_field_action(node, knob)
            or _own_key_change(node, knob)
            or _held_key_change(node, knob)
        )
        if action is not None and condition.kind is ConditionKind.EARLY_EXIT and held_key(knob):
            # an earlier exit taken on the value of a key a name holds (`if self.kv_role ==
            # "kv_consumer": return`): another mode, which skips what the function does
            action = replace(action, drops=True)
        return action
    if knob.group_size:
        text = group_size_action(node, knob)
        return KnobAction(text, knob.name) if text is not None else None
    if knob.inverted:
        # `behind` is `not` the setting: only its truth is known, turned
        shape = compared_shape(node, knob.behind)
        if shape is None or shape.op not in _TURNED or not knob.same_value:
            return None
        turned = Shape(_TURNED[shape.op])
        if knob.kind == KnobKind.ENV:
            return _env_action(knob, turned)
        action = _flag_action(knob, turned)
        # the flag's value is not the name's: no branch is followed with it (`unset_choice`)
        return replace(action, unset=None) if action is not None else None
    node = without_walrus(node) if knob.kind == KnobKind.ENV else node  # flags: see env_reads
    if (read := env_read_action(node, knob)) is not None:
        return KnobAction(*read)
    shape = compared_shape(node, knob.behind)
    if shape is not None and _positive_count(shape):
        return None  # `n > 0`: none of a thing is no setting to ask for
    if shape is None:
        field = _json_field_action(node, knob) if knob.kind == KnobKind.FLAG else None
        if field is not None:
            return field
        limit = _limit_action(node, knob, condition) if knob.same_value else None
        if limit is not None:
            return limit
        if _kept_within(node, knob, condition):
            return None  # no setting to change: the code holds the count to it itself
        if knob.same_value and (path := missing_path(node, knob.behind)) is not None:
            return _supplied_path(knob, path)
        if knob.same_value and (absent := absent_path(node, knob.behind)) is not None:
            return _existing_path(knob, *absent)
        if knob.behind in _names(node):
            return (
                _direction(node, knob)
                or _compared(node, knob, knobs, condition)
                or _peer_matched(node, knob)
                or _generic(knob, condition)
            )
        return None
    if knob.conjunct and knob.kind == KnobKind.ENV:
        # one of the settings `behind` is true only with: turning it off is a way out,
        # turning it on is not enough on its own
        return _env_action(knob, shape) if shape.op == "true" and boolish(knob) else None
    if not knob.same_value:
        return _generic(knob, condition)
    if shape.op == "true" and knob.passed_by and not may_be_false(knob.kind, knob.value_type):
        # a value a caller passes is linked under a truth test only when the flag never
        # leaves it false (`--model`, the folder a path is looked for in): the test holds
        return None
    action = _env_action(knob, shape) if knob.kind == KnobKind.ENV else _flag_action(knob, shape)
    written = action is not None and (action.drops or action.keyword is not None)
    if written and action is not None and action.keyword != "None" and _holds_one_field(knob):
        # leaving the flag out leaves the field at its default, which a truth test may
        # fail; a value given as the flag's whole JSON is no value of the field: only the
        # flag is named. (Left out "in any form" for a field that must be None stays: a
        # configuration class leaves its optional fields None.)
        return _generic(knob, condition)
    return action or _generic(knob, condition)


# How the linker names a local bound to what it reads: "the local `x` = `a.b.c` (line 9)".
_LOCAL_VIA = re.compile(r"the local `[^`]+` = `([\w.]+)`")


def _holds_one_field(knob: Knob) -> bool:
    """A JSON-valued flag behind a local that holds one field of its object, read on past
    the flag's own attribute (`enable = worker.vllm_config.kernel_config.enable_jit`, for
    `--kernel-config`): leaving the flag out, or passing it empty, leaves that field at its
    default, which may be the value that fails, and a value written as the flag's whole
    argument (`--profiler-config torch`) is no JSON of its object, so no such action on the
    flag is drawn (only its name). The field's type is not known here to write its JSON."""
    found = _LOCAL_VIA.match(knob.via or "") if knob.kind == KnobKind.FLAG else None
    if found is None or not json_valued(knob):
        return False
    parts = found.group(1).split(".")
    own = knob.name.lstrip("-").replace("-", "_")
    return own in parts[:-1]


def _better(kept: KnobAction | None, new: KnobAction) -> KnobAction:
    """Of two vague actions, the first unless only the new one says which way to move."""
    if kept is None or (new.direction_only and not kept.direction_only):
        return new
    return kept


def _direction(node: ast.expr, knob: Knob) -> KnobAction | None:
    """Which way to move a setting the condition uses but does not compare with a literal,
    where certain: the time a wait is given, when the wait failing is the condition (`not
    wait_for_termination(procs, timeout=envs.SHUTDOWN_TIMEOUT)`): only a time limit's."""
    if not (
        knob.same_value
        and isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.Not)
        and isinstance(node.operand, ast.Call)
    ):
        return None
    call = node.operand
    for keyword in call.keywords:
        if keyword.arg is None or not same_expression(keyword.value, knob.behind or ""):
            continue
        if not _TIME_LIMIT.search(keyword.arg):
            continue
        try:
            called = ast.unparse(call.func)
        except (ValueError, RecursionError):
            return None
        kind = "environment variable" if knob.kind == KnobKind.ENV else "flag"
        text = f"Raise the {kind} `{knob.name}`, the `{keyword.arg}` given to {code(called)}"
        return KnobAction(text, knob.name, direction_only=True)
    return None


def _compared(
    node: ast.expr, knob: Knob, knobs: list[Knob], condition: ConditionView
) -> KnobAction | None:
    """`draft_len < target_len` where the setting is one side as it is: the way to move it
    past the other side. Not when the same setting is behind the other side too (moving it
    moves both)."""
    sides = _other_side(node, knob) if knob.same_value and numeric(knob) else None
    if (
        sides is None
        or isinstance(sides[0], ast.Constant)
        or condition.kind is ConditionKind.ASSERT
    ):
        return None  # an `assert` holds the program's own state: no setting to move
    other, op = sides
    try:
        names = _names(other) | {ast.unparse(other)}
    except (ValueError, RecursionError):
        return None
    if any(k.name == knob.name and k.behind in names for k in knobs):
        return None
    words = f"a value {_OUTSIDE_BOUND[op]} {code(ast.unparse(other))}"
    if knob.kind == KnobKind.ENV:
        text = f"Set `{knob.name}` to {words}"
    else:
        text = f"Pass `{knob.name}` with {words}"
    return KnobAction(text, knob.name, direction_only=True)


# A keyword that bounds how long a call waits: `timeout`, `wait_timeout`, `deadline`.
_TIME_LIMIT = re.compile(r"(?:^|_)(?:timeout|deadline)(?:_|$)", re.I)


def _names(node: ast.expr) -> set[str]:
    found: set[str] = set()
    for child in walk(node):
        if isinstance(child, ast.Name | ast.Attribute):
            try:
                found.add(ast.unparse(child))
            except (ValueError, RecursionError):
                continue
    return found


def compared_shape(node: ast.expr, name: str) -> Shape | None:
    """How `node` tests `name`: as it is, negated, or compared with a literal."""
    if same_expression(node, name):
        return Shape("true")
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.Not)
        and same_expression(node.operand, name)
    ):
        return Shape("false")
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and same_expression(node.left, name)
        and isinstance(node.comparators[0], ast.Constant | ast.Tuple | ast.List | ast.Set)
    ):
        try:
            value = literal_value(node.comparators[0])
        except (ValueError, SyntaxError):
            return None
        op = {
            ast.Is: "is",
            ast.IsNot: "is not",
            ast.Eq: "==",
            ast.NotEq: "!=",
            ast.In: "in",
            ast.NotIn: "not in",
            ast.Lt: "<",
            ast.LtE: "<=",
            ast.Gt: ">",
            ast.GtE: ">=",
        }.get(type(node.ops[0]))
        return Shape(op, value, has_value=True) if op else None
    return None


def _env_value(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _env_action(knob: Knob, shape: Shape) -> KnobAction | None:
    name = knob.name
    off = f"unset {name}"

    def setting(value: str, text: str, off: bool = False) -> KnobAction:
        return KnobAction(
            text=text,
            knob=name,
            before=f"export {name}={_env_value(shape.value)}"
            if shape.has_value
            else f"unset {name}",
            after=f"export {name}={value}",
            off=off,
        )

    match shape.op:
        case "true" if boolish(knob):
            return KnobAction(
                f"Set `{name}=0`",
                name,
                before=f"export {name}=1",
                after=f"export {name}=0",
                off=True,
            )
        case "true":
            return KnobAction(f"Leave `{name}` unset or empty", name, drops=True)
        case "false" if boolish(knob):
            return KnobAction(
                f"Set `{name}=1`", name, before=f"export {name}=0", after=f"export {name}=1"
            )
        case "false":
            return KnobAction(f"Set `{name}` to a non-empty value", name)
        case "is" | "==" if shape.value is None:
            return KnobAction(f"Set `{name}` to a value", name, any_value=True)
        case "is not" | "!=" if shape.value is None:
            return KnobAction(f"Unset `{name}`", name, before=f"export {name}=VALUE", after=off)
        case "is" | "==" if isinstance(shape.value, bool):
            other = "0" if shape.value else "1"
            # `X == True` holding: the user turned it on
            return setting(
                other, f"Set `{name}={other}` or leave it unset", off=shape.value is True
            )
        case "is not" | "!=" if isinstance(shape.value, bool):
            wanted = _env_value(shape.value)
            return KnobAction(
                f"Set `{name}={wanted}`",
                name,
                before=off,
                after=f"export {name}={wanted}",
            )
        case "==":
            return KnobAction(f"Set `{name}` to a value other than {shape.value!r}", name)
        case "!=":
            wanted = _env_value(shape.value)
            return KnobAction(
                f"Set `{name}={wanted}`", name, before=None, after=f"export {name}={wanted}"
            )
        case "in":
            return KnobAction(f"Set `{name}` to a value outside {shape.value!r}", name)
        case "not in":
            return KnobAction(f"Set `{name}` to one of {shape.value!r}", name)
        case ">" | ">=" | "<" | "<=":
            opposite = _OUTSIDE_BOUND[shape.op]
            return KnobAction(f"Set `{name}` to a value {opposite} {shape.value!r}", name)
    return None


def _flag_action(knob: Knob, shape: Shape) -> KnobAction | None:
    flag = knob.name
    # left out, a flag that defaults to `True` stays on: only its `--no-x` form turns it off
    # (argparse's `BooleanOptionalAction`, or a generated field's flag pair)
    on_by_default = knob.default == "True"
    match shape.op:
        case "true" if on_by_default and knob.bare and not knob.negated:
            return None  # no form of the command line turns it off
        case "true" if boolish(knob) and not optional(knob) and not on_by_default:
            plain = (knob.behind or flag, flag, "")  # no negative form: only checked
            return KnobAction(
                f"Do not pass `{flag}`",
                flag,
                keyword="False",
                drops=True,
                unset=plain,
                values=(False,),
            )
        case "true" if boolish(knob) or on_by_default:
            # left out, a `bool | None` flag lets the code choose, and one that defaults to
            # `True` stays on: `--no-x` turns it off
            negative = negative_flag(flag)
            pair = (knob.behind or flag, flag, negative) if negative else None
            return KnobAction(
                f"Turn `{flag}` off", flag, keyword="False", drops=True, unset=pair, values=(False,)
            )
        case "false" if boolish(knob):
            plain = (knob.behind or flag, flag, "")
            return KnobAction(f"Pass `{flag}`", flag, keyword="True", unset=plain, values=(True,))
        case "is" | "==" if shape.value is None and optional(knob) and boolish(knob):
            # a flag pair: no `VALUE` to write, and one of the two values may fail elsewhere
            negative = negative_flag(flag)
            if negative is None:
                return None
            pair = (knob.behind or flag, flag, negative)
            return KnobAction(f"Pass `{flag}` or `{negative}`", flag, unset=pair)
        case "is" | "==" if shape.value is None and optional(knob):
            return KnobAction(f"Pass `{flag} VALUE`", flag)
        case "is not" | "!=" if shape.value is None:
            # a command line gives no flag the value None: only its default is, so the
            # flag is left out (a flag like `store_true` takes no value to write anyway),
            # its negative form too where it has one (`--no-x` gives False, not None)
            return KnobAction(f"Do not pass `{flag}` in any form", flag, keyword="None", drops=True)
        case "true":
            return KnobAction(f"Do not pass `{flag}` (or pass an empty value)", flag, drops=True)
        case "==" | "is":
            return KnobAction(f"Pass `{flag}` with a value other than {shape.value!r}", flag)
        case "!=" | "is not":
            return KnobAction(f"Pass `{flag} {shape.value}`", flag, keyword=repr(shape.value))
        case "not in":
            return KnobAction(f"Pass `{flag}` with one of {shape.value!r}", flag)
        case "in":
            return KnobAction(f"Pass `{flag}` with a value outside {shape.value!r}", flag)
        case ">" | ">=" | "<" | "<=":
            opposite = _OUTSIDE_BOUND[shape.op]
            # `value > bound` is avoided by the bound itself; `value >= bound` by no one value
            exact = repr(shape.value) if shape.op in (">", "<") else None
            return KnobAction(
                f"Pass `{flag}` with a value {opposite} {shape.value!r}", flag, keyword=exact
            )
    return None


def _other_side(node: ast.expr, knob: Knob) -> tuple[ast.expr, str] | None:
    """(what the knob's name is compared with, the operator as `knob <op> other`) when the
    node is one ordering comparison with the name on either side."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and knob.behind):
        return None
    op = _OPS.get(type(node.ops[0]))
    left, right = node.left, node.comparators[0]
    if op is None:
        return None
    if same_expression(right, knob.behind):
        return left, _FLIPPED[op]
    if same_expression(left, knob.behind):
        return right, op
    return None


def _limit(node: ast.expr, knob: Knob) -> tuple[ast.Call, str] | None:
    """(the count, the operator as `knob <op> count`) when the node compares the knob's
    name with a `len(...)`."""
    sides = _other_side(node, knob)
    if sides is None:
        return None
    count, op = sides
    if not (
        isinstance(count, ast.Call)
        and isinstance(count.func, ast.Name)
        and count.func.id == "len"
        and len(count.args) == 1
    ):
        return None
    return count, op


def _kept_within(node: ast.expr, knob: Knob, condition: ConditionView) -> bool:
    """A count the code holds to the limit itself: one an `assert` checks, or of the
    object's own state (`len(self.running)` in a scheduler). Failing is the code's own
    fault; no setting is the way out."""
    found = _limit(node, knob)
    if found is None:
        return False
    if condition.kind is ConditionKind.ASSERT:
        return True
    root = found[0].args[0]
    while isinstance(root, ast.Attribute | ast.Subscript | ast.Call):
        root = root.func if isinstance(root, ast.Call) else root.value
    return isinstance(root, ast.Name) and root.id in ("self", "cls")


_FLIPPED = {">": "<", ">=": "<=", "<": ">", "<=": ">="}
_OPS = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<="}


def _limit_action(node: ast.expr, knob: Knob, condition: ConditionView) -> KnobAction | None:
    """`len(ids) > self.max_model_len`, where a setting is the limit: a count of what the
    use made (a prompt's tokens, redirects followed) on the other side, so the setting
    can be raised (or lowered) past it. A value the code computed is its own bound."""
    found = _limit(node, knob)
    if found is None or _kept_within(node, knob, condition):
        return None
    count, op = found
    counted = code(ast.unparse(count))
    # the limit may have a ceiling of its own (a model's context): what is counted is
    # the user's too
    words = f"a value {_OUTSIDE_BOUND[op]} {counted}"
    fewer = f", or make what {counted} counts {'smaller' if op in ('<', '<=') else 'larger'}"
    if knob.kind == KnobKind.ENV:
        return KnobAction(f"Set `{knob.name}` to {words}{fewer}", knob.name)
    return KnobAction(f"Pass `{knob.name}` with {words}{fewer}", knob.name)


def _supplied_path(knob: Knob, path: tuple[str, str]) -> KnobAction:
    """A path the code looks for in the folder a setting names, supplied there."""
    place, test = path
    what = {"isdir": "the folder ", "isfile": "the file "}.get(test, "")
    if knob.kind == KnobKind.ENV:
        text = f"Set `{knob.name}` to a {SUPPLIED} {what}{code(place)}"
    else:
        text = f"Pass `{knob.name}` a local {SUPPLIED} {what}{code(place)}"
    return KnobAction(text, knob.name)


def _existing_path(knob: Knob, test: str, place: str | None) -> KnobAction:
    """The path a setting gives, tested for being there: a path that is (or a folder that
    holds the place the code looks for in it)."""
    if place is not None:
        return _supplied_path(knob, (place, test))
    if knob.kind == KnobKind.ENV:
        return KnobAction(f"Set `{knob.name}` to {PATH_WORDS[test]}", knob.name)
    return KnobAction(f"Pass `{knob.name}` {PATH_WORDS[test]}", knob.name)


def _peer_matched(node: ast.expr, knob: Knob) -> KnobAction | None:
    """A flag compared with the other instance's own value of it (`peer_setting`): both
    launched with the same value, no one value to name."""
    if knob.kind != KnobKind.FLAG or not knob.same_value or knob.behind is None:
        return None
    text = peer_text(node, knob.name, knob.behind)
    return KnobAction(text, knob.name, direction_only=True) if text is not None else None


def _generic(knob: Knob, condition: ConditionView) -> KnobAction:
    kind = "environment variable" if knob.kind == KnobKind.ENV else "flag"
    text = f"Change the {kind} `{knob.name}`, which {code(knob.behind or knob.name)} follows"
    return KnobAction(text=text, knob=knob.name)


def _json_field_action(node: ast.expr, knob: Knob) -> KnobAction | None:
    """`config.field` tested against a literal, where `config` is a JSON-valued flag (or
    a name holding that field, `Knob.json_key`): the field to put in the flag's JSON, with
    the value that avoids the site."""
    if knob.behind is None or not json_valued(knob):
        return None
    if valueless_key(knob) and knob.dict_key is None:
        return None  # named with no value (`_held_key_change`)
    prefix = knob.behind + "."
    fields = (
        [(knob.json_key, knob.behind)]
        if knob.json_key is not None
        else [
            (n[len(prefix) :], n)
            for n in _names(node)
            if n.startswith(prefix) and n[len(prefix) :].isidentifier()
        ]
    )
    instead = dict(knob.json_fields)
    for attr, name in fields:
        shape = compared_shape(node, name)
        # a property or method is no key of the object: the field it returns, or nothing;
        # an attribute of a section the name holds (`SECTION_FIELDS`) nests under it
        field = instead.get(attr, instead.get(SECTION_FIELDS[0], attr))
        if shape is None or not field:
            continue
        if shape.op in ("true", "false") and (
            knob.key_default is None
            if knob.json_key is not None
            else dict(knob.key_defaults).get(field) in ("", EMPTY_SECTION)
        ):
            continue  # a key known to be no yes/no (a path, a list, a section): no `false`
        value: object
        accepted: tuple[object, ...] = ()  # the others `not in` takes
        match shape.op:
            case "true":
                value = False
            case "false":
                value = True
            case "!=" | "is not" if shape.has_value and not (
                shape.value is None
                and (own_key(knob.json_key, knob.via) or knob.dict_key is not None)
            ):
                # not `null` for a configuration class's own key: left None, the class or
                # the level of optimization often fills in a value of its own (a dict's
                # key is left out instead: `_dict_key_left_out`)
                value = shape.value
            case "not in" if (
                isinstance(shape.value, tuple | list | set | frozenset) and shape.value
            ):
                members = (
                    sorted(shape.value, key=repr)
                    if isinstance(shape.value, set | frozenset)
                    else list(shape.value)
                )
                if own_key(knob.json_key, knob.via):
                    members = [m for m in members if m is not None]  # not `null`: see above
                if not members:
                    continue
                value, accepted = members[0], tuple(members)
            case _:
                continue
        setting = json.dumps(key_json(knob, value) if knob.dict_key else {field: value})
        text = f"Pass `{knob.name} '{setting}'` (with the rest of your {knob.name} fields)"
        if shape.op == "not in":
            text += f"; `{knob.dict_key or field}` may be any of {shape.value!r}"
        text += plain_flag_overrides(knob, field, value)
        # a yes/no key of the configuration's own turned off gives its feature up
        off = knob.json_key is not None and shape.op == "true" and knob.key_default is not None
        keyword = repr(key_json(knob, value) if knob.dict_key else {field: value})
        return KnobAction(text=text, knob=knob.name, keyword=keyword, drops=off, accepted=accepted)
    return None


def _own_key_change(node: ast.expr, knob: Knob) -> KnobAction | None:
    """A configuration class's own key the check computes with (`any(rates[i] > rates[i -
    1] ...)`, `rates` given `self.synthetic_acceptance_rates`): the key to change, with no
    value to set it to; what must hold is the condition's opposite. Not a truth test: what
    the key's type is is not known here."""
    if knob.behind is None or not own_key(knob.json_key, knob.via):
        return None
    if compared_shape(node, knob.behind) is not None or not computed_with(node, knob.behind):
        return None
    text = f"Change `{knob.json_key}` in the JSON of `{knob.name}` to a value this check accepts"
    return KnobAction(text=text, knob=knob.name)


def not_none(shape: Shape) -> bool:
    """`x is not None`, `x != None`."""
    return shape.op in ("is not", "!=") and shape.has_value and shape.value is None


def _held_key_change(node: ast.expr, knob: Knob) -> KnobAction | None:
    """A name holding one key of the flag's JSON as it is (`mode` given
    `compilation_config.mode`), tested in a way no exact value follows from (an enum
    member, a truth test of a key of unknown type): the key to change, named in the flag's
    JSON. Not a configuration class's own key: its branches pick what the user asked for."""
    if knob.behind is None or knob.behind not in _names(node):
        return None
    if not (held_key(knob) or passed_dict_key(knob)):
        return None  # a parameter the callers give: said of the call, or as the message says
    return _key_change(knob)


def _key_change(knob: Knob) -> KnobAction:
    text = f"Change {key_place(knob)}, which {code(knob.behind or knob.name)} follows"
    return KnobAction(text=text, knob=knob.name)


def _dict_key_left_out(knob: Knob, empty: bool = False) -> KnobAction:
    """`x is not None` of a free dict's key read with `.get("k")`: the key left out of the
    dict (what the user asked for with it is given up); `empty`, a truth test of a key
    whose default is the empty string. Read as `d["k"]`, or with another default, leaving
    it out gives no None: only the key is named."""
    if knob.dict_default != "None" and not empty:
        return _key_change(knob)
    return KnobAction(text=f"Leave {_key_out_of(knob)}", knob=knob.name, drops=True)


def _empty_left_out(shape: Shape, knob: Knob) -> bool:
    """`x` tested for truth, `x` a free dict's key read with the empty string as its default
    (`str(d.get("k") or "").upper()`): left out, the key gives `""`, which the conversions
    a read keeps (`str`, `.upper()`, `.strip()`) leave empty, so the test fails."""
    return shape.op == "true" and knob.dict_default == "''"


def _key_out_of(knob: Knob) -> str:
    if nested_key(knob):
        return f"`{knob.dict_key}` out of `{knob.json_key}` in the JSON of `{knob.name}`"
    return f"`{knob.json_key}` out of the JSON of `{knob.name}`"


def _positive_count(shape: Shape) -> bool:
    """`n > 0`, `n >= 1`, `n != 0`: the way out would be none of the thing counted."""
    if not shape.has_value or isinstance(shape.value, bool):
        return False
    return (shape.op, shape.value) in ((">", 0), (">=", 1), ("!=", 0))


def _set_action(node: ast.expr, knob: Knob) -> KnobAction | None:
    """The setting that makes the code assign, elsewhere, the value that turns the
    condition false: `--enforce-eager`, under which `cudagraph_mode = CUDAGraphMode.NONE`
    makes `cudagraph_mode != CUDAGraphMode.NONE` false. Only where that is certain."""
    if knob.behind is None or knob.sets is None or knob.when is None or knob.when_behind is None:
        return None
    if _after_assignment(node, knob.behind, knob.sets) is not False:
        return None
    guard = ConditionView(
        text=f"not ({knob.when})", test=knob.when, kind=ConditionKind.IF, holds=True, line=0
    )
    inner = replace_knob(knob, sets=None, behind=knob.when_behind, same_value=True)
    action = _action(ast.parse(guard.text, mode="eval").body, guard, [inner])
    if action is None or action.vague:
        return None
    said = f"; the code says: “{knob.note}”" if knob.note else ""
    return replace(action, text=f"{action.text} ({knob.via}{said})", note=knob.note)


def _after_assignment(node: ast.expr, name: str, value: str) -> bool | None:
    """What the condition is once `name` holds `value`, when plain from the text: a
    comparison with the same value, or membership in a literal; None when unsure."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _after_assignment(node.operand, name, value)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        results = [_after_assignment(v, name, value) for v in node.values]
        if isinstance(node.op, ast.And) and False in results:
            return False
        if isinstance(node.op, ast.Or) and True in results:
            return True
        return None
    if not (
        isinstance(node, ast.Compare) and len(node.ops) == 1 and same_expression(node.left, name)
    ):
        return None
    right = ast.unparse(node.comparators[0])
    op = node.ops[0]
    if isinstance(op, ast.Eq | ast.Is):
        return True if right == value else None
    if isinstance(op, ast.NotEq | ast.IsNot):
        return False if right == value else None
    if isinstance(op, ast.In | ast.NotIn) and isinstance(
        node.comparators[0], ast.Tuple | ast.List | ast.Set
    ):
        members = {ast.unparse(e) for e in node.comparators[0].elts}
        inside = value in members
        return inside if isinstance(op, ast.In) else not inside
    return None
