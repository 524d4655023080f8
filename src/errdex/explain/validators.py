"""Validators of the user's data: the way out is the value the data gives a field.

A function registered as a validator (`@field_validator("x")`, `@validator("x")`, a
classmethod a type's `__get_validators__` yields or its `__get_pydantic_core_schema__`
hands on, a public `*_validator` function that returns the value it checks) is run by the
framework on a value of the user's data: no user calls it, so "pass the argument `x` of
`multiple_of_validator`" names nothing a user writes. The way out is the value in the
data, said with the field's constraint: "give the field a value that is a multiple of the
field's `multiple_of`". The check's shapes are put in words by the input rules
(`input_words`, `input_shapes`); a check on a flag's value is the flag rules' (`flag_values`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from errdex.ast_walk import walk
from errdex.explain.across_pages import AcrossPages
from errdex.explain.advice import python_literal
from errdex.explain.call_binding import given_argument
from errdex.explain.context import (
    CONTEXT_KINDS,
    Facts,
    class_around,
    decorators_above,
    function_at,
    function_span,
    lines_of,
)
from errdex.explain.expanded import assigned_once, expanded
from errdex.explain.input_nodes import free_names
from errdex.explain.input_shapes import module_patterns, more_shapes
from errdex.explain.input_words import what_to_pass
from errdex.explain.literal_members import with_members
from errdex.explain.name_scan import free_starts
from errdex.explain.page import ConditionView, Solution
from errdex.explain.parsed_value import parsed_value_solution
from errdex.explain.plain import code, listed
from errdex.explain.type_checks import merged_type_checks
from errdex.explain.user_data import FieldValue, failed_call
from errdex.explain.validator_parts import (
    attributes_read,
    config_limit,
    fallback_bounds,
    grouped,
    value_part,
)
from errdex.explain.validator_tables import (
    MAX_TYPES,
    VALIDATING_MODULE,
    handed_by_hook,
    handed_on,
)
from errdex.extract.conditions import dotted_name, negate
from errdex.extract.shapes import isinstance_of
from errdex.extract.textscan import matches_from, occurrences
from errdex.facts import ConditionKind, KnobKind, SiteKind

# Decorators that register a method as a validator of named fields (pydantic's).
_FIELD_DECORATORS = frozenset({"validator", "field_validator"})
# A type's hooks that hand the framework its validating methods.
# in the order a class having both is read (`_reached`, `class_settings`)
TYPE_HOOKS = ("__get_validators__", "__get_pydantic_core_schema__")
_SUBJECT = "\x00"
# Types a value of plain data (a JSON document, a form, a config file) can have.
_PLAIN = frozenset({"str", "int", "float", "bool", "list", "dict"})
# "invalid type; expected date, string, bytes, int or float": a list of two types or more
# (the last after "or"), up to the sentence's end or what the value was instead.
_EXPECTED = re.compile(
    r"\btype\b[^.]*?\bexpected:? (?P<kinds>[^;.,]+(?:, [^;.,]+)* or [^;.,]+?)"
    r"(?=$|[;.]|,? (?:got|but|received|not)\b)",
    re.IGNORECASE,
)
# Calls from a type's hooked validator down to a method of its own it hands the value to.
_MAX_REACH = 3
# The validators calling one helper on their value, past which it is no field's helper.
_MAX_HELPER_CALLERS = 3
# A validator's parameters the framework hands it beside the value: no constraint of the field.
_CONTEXT = frozenset({"field", "config", "values", "info", "handler", "model"})
# How the input rules' words read after "give the field a value".
_AFTER_VALUE = (
    (" as a multiple of ", " that is a multiple of "),
    (" as a divisor of ", " that is a divisor of "),
    (" as an instance of ", " that is an instance of "),
    (" as a finite number ", " that is a finite number "),
    (" as one of ", " that is one of "),
)
# "Pass a non-empty (true) value for X": the same after "a value".
_ONLY_NONE = " that is None"
_FOR_SUBJECT = {"a non-empty (true) value": " that is not empty", "None": _ONLY_NONE}


@dataclass(frozen=True)
class Validated:
    """The parameter that holds the value validated, and the words for the field."""

    value: str
    field: str  # "the field `x` of `Model`", "a field declared as `FutureDate`", "the field"
    others: tuple[str, ...]  # the validator's other parameters: the field's constraints
    request: bool = False  # a field of a request's body (a model named `...Request`)
    owner: str | None = None  # the type a field is declared as, whose method it is
    # the validators of its module that call it on their value as it came (a helper of
    # theirs: `parse_date` calls `get_numeric(value, "date")`); none: it is one itself
    through: tuple[str, ...] = ()


def validated(facts: Facts) -> Validated | None:
    """What the site's function validates, when it is a validator of the user's data
    (worked out once a page: the solution rules ask it more than once)."""
    return facts.once("validated", lambda: _validated(facts))


def _validated(facts: Facts) -> Validated | None:
    site = facts.stored.site
    owner, _, name = site.function.rpartition(".")
    text = facts.source_text or ""
    span = function_span(text, name, site.line)
    if span is None or "<locals>" in owner:
        return None  # no `def`, or a model made inside a function: no field a user declares
    # what registers it, read from the text first: most sites are no validator
    fields = _decorated_fields(decorators_above(text, span[0] + 1))
    hooked = bool(owner) and "." not in owner and f"cls.{name}" in text
    hooked = hooked and any(hook in text for hook in TYPE_HOOKS)
    named = not owner and (_named_validator(name) or _validating_module(facts, name))
    listed = None if owner else handed_on(facts, name)
    if fields is None and not hooked and not named and listed is None and not owner:
        # a type's hook of another module hands it on (`function=_validators.import_string`)
        listed = handed_by_hook(facts, name)
    if fields is None and not hooked and not named and listed is None:
        if owner:  # a method of a type its hooked validator hands the value on to
            return _reached_method(facts, owner, name)
        return _helper_of_validators(facts)
    function = facts.site_function()
    if function is None:
        return None
    params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    params = [p for p in params if p not in ("self", "cls")]
    if not params:
        return None
    value, others = params[0], tuple(params[1:])
    if fields is not None:
        request = owner.rpartition(".")[2].endswith("Request")
        return Validated(value, _field_words(fields, owner), others, request)
    if hooked and handed_by_type(facts, owner, function.name):
        return Validated(value, f"a field declared as {code(owner)}", others, owner=owner)
    if listed is not None:
        return Validated(value, listed, others)
    if named and _returns_value(function, value):
        return Validated(value, "the field", others)
    return None


def _helper_of_validators(facts: Facts) -> Validated | None:
    """The site's module-level function as a helper every caller of which is a validator of
    its module (`handed_on`) that calls it on its own value as it came (not rebound
    before the call): the value is then the field's, one step up."""
    linked = [c for c in facts.callers if c.depth == 1]
    own = facts.stored.file
    text = facts.source_text or ""
    if any(c.file != own for c in linked):
        return None  # a helper called from another module
    if not linked and not any(hook in text for hook in TYPE_HOOKS):
        return None  # no caller, and no type of the module hands a validator on
    name = facts.stored.site.function
    # the index misses the calls of a class it did not read (one defined under `if
    # TYPE_CHECKING: ... else:`): the file's own calls of the function are read as well
    unlinked = _unlinked_calls(text, name, {c.line for c in linked})
    if unlinked is None:
        return None
    callers = [(c.function, c.line) for c in linked] + unlinked
    # its call of itself (a retry on another spelling of the value) hands on what it was
    # given: where that comes from is its other callers'
    callers = [(caller, line) for caller, line in callers if caller != name]
    if not callers or len(callers) > _MAX_HELPER_CALLERS:
        return None
    # which validator each caller is, read in the text before any function is parsed
    found = [_caller_validates(facts, caller, line) for caller, line in callers]
    function = facts.site_function()
    if function is None:
        return None
    fields = [f[0] for f in found if f is not None]
    if len(fields) != len(callers):
        return None
    params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    if not params:
        return None
    for caller, line in callers:
        outer = function_at(text, caller.rpartition(".")[2], line)
        given = [a.arg for a in [*outer.args.posonlyargs, *outer.args.args]] if outer else []
        given = [a for a in given if a not in ("self", "cls")]
        if outer is None or not given:
            return None
        if not _given_as_it_came(outer, line, name, params[0], given[0]):
            return None
    through = tuple(caller for caller, _ in callers)
    request = all(f is not None and f[1] for f in found)
    declared = "a field declared as "
    if not all(f.startswith(declared) for f in fields):
        words = fields[0] if len(set(fields)) == 1 else "the field"
        return Validated(params[0], words, (), request, through=through)
    types = list(dict.fromkeys(t for f in fields for t in f[len(declared) :].split(" or ")))
    words = declared + " or ".join(types) if len(types) <= MAX_TYPES else "the field"
    return Validated(params[0], words, (), through=through)


