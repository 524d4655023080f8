"""A setting's example fix whose "before" line reaches the check: the other settings the
path holds are given in both lines.

"Elastic EP is only supported with enable_eplb=True" is raised when `--enable-elastic-ep`
is given and `--enable-eplb` is not. The fix that passes `--enable-eplb` runs `vllm serve
MODEL_TAG --enable-elastic-ep` before and `... --enable-elastic-ep --enable-eplb` after:
without the first flag the "before" line never meets the check, and a fix whose "before"
does not fail shows the user nothing. Each other condition of the path that a setting of the
same command line decides is given in the form that holds it: the "before" of that
condition's own way out (`--enable-elastic-ep`, `VLLM_X=1`), a value the condition's
literal allows (`--tensor-parallel-size 2` for `tp > 1`), or the flag with the user's own
value named (`--kv-transfer-config KV_TRANSFER_CONFIG`) where the page only knows which
setting it is: the user who met the error gave that value. A condition a setting decides
in a form no line can write (another command, a yes/no value not known) drops the fix: the
page cannot show a "before" that fails.
"""

from __future__ import annotations

import ast
import json
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, replace

import msgspec

from errdex.explain.caller_guards import guarded_entries
from errdex.explain.context import Facts
from errdex.explain.expanded import expanded, own_expanded
from errdex.explain.first_actions import first_action
from errdex.explain.fix_forms import placeholder
from errdex.explain.input_nodes import part_views
from errdex.explain.knob_actions import KnobAction, Shape, compared_shape, not_none
from errdex.explain.knob_types import (
    boolish,
    json_valued,
    key_json,
    negative_flag,
    valueless_key,
)
from errdex.explain.literal_bindings import with_literals
from errdex.explain.literal_members import with_members
from errdex.explain.page import ConditionView, ExampleFix, Knob, Solution
from errdex.explain.plain import your_values
from errdex.extract.commands import metavar
from errdex.extract.conditions import dotted_names
from errdex.facts import ConditionKind, KnobKind
from errdex.link.expression_texts import parse_expression
from errdex.linked_facts import EMPTY_SECTION, NAMED_IN_MESSAGE

__all__ = ["reached_fix", "with_reached_fix"]

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class _Held:
    """What keeps one condition of the path true, as the user writes it."""

    knob: str
    flags: str = ""  # `--enable-elastic-ep`, given after the command
    env: str = ""  # `VLLM_X=1`, given before it
    command: str | None = None  # the command line the flag is given to
    # the whole numbers a bound the condition holds allows (lowest, highest; None: open)
    within: tuple[int | None, int | None] | None = None
    unwritable: bool = False  # a setting decides it, in a form no line writes
    behind: str | None = None  # the name of the part the setting gives
    # the user's own value, outside literals the part names (`dtype not in ("auto", "half")`)
    outside: bool = False


def with_reached_fix(solution: Solution, facts: Facts) -> Solution:
    """The solution with its setting fix made to reach the check (or dropped)."""
    if solution.fix is None or solution.kind != "setting" or solution.knob is None:
        return solution
    fix = reached_fix(solution.fix, solution.knob, facts, solution.condition)
    return solution if fix is solution.fix else msgspec.structs.replace(solution, fix=fix)


