"""Ways out through the value a user passed to a public call that hands it on to the check.

A check in an internal function (httpx's `urlparse(url)` in the private `_urlparse` module)
often tests a value the user gave a public call (`httpx.URL(url)`, which passes its `url`
on). When the chain of callers reaches a public function (`entry_input.public_caller`; or
every chain reaches the same argument of one or a few entry points, `entry_args.sole_entry`,
which names them all: `httpx.AsyncClient` or `httpx.Client`), the page says to change that
argument of the public call, with the check's condition and message in the user's terms.
A chain of type tests says what to pass instead: the kinds of value it accepts
(`accepted_types`), not its last test negated.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.accepted_types import accepted_kinds, kinds_text
from errdex.explain.call_binding import positional_index
from errdex.explain.context import PART, Entry, Facts, parse_module
from errdex.explain.entry_args import sole_entry
from errdex.explain.entry_flow import flow_entry
from errdex.explain.entry_input import (
    CHECKS,
    catching,
    names_read,
    public_caller,
    roots,
    state_of,
)
from errdex.explain.expanded import expanded
from errdex.explain.hiding_flags import input_solution
from errdex.explain.input_nodes import conjuncts
from errdex.explain.inputs import Given, input_action
from errdex.explain.literal_members import with_members
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code, listed
from errdex.explain.type_checks import merged_type_checks
from errdex.extract.module import module_name
from errdex.extract.shapes import is_none
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store.base import Store, StoredSite

# "Pass None for the argument ...", "Pass an empty (false) value for ...", "Leave the
# argument ... out": the value handed in taken back
_DROPPING = ("Pass None for ", "Pass an empty (false) value for ", "Leave the argument ")
# a flag that says what a thing is (`is_multimodal_model`), not what the user asks for
_PREDICATES = ("is_", "has_")
_TURNED = ("Pass a non-empty (true) value for ", "Pass an empty (false) value for ", "Pass `")


def entry_input_solution(store: Store, chosen: StoredSite, facts: Facts) -> Solution | None:
    """ "Change the argument `url` of `httpx.URL` ...", or None."""
    site = chosen.site
    if site.kind != SiteKind.RAISE or chosen.public_path() is not None:
        return None  # a public function's own input is `inputs.py`'s
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return None  # what failed is the `try`'s call, which no condition here says
    checks = [c for c in facts.held if c.kind in CHECKS]
    params = [p for p in facts.read.params if p not in ("self", "cls")]
    if not checks or not params:
        return None
    check = checks[-1]  # the raise's own test
    read = [p for p in params if p in roots(check.text)]
    if len(read) > 1:
        read = _part_read(store, chosen, facts, params, check.text)
    if len(read) != 1 or state_of(check.text, read[0]):
        return None  # several values, or an attribute of an object passed in (its state)
    entry = entry_of(store, chosen, facts, params, read[0])
    if entry is None:
        return None
    callee = site.function.removesuffix(".__init__")
    said = f" (“{site.message.text}”)" if site.message is not None else ""
    kinds = accepted_kinds(facts, read[0])
    if kinds is not None:
        text = kinds_text(kinds, lambda name: _exported(store, chosen, entry, name))
        reach = f"{code(callee)} as {code(read[0])}, which raises at line {site.line}"
        if entry.how:
            return Solution(
                text=(
                    f"Make {_part(entry)} {text}: each reaches {reach} for any other value{said}."
                ),
                condition=check.text,
                kind="input",
            )
        return Solution(
            text=(
                f"Pass {_arguments(entry, 'to')} as {text}{_items(entry)}: {_it(entry)} "
                f"reaches {reach} for any other value{said}."
            ),
            condition=check.text,
            kind="input",
        )
    # every check of the path on that value: the raise's own test alone may read as less
    # than it is (`!= 'auto'` after the `bfloat16` and fp8 returns)
    on_it = [c for c in checks if read[0] in roots(c.text)]
    # only where every chain agrees (`sole_entry`): with several entry points, which one
    # the user called is not known, and the check is said as it is
    sole = facts.memo.get(f"sole_entry:{read[0]}") is entry
    given = _value_to_pass(facts, check, on_it, read[0], entry) if sole else None
    if given is not None:
        return given
    if entry.how:
        change = f"Change {_part(entry)}: each reaches {code(callee)} as {code(read[0])}"
    else:
        change = (
            f"Change the argument {_arguments(entry, 'you pass to')}"
            f"{_items(entry)}: {_it(entry)} reaches {code(callee)} as {code(read[0])}"
        )
    return checked_change(change, on_it, check, said)


def _value_to_pass(
    facts: Facts, check: ConditionView, on_it: list[ConditionView], param: str, entry: Entry
) -> Solution | None:
    """The value of the public call's argument that gets past the check, in the input rules'
    words ("Pass the argument `k_mode` of `preprocess_dots3_note_video` (it reaches
    `_group_bounds`) equal to `'logk'`"), where the raise's own test is the only check of
    the path on the argument, handed on as it is (no part or item of it); else None, and
    the page says the check instead. The test with the `elif` arms before it that give a
    value back (`_returning_arms`, merged by `merged_type_checks`), not every earlier arm:
    one may raise for the value it takes (`if isinstance(timeout, str): raise ...`). A
    value that only drops what the user asked for is no such value: None or an empty value
    for a test joined by `and` (`params and not isinstance(params[0], ...)`: the user's
    parameters are the point of the call), a predicate turned over (`is_multimodal_model`:
    what the model is, not a choice), or "other than" the value refused, which names none
    that passes."""
    if entry.how or on_it != [check]:
        return None
    # the arms before the raise's `else` that give a value back for what they take (`if
    # algorithm == "blake3": return blake3`): their values pass too, said with the test's
    # (the solution still names the raise's own test, the condition the page holds)
    merged = merged_type_checks([*_returning_arms(facts, check, param), check]).get(
        check.line, check
    )
    kept = facts.entry_args
    facts.entry_args = {**kept, param: entry}
    try:
        given = input_action(merged, facts, handed=True)
        if given is None:
            wide = expanded(merged, facts)
            given = input_action(wide, facts, handed=True) or input_action(
                with_members(wide, facts), facts, handed=True
            )
        if given is None or given.argument != entry.argument or _drops_value(given, check):
            return None
        solution, way_out = input_solution(given, check, facts)
    finally:
        facts.entry_args = kept
    return solution if way_out else None


def _returning_arms(facts: Facts, check: ConditionView, param: str) -> list[ConditionView]:
    """The `elif` chain's earlier arms on `param`, held where the raise is, whose branch
    ends in a `return` and raises nothing: a value they take is given back, never refused.
    Not an arm that raises itself (`if isinstance(timeout, str): raise ...`): its value is
    refused there; nor one that goes on, which may lead into another error."""
    arms = [
        c
        for c in facts.held
        if c.kind == ConditionKind.ELIF
        and (c.line or 0) < (check.line or 0)
        and param in roots(c.text)
    ]
    function = facts.site_function() if arms else None
    if function is None:
        return []
    returning = {
        node.lineno
        for node in walk(function)
        if isinstance(node, ast.If)
        and isinstance(node.body[-1], ast.Return)
        and not any(isinstance(n, ast.Raise) for stmt in node.body for n in walk(stmt))
    }
    return [c for c in arms if c.line in returning]


def _drops_value(given: Given, check: ConditionView) -> bool:
    """Whether the words only take back the value the user gave (`_value_to_pass`)."""
    text = given.text
    if " other than " in text:
        return True
    node = parse_expression(check.text)
    joined = isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)
    if joined and text.startswith(_DROPPING):
        return True
    predicate = given.argument is not None and given.argument.startswith(_PREDICATES)
    return predicate and text.startswith(_TURNED)


def _part_read(
    store: Store, chosen: StoredSite, facts: Facts, params: list[str], text: str
) -> list[str]:
    """Of a test joined by `and` whose parts read one parameter each (`path.startswith(":")
    and not has_scheme`), the first parameter a public call hands on whose part tests what
    it holds: making that part false avoids the check, whatever the others hold. A part
    that only tests the value is given (`x is not None`, `live_only`) is a switch: turning
    it off gives up what the call asked for, while the other part says what is missing;
    [] when no part is of the value's contents."""
    found = conjuncts(text)
    if found is None or found[1][0] is found[0]:
        return []  # no test joined by `and`
    parts = [[p for p in params if p in names_read(part)] for part in found[1]]
    if any(len(part) != 1 for part in parts):
        return []
    if any(state_of(text, param) for (param,) in parts):
        return []  # an object passed in whose state the check reads: how it was made
    for part, (param,) in zip(found[1], parts, strict=True):
        if _given_only(part):
            continue
        if entry_of(store, chosen, facts, params, param) is not None:
            return [param]
    return []