def _unlinked_calls(text: str, name: str, known: set[int]) -> list[tuple[str, int]] | None:
    """The calls of the module's function `name` in its own file on lines the callers
    index does not hold (a method of a class defined under `if TYPE_CHECKING: ... else:`),
    each as (the function it is in, qualified by its class, the call's line); None when one
    is in no function, or in a function or class defined inside another."""
    lines = lines_of(text)
    found: list[tuple[str, int]] = []
    for at in free_starts(text, name, dotted=True):  # (?<![\w.])name\(
        if not text.startswith("(", at + len(name)):
            continue
        line = text.count("\n", 0, at) + 1
        if line in known or text[max(0, at - 4) : at] == "def ":
            continue
        opened: list[tuple[str, str]] = []  # ("def" or "class", name), outermost first
        indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
        for above in range(line - 2, -1, -1):
            stripped = lines[above].lstrip()
            depth = len(lines[above]) - len(stripped)
            if depth >= indent or not stripped or stripped.startswith(("#", ")", "]", "}")):
                continue
            indent = depth
            header = re.match(r"(?:async +)?(def|class) +(\w+)", stripped)
            if header is not None:
                opened.insert(0, (header.group(1), header.group(2)))
            if depth == 0:
                break
        kinds = [k for k, _ in opened]
        if kinds not in (["def"], ["class", "def"]):
            return None  # at the module's level, in a class's body, or nested
        found.append((".".join(n for _, n in opened), line))
    return found