def reached_fix(
    fix: ExampleFix, knob_name: str, facts: Facts, condition: str | None = None
) -> ExampleFix | None:
    """`fix` (of the setting `knob_name`, making `condition` false) with the other settings
    the path holds given in both lines; None when one of them cannot be written; `fix`
    itself when none is needed or its form is no command line."""
    knob = _knob(knob_name, facts)
    command = knob.command if knob is not None else None
    if knob is None or not command or command not in fix.before or command not in fix.after:
        return fix  # a Python call, or a variable exported alone: no command line to add to
    own = _own_form(fix, knob, facts, condition)
    if own is None:
        return None
    fix = own
    # a name the fix's own setting gives is not held by another that gives it too (a plain
    # flag and the key of a JSON-valued flag both write `backend`)
    gives = {k.behind for k in facts.knobs if k.name == knob_name and k.behind}
    held = [h for h in _held(facts) if h.knob != knob_name and h.behind not in gives]
    if not held:
        return fix
    if any(h.unwritable or (h.command and h.command != command) for h in held):
        return None  # a condition no line of this command holds: the "before" would not fail
    met = _bounds_met(held)
    if met is None:
        return None  # bounds of one setting that no value meets together
    held = _valued_first(met)
    if any(h.outside and not _given_in(h.knob, fix.before) for h in held):
        # `--dtype DTYPE` for `dtype not in ("auto", "half")`: the only values the page
        # names are the ones that pass, so the user cannot fill the "before" to fail
        return None
    flags = _merged([h.flags for h in held if h.flags and not _given_in(h.knob, fix.before)])
    env = _merged([h.env for h in held if h.env and not _given_in(h.knob, fix.before)])
    if flags is None or env is None:
        return None  # two values for one setting: no single line holds both
    if not flags and not env:
        return fix

    def line(text: str) -> str:
        lines = text.split("\n")
        at = next(i for i, each in enumerate(lines) if command in each)
        held_line = lines[at].replace(command, f"{command} {flags}".rstrip(), 1)
        lines[at] = f"{env} {held_line}" if env else held_line
        return "\n".join(lines)

    given = " ".join(x for x in (env, flags) if x)
    placeholders = [w for w in dict.fromkeys(given.split()) if placeholder(w)]
    note = f"The check is met only with `{given}` as well: kept in both lines."
    if placeholders:
        note += f" {your_values(placeholders)}"
    config = fix.config
    if config is not None:
        head, _, last = config.rpartition("\n")
        config = f"{head}\n{line(last)}"
    return msgspec.structs.replace(
        fix,
        before=line(fix.before),
        after=line(fix.after),
        note=f"{fix.note} {note}" if fix.note else note,
        config=config,
    )


def _held(facts: Facts) -> list[_Held]:
    """What holds each condition of the path a setting of the page decides, once a page."""
    return facts.once("reached_fix.held", lambda: _worked_out(facts))


def _worked_out(facts: Facts) -> list[_Held]:
    found: list[_Held] = []
    # the site's own conditions, and the guard every caller's call sits under
    for condition in [*facts.held, *(e.condition for e in guarded_entries(facts))]:
        for part in _conjuncts(condition):
            found.extend(_holding(part, facts))
    return found


def _conjuncts(condition: ConditionView) -> list[ConditionView]:
    """Each part of an `and` on its own (all must hold), nested ones too; an `or` is left
    out: which of its parts holds is the user's, not the page's, to say."""
    parts = part_views(condition)
    if parts is None:
        return []
    if parts[0] is condition:  # no `and`
        node = parse_expression(condition.text)
        return [] if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) else parts
    return [p for part in parts for p in _conjuncts(part)]


def _holding(part: ConditionView, facts: Facts) -> list[_Held]:
    """What keeps `part` true, as the user writes it; nothing when no setting decides it
    (the page knows nothing to give)."""
    if not _may_read_setting(part, facts):
        return []
    action = first_action(part, facts)
    if action is None or action.joined > 1:
        return []  # (a local that holds an `or`: as `_conjuncts` leaves one out)
    knob = _knob(action.knob, facts)
    if knob is None or knob.kind not in (KnobKind.FLAG, KnobKind.ENV):
        return []
    if action.unset is not None and len(action.values) > 1:
        return []  # the path holds the name None: the flag given in neither form
    if knob.kind == KnobKind.ENV:
        return [_env_holding(action, part, knob, facts)]
    if action.keyword in ("True", "False"):
        # a yes/no flag: turned off by leaving it out, it holds the check when given; one
        # the code turns on when left out (`bool | None`) holds it off in its negative form
        flags = knob.name if action.keyword == "False" else ""
        if action.keyword == "True" and _off_by_negative(knob):
            off = negative_flag(knob.name)
            if off is None:
                return [_Held(knob.name, unwritable=True)]
            flags = off
        return [_flag_held(knob, flags)]
    if _type_check(part):
        return []  # the type the program made of the value, not a value the user gives
    field = _json_field(action)
    if field is not None:
        return _json_field_held(part, knob, field, facts)
    if action.vague:
        if part.kind is ConditionKind.EARLY_EXIT:
            return []  # a guard passed on the way (`dp_local <= dp`): any valid line passes it
        # a sum or a call of several settings (`nnodes % data_parallel_size`): the user's
        # own value of each flag the part reads
        return [_flag_held(k, *_flag_witness(part, k, facts)) for k in _flags_read(part, facts)]
    witness, within = _flag_witness(part, knob, facts)
    held = _flag_held(knob, witness, within)
    if witness and placeholder(witness.split()[-1]):
        shape = _literal_shape(part, knob, facts) if _takes_value(knob) else None
        if shape is not None and shape.op in ("!=", "not in") and _default_passes(knob, shape):
            # left out the flag passes: only a value the page cannot name fails the
            # "before"; where its default fails as well (or is not known), the "before"
            # fails through the flag the fix changes, with the user's own value kept
            return [replace(held, outside=True)]
    return [held]