def _given_only(part: ast.expr) -> bool:
    """`x`, `not x`, `x is None`, `x is not None`: a test of whether a value was given."""
    if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not):
        part = part.operand
    if isinstance(part, ast.Name | ast.Attribute):
        return True
    return (
        isinstance(part, ast.Compare)
        and len(part.ops) == 1
        and isinstance(part.ops[0], ast.Is | ast.IsNot)
        and is_none(part.comparators[0])
    )


def _arguments(entry: Entry, passed: str) -> str:
    """ "`content` you pass to `httpx.Request` or `httpx.Response`, or `data` you pass to
    `httpx.Request`" (`passed` between each argument and its calls); arguments the same
    calls take are named together: "`k_scale` or `q_scale` you pass to `f`"."""
    groups = [(entry.argument, entry.calls), *entry.also]
    if len({calls for _, calls in groups}) == 1:
        return f"{listed([code(a) for a, _ in groups], 'or')} {passed} {entry.named()}"
    # a comma between the groups: each group's calls are joined by "or" already
    return ", or ".join(
        f"{code(a)} {passed} {listed([code(c) for c in calls], 'or')}" for a, calls in groups
    )


def _it(entry: Entry) -> str:
    return "each" if entry.also else "it"


def _items(entry: Entry) -> str:
    """ " (or each item of it, where it is a `tuple` or `list`)": the containers whose
    items the chain hands on one by one where the value is one of them (`entry_flow`)."""
    if not entry.kinds:
        return ""
    return f" (or each item of it, where it is a {listed([code(k) for k in entry.kinds], 'or')})"