def _caller_validates(facts: Facts, caller: str, line: int) -> tuple[str, bool] | None:
    """The words for the fields a caller of the site's function validates, and whether
    they are a request's, when it is a validator of the site's module: a module-level
    function its tables hand on (`handed_on`), a method registered for named fields
    (`@field_validator("x")`), or a method its type's hooks hand the framework
    (`core_schema.no_info_after_validator_function(cls._validate, ...)`); else None."""
    owner, _, name = caller.rpartition(".")
    if not owner:
        words = handed_on(facts, name) or handed_by_hook(facts, name)
        return (words, False) if words is not None else None
    if "." in owner:
        return None  # a nested class's or a local function's
    text = facts.source_text or ""
    span = function_span(text, name, line)
    if span is None:
        return None
    fields = _decorated_fields(decorators_above(text, span[0] + 1))
    if fields is not None:
        return _field_words(fields, owner), owner.endswith("Request")
    hooked = f"cls.{name}" in text and any(hook in text for hook in TYPE_HOOKS)
    if hooked and handed_by_type(facts, owner, name, line):
        return f"a field declared as {code(owner)}", False
    return None


def _reached_method(facts: Facts, owner: str, name: str) -> Validated | None:
    """The site's method as one its type's hooked validator hands the value on to, as it
    came (`cls(value)` -> `__init__`, `self.check_digits(value)`): the value is the data of a
    field declared as the type, checked one or more calls down."""
    validator = reached_from_hook(facts, owner, name)
    function = facts.site_function() if validator is not None else None
    if validator is None or function is None:
        return None
    params = _value_params(function)
    if not params:
        return None
    tests = [c for c in facts.conditions if c.kind not in CONTEXT_KINDS]
    if len([c for c in tests if _reads([c], params[0])]) > 1:
        # branches on the value's type or length to parsers of their own (`if
        # isinstance(value, tuple): ... elif isinstance(value, str): ... else: raise`): the
        # validator's words say one test alone; the argument's rules say them all
        return None
    field = f"a field declared as {code(owner)}"
    through = (f"{owner}.{validator}",)
    return Validated(params[0], field, tuple(params[1:]), owner=owner, through=through)


def reached_from_hook(facts: Facts, owner: str, name: str) -> str | None:
    """The method of the top-level class `owner` that its hooks hand the framework (`cls.m`
    passed, not called) from which the class's own calls reach its method `name`, each
    handing on its own value as it came: `cls.n(value)`, `self.n(value)`, `cls(value)` (to
    `__init__` or `__new__`); at most `_MAX_REACH` calls down. None when there is none, or
    the method is itself the one handed on (a validator: `validated` says so)."""
    text = facts.source_text or ""
    if "." in owner or "<" in owner or not any(hook in text for hook in TYPE_HOOKS):
        return None
    return facts.once(f"reached_from_hook:{owner}.{name}", lambda: _reached(facts, owner, name))


def _reached(facts: Facts, owner: str, name: str) -> str | None:
    top = facts.top_class(owner)
    if top is None:
        return None
    methods = {n.name: n for n in top.body if isinstance(n, ast.FunctionDef)}
    if name not in methods:
        return None
    hooks = [methods[h] for h in TYPE_HOOKS if h in methods]
    handed = [m for hook in hooks for m in hook_handed(hook) if m in methods]
    for validator in dict.fromkeys(handed):
        if validator == name:
            return None
        reached, edge = {validator}, [validator]
        for _ in range(_MAX_REACH):
            edge = [
                m
                for e in edge
                for m in _own_calls_on_value(methods[e], methods)
                if m not in reached
            ]
            reached.update(edge)
        if name in reached:
            return validator
    return None