def _default_passes(knob: Knob, shape: Shape) -> bool:
    """Whether the flag's literal default is one of the values `shape` (`!=`, `not in`
    literals) lets pass: `'auto'` for `dtype not in ("auto", "half")`."""
    if knob.default is None:
        return False  # not known: the user's own value is all the page has
    try:
        default = ast.literal_eval(knob.default)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False  # another class's field, not a value
    values = [shape.value] if shape.op == "!=" else shape.value
    if not isinstance(values, tuple | list | set | frozenset):
        return False
    if default is None:
        # a name of the set (`backend != "ray"`) is none of them; a number left None is
        # mostly filled by the program later (`interleave_size` with the config's 1)
        return not all(isinstance(v, str) for v in values)
    return default in values


def _may_read_setting(part: ConditionView, facts: Facts) -> bool:
    """Whether a name the part reads, as written or through what its names stand for, is
    the last name of one a setting is behind: most parts of a long path read none, and
    asking each setting of the page about them is most of a page's cost."""
    words = _words(facts)
    texts = (part.text, expanded(part, facts).text, own_expanded(part, facts).text)
    return any(not words.isdisjoint(_IDENTIFIER.findall(text)) for text in texts)


def _words(facts: Facts) -> frozenset[str]:
    """The last names of what the page's settings are behind (`enable_eplb` of
    `self.enable_eplb`), and the settings' own names (an environment variable read in place)."""

    def make() -> frozenset[str]:
        found = set()
        for knob in facts.knobs:
            found.update(_IDENTIFIER.findall((knob.behind or "").rsplit(".", 1)[-1]))
            found.update(_IDENTIFIER.findall(knob.name))
        return frozenset(found)

    return facts.once("reached_fix.words", make)


def _json_field(action: KnobAction) -> str | None:
    """The field of a JSON-valued flag the action sets (`{'method': 'eagle'}`), if one."""
    try:
        value = ast.literal_eval(action.keyword or "")
    except (ValueError, SyntaxError, RecursionError):
        return None
    if isinstance(value, dict) and len(value) == 1:
        (key,) = value
        return key if isinstance(key, str) else None
    return None


def _json_field_held(part: ConditionView, knob: Knob, field: str, facts: Facts) -> list[_Held]:
    """A field of the flag's JSON the part compares with a literal, written as JSON
    (`--kernel-config '{"backend": "triton"}'`); nothing for any other test of the field:
    the program may fill it itself (`enable_flashinfer_autotune is not None` after the
    defaults are applied), so the user's line need not give it."""
    named = f"{knob.behind}.{field}"
    shape = _literal_shape(part, msgspec.structs.replace(knob, behind=named), facts)
    if (
        shape is not None
        and (shape.op == "true" or not_none(shape))
        and _empty_section(knob, field, facts)
    ):
        # a section the check needs given (`hisparse_config is not None`): the user gave it,
        # and `{}` gives it with its defaults
        return [_flag_held(knob, f"{knob.name} {shlex.quote(json.dumps({field: {}}))}")]
    chosen = _chosen(shape) if shape is not None else None
    if not isinstance(chosen, str | int | float | bool):
        return []
    return [_flag_held(knob, f"{knob.name} {shlex.quote(json.dumps({field: chosen}))}")]


def _empty_section(knob: Knob, field: str, facts: Facts) -> bool:
    """Whether `field` of the flag's JSON is a section whose class requires no key (the
    linker says so on a knob of that flag reading the key)."""
    return any(
        k.name == knob.name and dict(k.key_defaults).get(field) == EMPTY_SECTION
        for k in facts.knobs
    )