def _part(entry: Entry) -> str:
    """ "each key of the mapping `data` you pass to `httpx.Request`": the part of the
    user's argument a loop hands on (`entry_flow`)."""
    given = f"{code(entry.argument)} you pass to {entry.named()}"
    if entry.how.startswith(PART):
        group, _, keyword = entry.how.removeprefix(PART).partition("=")
        instead = f", or the keyword {code(keyword)} given in its place" if keyword else ""
        return f"the {code(group)} part of {given}{instead}"
    if entry.how == "element":
        return f"each item of {given}{_items(entry)}"
    return f"each {entry.how} of the mapping {given}{_items(entry)}"


def checked_change(
    change: str, on_it: list[ConditionView], check: ConditionView, said: str
) -> Solution:
    """ "{change}, and the check at line N fails when {every check on the value}{said}."."""
    when = "; ".join(c.plain or code(c.text) for c in on_it)
    return Solution(
        text=f"{change}, and the check at line {check.line} fails when {when}{said}.",
        condition=check.text,
        kind="input",
    )


def entry_of(
    store: Store, chosen: StoredSite, facts: Facts, params: list[str], param: str
) -> Entry | None:
    """The public calls every chain of callers hands `param` through, when they agree
    (`sole_entry`: all of them named); else the first chain's (`public_caller`)."""
    found = facts.once(
        f"sole_entry:{param}",
        lambda: sole_entry(store, chosen, facts.callers, params, param, {}),
    )
    if found is not None:
        return found
    function = facts.site_function()
    reached = public_caller(
        store, chosen, facts.callers, chosen.site.function, param, catching(chosen), function
    )
    if reached is not None:
        return Entry((reached[0],), reached[1])
    # every chain, not the first alone: a helper many callers reach, a loop's items
    position = positional_index(function, param) if function is not None else -1
    return facts.once(
        f"flow_entry:{param}",
        lambda: flow_entry(store, chosen, facts.callers, param, position, catching(chosen)),
    )


def _exported(store: Store, chosen: StoredSite, entry: Entry, name: str) -> str:
    """`Auth` as `httpx.Auth`, the path a user imports it by: that of a site of its own, or
    the top package of the entry point when its `__init__` (when the index keeps it)
    imports the name; else as the code writes it."""
    if "." in name:
        return name
    path = store.public_path_of(chosen.version_id, name)
    if path is not None:
        return path
    package = entry.calls[0].partition(".")[0]
    module = module_name(chosen.file)[0]
    prefix = chosen.file[: chosen.file.find(module.replace(".", "/"))]
    text = store.file_text(chosen.version_id, f"{prefix}{package}/__init__.py")
    tree = parse_module(text) if text is not None and name in text else None
    if tree is None:
        return name
    imported = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    return f"{package}.{name}" if name in imported else name