def hook_handed(hook: ast.FunctionDef) -> list[str]:
    """The names of `cls.m` a hook hands on as a value (`yield cls.validate`), not calls."""
    called = {id(c.func) for c in walk(hook) if isinstance(c, ast.Call)}
    return [
        n.attr
        for n in walk(hook)
        if isinstance(n, ast.Attribute)
        and isinstance(n.value, ast.Name)
        and n.value.id == "cls"
        and id(n) not in called
    ]


def _value_params(function: ast.FunctionDef) -> list[str]:
    params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    return [p for p in params if p not in ("self", "cls")]


def _own_calls_on_value(method: ast.FunctionDef, methods: dict[str, ast.FunctionDef]) -> list[str]:
    """The class's own methods `method` hands its value to as it came: `cls.n(value)` or
    `self.n(value)` (first), `cls(value)` (`__init__`, `__new__`); the value not assigned
    anew before the call, save by a method of the class run on it (`value =
    self.check(value)`: the same value, checked)."""
    params = _value_params(method)
    if not params:
        return []
    value = params[0]
    found: list[str] = []
    for call in walk(method):
        if not isinstance(call, ast.Call) or not call.args:
            continue
        first = call.args[0]
        if not (isinstance(first, ast.Name) and first.id == value):
            continue
        target = call.func
        callees: list[str]
        if isinstance(target, ast.Name) and target.id == "cls":
            callees = [m for m in ("__init__", "__new__") if m in methods]
        elif (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id in ("cls", "self")
            and target.attr in methods
        ):
            callees = [target.attr]
        else:
            continue
        if not _assigned_before(method, value, call.lineno, partial(_own_method, methods)):
            found.extend(callees)
    return found


def _field_words(fields: list[str], owner: str) -> str:
    """ "the field `x` of `Model`", "a field of `Model`": the fields a decorator names."""
    model = code(owner) if owner else None
    if not fields or "*" in fields:
        return f"a field of {model}" if model else "the field"
    names = " or ".join(code(f) for f in fields[:3])
    return f"the field {names}" + (f" of {model}" if model else "")


def _given_as_it_came(outer: ast.FunctionDef, line: int, name: str, param: str, value: str) -> bool:
    """Whether `outer`'s calls of `name` at `line` give `param` its own first parameter
    `value`, not assigned anew before that line."""
    calls = [
        n
        for n in walk(outer)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == name
        and n.lineno <= line <= (n.end_lineno or n.lineno)
    ]
    if not calls:
        return False
    for call in calls:
        given = given_argument(call, param, 0)
        if not (isinstance(given, ast.Name) and given.id == value):
            return False
    return not _assigned_before(outer, value, line)


def _module_validator(call: ast.Call) -> bool:
    """`str_validator(value)`: a validator of the module, run in place."""
    return isinstance(call.func, ast.Name) and _named_validator(call.func.id) and not call.keywords


def _assigned_before(
    function: ast.FunctionDef,
    name: str,
    line: int,
    keeps: Callable[[ast.Call], bool] = _module_validator,
) -> bool:
    """Whether the function assigns `name` anew on a line before `line`; not counting a
    call run on it alone that `keeps` says gives back the same value, converted or checked
    (`value = str_validator(value)`; `_own_method`)."""
    kept = {
        id(n.targets[0])
        for n in walk(function)
        if isinstance(n, ast.Assign)
        and len(n.targets) == 1
        and isinstance(n.value, ast.Call)
        and keeps(n.value)
        and [ast.unparse(a) for a in n.value.args] == [name]
    }
    return any(
        isinstance(n, ast.Name)
        and n.id == name
        and isinstance(n.ctx, ast.Store)
        and n.lineno < line
        and id(n) not in kept
        for n in walk(function)
    )


def _own_method(methods: dict[str, ast.FunctionDef], call: ast.Call) -> bool:
    """`self.check(value)` / `cls.check(value)`: a method of the class, run on the value."""
    return (
        isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id in ("cls", "self")
        and call.func.attr in methods
    )


def where_given(found: Validated) -> str:
    """Where the user gives the value a validator checks."""
    if found.request:
        return "In the request you send (its JSON body)"
    return "In the data you validate"


def field_value(facts: Facts) -> FieldValue | None:
    """The site's validator's value as the field of the user's data, or None."""
    found = validated(facts)
    if found is None:
        return None
    return FieldValue(found.value, found.field, where_given(found), found.owner)