def _type_check(part: ConditionView) -> bool:
    """`isinstance(self.max_model_len, int)`, `callable(x)`, `hasattr(x, "y")`."""
    node = parse_expression(part.text)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("isinstance", "issubclass", "callable", "hasattr")
    )


def _flag_held(knob: Knob, flags: str | None, within: Within | None = None) -> _Held:
    """What holds a part through `knob`: unwritable when its form is not known, or when it
    must be given and no command line is known to give it to (left out, it needs none)."""
    if flags is None or (flags and not knob.command):
        return _Held(knob.name, unwritable=True, behind=knob.behind)
    return _Held(knob.name, flags=flags, command=knob.command, within=within, behind=knob.behind)


def _flags_read(part: ConditionView, facts: Facts) -> list[Knob]:
    """The flags of the page whose name the part reads as it is (as a whole name)."""
    node = parse_expression(part.text)
    if node is None:
        return []
    # whole names only: `self.kernel_config.autotune` reads a field of `--kernel-config`'s
    # object, which the program may set itself, not the flag's own value
    names = set(dotted_names(node))
    # one flag a name: a plain flag and the key of a JSON-valued flag that both write it
    # are one value the user gave, with either
    found: dict[str | None, Knob] = {}
    for k in facts.knobs:
        flag = k.kind == KnobKind.FLAG and k.command and k.via != NAMED_IN_MESSAGE
        if flag and k.behind in names:
            found.setdefault(k.behind, k)
    return list(found.values())


def _env_holding(action: KnobAction, part: ConditionView, knob: Knob, facts: Facts) -> _Held:
    """`VLLM_X=1`: the value the variable's own way out turns it from; nothing for a
    variable the part holds unset (`use_v2 is None`, `use_v2` = the variable)."""
    shape = _literal_shape(part, knob, facts)
    if shape is not None and (shape.op == "false" or (shape.op == "is" and shape.value is None)):
        return _Held(knob.name)
    before = action.before  # the shell line of its way out (`export VLLM_X=0`, `unset X`)
    if not before or not action.after:
        return _Held(knob.name, unwritable=True)
    word = before.split("\n")[0].removeprefix("export ").split(" ")[0]
    if before.startswith("unset ") or "=" not in word:
        return _Held(knob.name)  # the variable left unset: its default holds the condition
    return _Held(knob.name, env=word, command=knob.command)


Within = tuple[int | None, int | None]  # the whole numbers a bound allows (None: open)


def _flag_witness(
    part: ConditionView, knob: Knob, facts: Facts
) -> tuple[str | None, Within | None]:
    """The flag with a value that holds `part` (`--tensor-parallel-size 2` for `tp > 1`;
    `--moe-backend deep_gemm_mega_moe` for `self.use_mega_moe`, a name set to the flag's
    value `in` a list of literals; nothing for `not args.grpc`), or with the user's own
    value named (`--kv-transfer-config KV_TRANSFER_CONFIG`) where the part does not compare
    the flag's value with a literal: the user who met the error gave that value. None for a
    yes/no flag whose needed form is not known. With it, the range a numeric bound allows."""
    mine = f"{knob.name} {metavar(knob.name)}"
    shape = _literal_shape(part, knob, facts) if _takes_value(knob) else None
    yes_no = boolish(knob) or knob.bare  # no value to name
    if shape is None:
        return (None if yes_no else mine), None
    value = shape.value
    if shape.op == "false" and knob.default == "True":
        # left out, it stays on: its negative form, where it has one
        return (None if knob.bare and not knob.negated else negative_flag(knob.name)), None
    if shape.op == "false" or (shape.op in ("is", "==") and value is None):
        return "", None  # left out
    if shape.op == "true":
        return (knob.name if yes_no else mine), None
    if json_valued(knob):
        # a field of the flag's JSON: written as such where the name holds one field
        key = knob.json_key
        chosen = _chosen(shape)
        if key is None or not isinstance(chosen, str | int | float | bool) or valueless_key(knob):
            return mine, None  # the user's own value, named
        return f"{knob.name} {shlex.quote(json.dumps(key_json(knob, chosen)))}", None
    if shape.op in ("==", "is", "in"):
        chosen = _chosen(shape)
        return (_given(knob, chosen) if chosen is not None else None), None
    if isinstance(value, int) and not isinstance(value, bool):
        within = _within(shape.op, value)
        if within is not None:
            return f"{knob.name} {_least(within)}", within
    return (None if yes_no else mine), None  # `!=`, `not in`: the user's own value