def validator_solution(facts: Facts, open_conditions: list[ConditionView]) -> Solution | None:
    """ "Give the field a value that is a multiple of the field's `multiple_of` ...", or None."""
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.HELPER):
        return None
    found = validated(facts)
    if found is None:
        return None
    kinds = _expected_kinds(site.message.text if site.message is not None else "")
    if kinds is not None and not _reads(facts.conditions, found.value):
        kinds = None  # a message of another value's type
    if site.kind == SiteKind.HELPER and (kinds is None or not _hands_value(facts, found.value)):
        return None  # a helper's other checks are of its own parameters
    if any(k.kind == KnobKind.FLAG and k.behind == found.value for k in facts.knobs):
        return None  # a flag's value: the flag rules say it as the flag
    constants = {b.name: b.value for b in facts.bindings if b.origin == "constant"}
    # a local the function sets to a literal (`limit = 1024`) is a bound as fixed as those
    constants |= {
        b.name: b.value for b in facts.bindings if b.origin == "local" and python_literal(b.value)
    }
    # an early exit is the framework's shortcut for a value already of the type (`if
    # isinstance(v, IPv4Address): return v`), no way out for the data as it comes in
    checks = [
        c
        for c in open_conditions
        if c.kind not in CONTEXT_KINDS and c.kind != ConditionKind.EARLY_EXIT
    ]
    runs = _runs(found, code(site.function))
    where = where_given(found)
    if kinds is not None:
        # the types the message lists are what the validator takes, said whole, where a
        # test says only some of them (`not isinstance(value, (int, float))`)
        return Solution(
            text=(
                f"{where}, give {found.field} a value of a type the message expects: {kinds}. "
                f"{runs}: the check is of your data, not of a call in your code."
            ),
            kind="input",
        )
    function = facts.site_function()
    # the framework's own objects it hands the validator beside the value (`config`)
    handed = _CONTEXT & frozenset(found.others)
    # the module's own functions and those it imports (`import_string(value)`): the parser or
    # helper the value is handed to, whose failure on it is the error (no local it computed)
    helpers = _module_functions(facts)
    handed |= helpers
    failed = failed_call(facts, function, [found.value], handed) if function else None
    if failed is not None and failed[1] == found.value:
        return Solution(
            text=(
                f"{where}, give {found.field} a value that {code(failed[0])} accepts: it "
                f"failed on the value given, and this error is raised in its place. {runs}: "
                "the check is of your data, not of a call in your code."
            ),
            kind="input",
        )
    parsed = parsed_value_solution(facts, found.value, found.field, where, runs, helpers)
    if parsed is not None:  # a parse or lookup of what the `try` read from the value
        return parsed
    lines = lines_of(facts.source_text or "")
    # `if isinstance(v, bytes): return v` then `elif isinstance(v, bytearray): return ...`:
    # either type will do; not a branch that checks more (a bytes `Pattern`)
    accepting = [c for c in open_conditions if _returns_only(lines, c.line)]
    # a shortcut that gives back a value the data can hold (`if v in BOOL_TRUE: return True`),
    # not an instance of the type, is a way out when no check says one
    # with no other test on the way, the raise is what every value the shortcuts let by
    # meets: passing one of them is then the only way out (`if isinstance(v, Hashable):
    # return v` then `raise HashableError()`), whatever type it names
    only = not checks and not any(c.kind == ConditionKind.EXCEPT for c in facts.conditions)
    kept = [
        c
        for c in open_conditions
        if c.kind == ConditionKind.EARLY_EXIT and c in accepting and (only or _plain_types(c.text))
    ]
    for condition in [*reversed(checks), *kept]:
        condition = merged_type_checks([*accepting, condition]).get(condition.line, condition)
        said = _said(condition, found, constants, facts)
        if said is None:  # `mode_name not in ...` where `mode_name = value.upper()`
            said = _said(expanded(condition, facts), found, constants, facts)
        if said is None and function is not None:  # a local a `try` assigns: `match`
            said = _said(assigned_once(condition, function), found, constants, facts)
        if said is None:  # `not in CompilationMode.__members__`: the names the enum lists
            wide = with_members(expanded(condition, facts), facts)
            said = _said(wide, found, constants, facts)
        if said == _ONLY_NONE and not only:
            # `if v is None: return v` before the checks of a value: None skips them, no
            # way out of a check on the value given (only when nothing else is tested)
            continue
        if said is not None and condition in kept:
            said = _with_other_shortcuts(said, kept, found, constants, facts)
        if said is not None:
            return Solution(
                text=(
                    f"{where}, give {found.field} a value{said}. {runs}: the check "
                    f"is of your data, not of a call in your code.{config_limit(said)}"
                ),
                condition=condition.text,
                kind="input",
            )
    return None


def _module_functions(facts: Facts) -> frozenset[str]:
    """The names the site's `try` calls that its module defines with a top-level `def` or
    imports by name (a function of the package, or a module's): the helper the validator
    hands the value to, not a local it computed."""
    excepted = facts.innermost_except()
    tried = facts.read.tries.get(excepted.line) if excepted is not None else None
    text = facts.source_text or ""
    if tried is None or len(tried.calls) != 1:
        return frozenset()
    imported = " ".join(m.group(0) for m in _IMPORT.finditer(text))
    found: set[str] = set()
    for name in re.findall(r"[A-Za-z_]\w*", tried.calls[0]):
        if re.search(rf"^(?:async )?def {name}\(", text, re.M) or re.search(
            rf"(?<![\w.]){name}\b", imported
        ):
            found.add(name)
    return frozenset(found)


def _reads(conditions: Sequence[ConditionView], value: str) -> bool:
    """Whether a condition on the path reads the value."""
    word = re.compile(rf"\b{re.escape(value)}\b")
    return any(word.search(c.text) for c in conditions)


def _hands_value(facts: Facts, value: str) -> bool:
    """Whether the helper call at the site's line gives it the validated value first, as it
    came (`number = get_numeric(value, "date")`: not assigned anew before)."""
    lines = lines_of(facts.source_text or "")
    line = facts.stored.site.line
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if re.search(rf"\w\(\s*{re.escape(value)}\s*[,)]", text) is None:
        return False
    function = facts.site_function()
    return function is not None and not _assigned_before(function, value, line)


def _runs(found: Validated, callee: str) -> str:
    """How the framework runs the site's function on the value."""
    if not found.through:
        return f"{callee} is a validator the framework runs on that value"
    validators = listed([code(f) for f in found.through], "or")
    plural = "validators" if len(found.through) > 1 else "a validator"
    return f"{callee} runs on that value inside {validators}, {plural} the framework runs"


def _expected_kinds(message: str) -> str | None:
    """The types a message about a value's type lists as expected ("invalid type; expected
    date, string, bytes, int or float": "date, string, bytes, int or float"), or None."""
    found = _EXPECTED.search(message)
    return found.group("kinds") if found is not None else None


def _with_other_shortcuts(
    said: str, kept: list[ConditionView], found: Validated, constants: dict[str, str], facts: Facts
) -> str:
    """ " that is one of `'1'`, `'on'`" with the values of the other shortcuts that list
    values (`if v in BOOL_FALSE: return False`): any of them will do."""
    lead = " that is one of "
    if not said.startswith(lead):
        return said
    values = [said[len(lead) :]]
    for other in kept:
        more = _said(other, found, constants, facts)
        if more is not None and more.startswith(lead) and more[len(lead) :] not in values:
            values.append(more[len(lead) :])
    return lead + ", ".join(values)