def _within(op: str, value: int) -> Within | None:
    """The whole numbers `x op value` allows, as (lowest, highest)."""
    return {
        "<=": (None, value),
        "<": (None, value - 1),
        ">=": (value, None),
        ">": (value + 1, None),
    }.get(op)


def _least(within: Within) -> int:
    """The value given for a range: its lowest, else its highest."""
    low, high = within
    return low if low is not None else high if high is not None else 0


def _bounds_met(held: list[_Held]) -> list[_Held] | None:
    """`held` with the bounds of one flag (`x <= 1` on the path, `x < 1` at the caller) made
    one value that meets them all; None when none does."""
    ranges: dict[str, Within] = {}
    for h in held:
        if h.within is None:
            continue
        low, high = ranges.get(h.knob, (None, None))
        new_low, new_high = h.within
        low = new_low if low is None else low if new_low is None else max(low, new_low)
        high = new_high if high is None else high if new_high is None else min(high, new_high)
        if low is not None and high is not None and low > high:
            return None
        ranges[h.knob] = (low, high)
    if not ranges:
        return held
    kept = [h for h in held if h.knob not in ranges]
    for name, within in ranges.items():
        first = next(h for h in held if h.knob == name)
        given = f"{name} {_least(within)}"
        kept.append(_Held(name, flags=given, command=first.command, within=within))
    return kept


def _valued_first(held: list[_Held]) -> list[_Held]:
    """`held` without the user's own value named for a flag that another condition gives
    a value (`--data-parallel-size-local 1` over `... DATA_PARALLEL_SIZE_LOCAL`)."""
    valued = {h.knob for h in held if h.flags and not placeholder(h.flags.split()[-1])}
    return [
        h for h in held if not (h.knob in valued and h.flags and placeholder(h.flags.split()[-1]))
    ]


def _chosen(shape: Shape) -> object:
    """The literal an `==` or `in` test takes (the first of a list that is not None)."""
    if shape.op == "in":
        values = shape.value if isinstance(shape.value, tuple | list | set) else ()
        return next((v for v in values if v is not None), None)
    return shape.value if shape.op in ("==", "is") else None


def _takes_value(knob: Knob) -> bool:
    """Whether the name behind the flag holds the flag's value as it is: linked so, or the
    attribute of the parsed arguments named after it (`args.grpc` of `--grpc`)."""
    dest = knob.name.lstrip("-").replace("-", "_")
    return knob.same_value or (knob.behind or "").rsplit(".", 1)[-1] == dest


def _literal_shape(part: ConditionView, knob: Knob, facts: Facts) -> Shape | None:
    """How the part compares the flag's value with a literal, through the names it stands
    for (`self.use_mega_moe` = `moe_backend in MEGA_MOE_BACKENDS`) and the constants they
    hold, as the flag's own way out reads it (`env_members.first_action`)."""
    for view in _views(part, facts):
        node = parse_expression(view.text)
        shape = compared_shape(node, knob.behind or "") if node is not None else None
        if shape is not None:
            return shape
    return None


def _views(part: ConditionView, facts: Facts) -> Iterator[ConditionView]:
    """The part as written, then through the constants and names it reads, each made only
    when the ones before it did not compare the flag's value."""
    yield part
    yield with_literals(part, facts)
    wide = expanded(part, facts)
    yield wide
    yield with_members(wide, facts)
    own = own_expanded(part, facts)
    yield own
    yield with_literals(own, facts)
    yield with_members(own, facts)


def _given(knob: Knob, value: object) -> str | None:
    if isinstance(value, bool):
        if value or not _off_by_negative(knob):
            return knob.name if value else ""
        return negative_flag(knob.name)  # left out, it is None or on: `--no-x` gives False
    if isinstance(value, str | int | float):
        return f"{knob.name} {shlex.quote(str(value))}"
    return None