def _said(
    condition: ConditionView, found: Validated, constants: dict[str, str], facts: Facts
) -> str | None:
    """The words after "a value" for one check on the validated value, or None."""
    try:
        node = ast.parse(condition.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    return _said_node(attributes_read(node), condition.text, found, constants, facts)


def _said_node(
    node: ast.expr, text: str, found: Validated, constants: dict[str, str], facts: Facts
) -> str | None:
    """`_said` of a parsed test: its value's part alone when the rest tests the bound."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = node.operand
        if isinstance(inner, ast.Compare) and len(inner.ops) == 1:
            node = negate(inner)  # `not (x > gt)` is `x <= gt`
    node = grouped(node, found.value)
    part = value_part(node, found.value)
    if part is not None:
        # `max_length is not None and len(v) > max_length`: a value within the bound
        return (
            None
            if _reads_local(part, found, facts)
            else _said_node(part, text, found, constants, facts)
        )
    said = _said_words(node, text, found, constants, facts)
    if said is None and isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        said = _every_part_said(node, text, found, constants, facts)
    return said


def _every_part_said(
    node: ast.BoolOp, text: str, found: Validated, constants: dict[str, str], facts: Facts
) -> str | None:
    """`not isinstance(v, int) or v in (True, False)`: the value must pass every part
    (" that is an instance of `int` and other than `True`, `False`")."""
    lead = " that is "
    rests: list[str] = []
    for part in node.values:
        kind = isinstance_of(part, found.value)
        if isinstance(kind, ast.Name | ast.Attribute):
            said: str | None = f"{lead}not an instance of {code(ast.unparse(kind))}"
        else:
            said = _said_words(part, text, found, constants, facts)
        if said is None or not said.startswith(lead):
            return None
        rests.append(said[len(lead) :].removeprefix("a value "))
    return lead + " and ".join(rests) if len(rests) > 1 else None


def _reads_local(node: ast.expr, found: Validated, facts: Facts) -> bool:
    """Whether the test reads a local of the validator other than the value
    (`required_version`): no name the data's author knows; the test with its locals
    expanded is said instead."""
    roots = {n.split(".")[0] for n in free_names(node)} - {found.value}
    return any(b.origin == "local" and b.name in roots for b in facts.bindings)


def _said_words(
    node: ast.expr, text: str, found: Validated, constants: dict[str, str], facts: Facts
) -> str | None:
    """The input rules' words for one test of the value, after "a value"."""
    node, bounds = fallback_bounds(node)
    names = free_names(node)
    names += [n for pair in bounds.values() for n in pair]
    if found.value not in {n.split(".")[0] for n in names}:
        return None
    described = {found.value: _SUBJECT}
    described |= {p: f"the field's {code(p)}" for p in found.others if p not in _CONTEXT}
    patterns = module_patterns(facts.source_tree()) if "match(" in text else {}
    instead = what_to_pass(node, described, constants) or more_shapes(
        node, described, constants, patterns, lambda part: what_to_pass(part, described, constants)
    )
    if instead is None:
        return None
    text = instead.text.rstrip(".")
    for lead in (f"Pass {_SUBJECT}", f"Give {_SUBJECT} a value"):
        if text.startswith(lead):
            rest = text[len(lead) :]
            break
    else:
        given = text.removeprefix("Pass ").removesuffix(f" for {_SUBJECT}")
        if given not in _FOR_SUBJECT:
            return None
        rest = _FOR_SUBJECT[given]
    if _SUBJECT in rest:
        return None
    for before, after in _AFTER_VALUE:
        rest = rest.replace(before, after)
    if rest.startswith(" as "):
        rest = " that is " + rest[len(" as ") :]  # "as the path of a file that exists"
    for other in [p for p in found.others if p not in _CONTEXT]:
        # the validator's other parameters are the field's constraints (`max_length`)
        rest = re.sub(
            rf"(?<!the field's ){re.escape(code(other))}", f"the field's {code(other)}", rest
        )
    for other in sorted({n for n in names if "." in n}, key=len, reverse=True):
        words = _declared_words(other, found)
        if words is not None:
            rest = rest.replace(code(other), words)
    for placeholder, (first, fallback) in bounds.items():
        # `A if A is not None else B`: the field's own bound, else the config's
        said = [_declared_words(n, found) or code(n) for n in (first, fallback)]
        rest = rest.replace(code(placeholder), f"{said[0]} (else {said[1]}, when it sets none)")
    if any(re.search(rf"\b{p}\b", rest) for p in bounds):
        return None  # a bound within a longer expression (`max(bound_0, 1)`): a made-up name
    if found.owner:
        rest = rest.replace(code("cls"), code(found.owner))  # the type the field is declared as
    if re.search(r"`[^`]*\b(?:field|config)\.[^`]*`", rest):
        return None  # the framework's own objects, not put in words: nothing the data holds
    return rest if rest.startswith(" ") else f" {rest}"


def _declared_words(dotted: str, found: Validated) -> str | None:
    """A bound the field or the model's config declares, in words: pydantic's `field:
    ModelField` attributes are the field's own (`field.type_`'s those of the type it is
    declared as: `constr(max_length=...)`), `config`'s the model config's, and a declared
    type's `cls.min_items` the field's."""
    root, _, attr = dotted.partition(".")
    if root in found.others:
        if root == "field":
            return f"the field's {code(attr.removeprefix('type_.'))}"
        return f"the {root}'s {code(attr)}"
    if root == "cls" and found.owner and "." not in attr:
        return f"the field's {code(attr)}"
    return None


def validated_fields(facts: Facts) -> list[str]:
    """The fields a validator decorator registers the site's function for (none: [])."""
    site = facts.stored.site
    span = function_span(facts.source_text, site.function.rpartition(".")[2], site.line)
    if span is None:
        return []
    return _decorated_fields(decorators_above(facts.source_text or "", span[0] + 1)) or []


def _decorated_fields(decorators: list[ast.expr]) -> list[str] | None:
    """The field names a validator decorator registers the function for ([] when none is
    written), or None when it has no such decorator."""
    for decorator in decorators:
        call = decorator if isinstance(decorator, ast.Call) else None
        target = call.func if call is not None else decorator
        name = dotted_name(target) if isinstance(target, ast.Name | ast.Attribute) else None
        if name is None or name.rsplit(".", 1)[-1] not in _FIELD_DECORATORS:
            continue
        args = call.args if call is not None else []
        return [a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return None


def handed_by_type(facts: Facts, owner: str, name: str, line: int | None = None) -> bool:
    """Whether the class's validator hooks hand on `cls.name` (yield it, pass it); the
    class is the one around `line` (the site's when none)."""
    cls = class_around(facts.source_text, owner, facts.stored.site.line if line is None else line)
    if cls is None:  # its lines could not be cut from the file's: the whole file parsed
        tree = facts.source_tree()
        found = walk(tree) if tree is not None else iter(())
        cls = next((n for n in found if isinstance(n, ast.ClassDef) and n.name == owner), None)
    for item in cls.body if cls is not None else []:
        if isinstance(item, ast.FunctionDef) and item.name in TYPE_HOOKS:
            called = {id(c.func) for c in walk(item) if isinstance(c, ast.Call)}
            for sub in walk(item):
                if (
                    isinstance(sub, ast.Attribute)
                    and sub.attr == name
                    and isinstance(sub.value, ast.Name)
                    and sub.value.id == "cls"
                    and id(sub) not in called
                ):
                    return True
    return False


def _plain_types(text: str) -> bool:
    """Whether every type a test checks the value against is one plain data holds (`int`,
    `str`, `list`...), not one only Python code makes (`date`, `IPv4Address`)."""
    if re.search(r"__class__|\btype\(|\bcls\b", text):
        return False  # the value's class: an object the data cannot hold as it comes in
    for found in re.finditer(r"isinstance\(\w+, \(?([\w, ]+)\)?\)", text):
        if not set(re.split(r",\s*", found.group(1).strip(", "))) <= _PLAIN:
            return False
    return True


def _returns_only(lines: Sequence[str], line: int) -> bool:
    """Whether the branch under the test at `line` (1-based) only gives a value back: a
    `return`, or tests whose branches all return (`if isinstance(v, Enum): return v.value
    else: return v`); comments and blank lines skipped."""
    if not 0 < line < len(lines):
        return False
    header = lines[line - 1]
    depth = len(header) - len(header.lstrip())
    returned = False
    for text in lines[line:]:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(text) - len(text.lstrip()) <= depth:
            break
        if stripped.startswith("return"):
            returned = True
        elif not stripped.startswith(("if ", "elif ", "else:")) or not stripped.endswith(":"):
            return False
    return returned


def _named_validator(name: str) -> bool:
    return not name.startswith("_") and re.search(r"(?:^|_)validator$", name) is not None


def _validating_module(facts: Facts, name: str) -> bool:
    """A public function named `validate_*` of a module named for validating
    (`validators.py`): a validator the framework appends to a field's list by name
    (`pre_validators.append(make_generic_validator(validate_json))`), whatever module does
    it; `_returns_value` then asks that it gives back the value or a conversion of it."""
    stem = facts.stored.file.rpartition("/")[2].removesuffix(".py")
    if not name.startswith("validate_") or VALIDATING_MODULE.match(stem) is None:
        return False
    # handed on as a value by the package (not only called): a `validate_port(value)` the
    # user calls themselves is no framework's validator
    return facts.once(f"handed_by_name:{name}", lambda: _handed_by_name(facts, name))


# an import statement, over its lines when parenthesised: a name there is not handed on
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+\S+[ \t]+)?import[ \t]+(?:\([^)]*\)|[^\n]*)", re.M)


# `_handed_by_name`'s answers across pages, by (the version's revision, the site's folder,
# the name): a revision is the hash of the version's content, so the folder's kept paths and
# the texts read for an answer are the same on every page that asks it (a cold page reads
# them once a process)
_HANDED: AcrossPages[bool] = AcrossPages(1024)


def _handed_by_name(facts: Facts, name: str) -> bool:
    """Whether a module of the site's folder names the function as a value, not as a
    call, its `def` or an import (`make_generic_validator(validate_json)`, `[str_validator,
    validate_json]`)."""
    file_text, folder_paths = facts.file_text, facts.folder_paths
    if folder_paths is None or file_text is None:
        return False
    key = (facts.stored.revision, facts.stored.file.rpartition("/")[0], name)
    return _HANDED.kept(key, lambda: _named_as_value(file_text, folder_paths(), name))


def _named_as_value(
    file_text: Callable[[str], str | None], paths: Sequence[str], name: str
) -> bool:
    used = re.compile(rf"(?<![\w.]){re.escape(name)}\b(?!\s*\()")
    for path in paths:
        text = file_text(path) if path.endswith(".py") else None
        if text is None or name not in text:
            continue
        text = _IMPORT.sub("", text)
        found = matches_from(used, text, occurrences(text, name))
        if any(not text.endswith("def ", 0, m.start()) for m in found):
            return True
    return False


def _returns_value(function: ast.FunctionDef, value: str) -> bool:
    """Every `return` gives back the value checked, or a conversion of it (`tuple(v)`)."""
    returns = [n for n in walk(function) if isinstance(n, ast.Return)]
    if not returns:
        return False
    for node in returns:
        got = node.value
        if isinstance(got, ast.Name) and got.id == value:
            continue
        if isinstance(got, ast.Call) and any(
            isinstance(a, ast.Name) and a.id == value for a in got.args
        ):
            continue
        return False
    return True