def _off_by_negative(knob: Knob) -> bool:
    """Whether only the flag's `--no-x` form gives it False: a `bool | None` flag is None
    when left out, one that defaults to `True` stays on (a `store_true` flag has no
    `--no-x`)."""
    if knob.bare and not knob.negated:
        return False
    return "None" in (knob.value_type or "") or knob.default == "True"


def _own_form(
    fix: ExampleFix, knob: Knob, facts: Facts, condition: str | None
) -> ExampleFix | None:
    """`fix` whose "before" gives the yes/no flag it drops in the form the path holds
    (`--no-x` where the path tests it False): given as `--x`, it would not fail; and a
    value flag it changes with the one value the path holds (`--dataset-name hf` where the
    check is on `args.dataset_name == "hf"`), not any value. None for a fix that takes
    another branch of a choice the user made (see `_other_branch`)."""
    if not (boolish(knob) or knob.bare):
        if _other_branch(condition, facts):
            return None
        return _own_value(fix, knob, facts)
    forms = {h.flags for h in _held(facts) if h.knob == knob.name and not h.unwritable}
    negative = negative_flag(knob.name)
    before, after = fix.before.split(), fix.after.split()
    if negative is None or forms != {negative} or knob.name not in before or knob.name in after:
        return fix
    words = [negative if w == knob.name else w for w in fix.before.split(" ")]
    return msgspec.structs.replace(fix, before=" ".join(words))


def _own_value(fix: ExampleFix, knob: Knob, facts: Facts) -> ExampleFix:
    """`fix` whose "before" gives, for `--x VALUE`, the one value of `--x` the path holds."""
    anyone = f"{knob.name} VALUE"
    if f" {anyone} " not in f" {fix.before} ":
        return fix
    forms = {h.flags for h in _held(facts) if h.knob == knob.name and not h.unwritable}
    valued = {f for f in forms if f.startswith(f"{knob.name} ") and not placeholder(f.split()[-1])}
    if len(valued) != 1 or forms - valued - {f"{knob.name} {metavar(knob.name)}"}:
        return fix  # the path holds no one value of it (or it also leaves it out)
    (held,) = valued
    if f" {held} " in f" {fix.after} ":
        return fix  # the fix sets that value: the check was on another
    before = f" {fix.before} ".replace(f" {anyone} ", f" {held} ", 1)[1:-1]
    return msgspec.structs.replace(fix, before=before)


def _other_branch(condition: str | None, facts: Facts) -> bool:
    """Whether the fix makes `x != "custom"` false where the path holds `x == "hf"`: an
    earlier branch of the choice the user made (`if name == "custom": ... elif name ==
    "hf": ...`). The other branch is another program (another dataset, backend or loader)
    with needs of its own the line does not know, not a way out of this one's check. (A
    value the path only tests with `!=`, "Unknown load format", is none of the known ones:
    picking one of them is the way out, and stays.)"""
    node = parse_expression(condition) if condition else None
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.NotEq)
        and isinstance(node.comparators[0], ast.Constant)
        and isinstance(node.comparators[0].value, str)
    ):
        return False
    tested, value = ast.dump(node.left), node.comparators[0].value
    for held in facts.held:
        for part in _conjuncts(held):
            other = parse_expression(part.text)
            if (
                isinstance(other, ast.Compare)
                and len(other.ops) == 1
                and isinstance(other.ops[0], ast.Eq)
                and isinstance(other.comparators[0], ast.Constant)
                and isinstance(other.comparators[0].value, str)
                and other.comparators[0].value != value
                and ast.dump(other.left) == tested
            ):
                return True
    return False


def _merged(given: list[str]) -> str | None:
    """The settings in one line, each once; None when one flag is given two values."""
    unique = list(dict.fromkeys(given))
    heads = [g.split(" ", 1)[0].split("=", 1)[0] for g in unique]
    if len(set(heads)) != len(heads):
        return None
    return " ".join(unique)


def _given_in(name: str, line: str) -> bool:
    """Whether the line gives the flag or variable `name` already (`--x`, `--x=1`, `X=1`)."""
    return any(word == name or word.startswith(f"{name}=") for word in line.split())


def _knob(name: str, facts: Facts) -> Knob | None:
    return next((k for k in facts.knobs if k.name == name), None)
