"""The deterministic explainer: what an error means and when it happens, in sentences made
only from the facts (conditions, bindings, callers, knobs, the exception class, tests).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from errdex.ast_walk import walk
from errdex.explain.abstract import enforced_abstract
from errdex.explain.bookkeeping import bookkeeping_sentence, own_bookkeeping
from errdex.explain.class_hooks import class_hook_sentence
from errdex.explain.context import Facts, holding_path
from errdex.explain.dead_ends import not_offered
from errdex.explain.decorated import decorated_sentence
from errdex.explain.exempting_settings import exempted_sentence
from errdex.explain.failed_call import caught_bare, made_sentence, wrapped_sentence
from errdex.explain.failed_lookup import failed_lookup
from errdex.explain.failing_branch import failing_sentence
from errdex.explain.filled_flags import filled_sentence
from errdex.explain.handed_callback import handed_sentence
from errdex.explain.handed_invariants import invariant_sentence
from errdex.explain.hiding_flags import hidden_sentence
from errdex.explain.inner_raises import inner_sentence
from errdex.explain.input_nodes import assignment_targets, stored_roots
from errdex.explain.inputs import TRIPPING
from errdex.explain.kept_argument import kept_sentence
from errdex.explain.name_scan import names_word
from errdex.explain.narrowing import narrows_call_result
from errdex.explain.network_try import sent_request
from errdex.explain.no_action import never_true_here, no_action_sentence
from errdex.explain.overrides import package_made_sentence
from errdex.explain.own_handler import caught_without_replacement, own_handler
from errdex.explain.page import (
    GUARD_NOT_READ,
    BindingView,
    Caller,
    ConditionView,
    WhenItHappens,
)
from errdex.explain.passthru import pass_through
from errdex.explain.pinned_settings import pinned_sentence
from errdex.explain.plain import caught_text, code
from errdex.explain.ran_out import ran_out_sentences
from errdex.explain.reasons_list import reasons_solved
from errdex.explain.refused_modes import refused_mode_sentence
from errdex.explain.refused_use import NOT_FOLLOWED, refused_use
from errdex.explain.registered_name import registration_sentence
from errdex.explain.reraise import PASSED_ON, PASSED_ON_BARE, is_reraise
from errdex.explain.same_fallback import fallback_sentence
from errdex.explain.selection import selection_context
from errdex.explain.solutions import no_way_out, solutions
from errdex.explain.tried_again import tried_sentence
from errdex.explain.tried_input import failing_calls, setting_input
from errdex.explain.try_failure import no_way_out_of_try, try_failure_sentences
from errdex.explain.twins import twin_sentences
from errdex.explain.unset_choice import REFUSED
from errdex.explain.user_data import arguments_read
from errdex.explain.user_values import user_value_sentence
from errdex.explain.waiting_branch import waiting_branches, waiting_sentence
from errdex.facts import ConditionKind, KnobKind, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.linked_facts import NAMED_IN_MESSAGE
from errdex.reading_facts import TryRead
from errdex.store.base import StoredSite

_MAX_REASONS = 6
_MAX_SITUATIONS = 6


def all_of(conditions: list[ConditionView]) -> str:
    return "; ".join(c.plain or code(c.text) for c in conditions)


def _where(stored: StoredSite) -> str:
    function = stored.site.function
    place = f"{stored.file}:{stored.site.line}"
    if function == "<module>":
        return f"The module {code(stored.module)} ({place})"
    return f"{code(function)} ({place})"


def _verb(stored: StoredSite) -> str:
    site = stored.site
    exception = stored.exception.name if stored.exception else site.exception
    match site.kind:
        case SiteKind.RAISE:
            return f"raises {code(exception or 'an exception')}"
        case SiteKind.HELPER:
            return f"calls a helper that raises {code(exception or 'an exception')}"
        case SiteKind.RERAISE:
            return f"re-raises the {code(exception)} it caught" if exception else "re-raises"
        case SiteKind.ASSERT:
            return "fails an `assert` (AssertionError)"
        case SiteKind.WARN:
            return f"issues a warning ({code(exception or 'UserWarning')})"
        case SiteKind.LOG:
            return f"logs this message at {site.level or 'error'} level"
        case SiteKind.EXIT:
            return "exits the program with this message (SystemExit)"


_KIND_NOTES = {
    SiteKind.ASSERT: "Python skips `assert` statements when run with -O.",
    SiteKind.WARN: "A warning does not stop the program unless warnings are turned into errors.",
    SiteKind.LOG: "A log record is not an exception: the program goes on after it.",
}


def what_it_means(facts: Facts) -> str:
    stored = facts.stored
    through = pass_through(facts)
    if through is not None:
        # the user's own failure: no condition of the site is a way out of it
        return " ".join([through.what_it_means(facts), *_documented(facts)])
    first = f"{_where(stored)} {_verb(stored)}"
    held = facts.held
    if held:
        first += f" when all of these hold: {all_of(held)}."
    elif facts.read.placement:
        first += f"; it sits {facts.read.placement}."
    elif facts.conditions:
        placed = _placement(facts)
        first += f"{placed}." if placed.startswith(";") else f" {placed}."
    else:
        first += "; nothing in its function guards it."
    sentences = [first, *ran_out_sentences(facts.conditions)]
    never = never_true_here(facts)
    if never is not None:
        sentences.append(never)  # a variant of a shared helper this call never raises
    nothing_to_do = no_action_sentence(facts)
    sentences.extend(_except_sentences(facts, check=nothing_to_do is None))
    handler = own_handler(facts)
    if handler is not None:  # caught by its own `try`: what the user meets instead
        sentences.append(
            handler.sentence(
                f"the module {code(stored.module)}"
                if stored.site.function == "<module>"
                else code(stored.site.function)
            )
        )
    wrapped = wrapped_sentence(facts)
    if wrapped is not None:
        sentences.append(wrapped)
    inner = inner_sentence(facts)
    if inner is not None:
        sentences.append(inner)
    solutions(facts)  # fills `facts.twinned`
    sentences.extend(twin_sentences(facts, facts.twinned))
    declared = (
        registration_sentence(facts)
        or handed_sentence(facts)
        or decorated_sentence(facts)
        or kept_sentence(facts, {s.condition or "" for s in solutions(facts)})
    )
    if declared is not None:  # the user's registration, callable or decorated object
        sentences.append(declared)
    if nothing_to_do is not None:
        sentences.append(nothing_to_do)
    rest = _context(facts) if nothing_to_do is None else []
    context = all_of(rest)
    # a way out dropped as no way out (`__init__` left half built, a warning only hidden):
    # why, rather than "no setting behind that", which the page cannot claim of it
    said, dropped = not_offered(rest, facts)
    if context:
        # the solutions below come another way (a caller's guard, the message's advice)
        elsewhere = bool(solutions(facts))
        if dropped:
            tail = " The ways out below avoid it another way." if elsewhere else ""
            sentences.append(" ".join([f"The check applies only when {context}.", *said]) + tail)
        elif not narrows_call_result(facts):
            given = arguments_read(facts) or user_value_sentence(facts) or _entry_read(rest, facts)
            behind = "no setting" if given else "no setting or argument a user passes"
            tail = "; the ways out below avoid the check another way" if elsewhere else ""
            sentences.append(
                f"The check applies only when {context}: errdex found {behind} behind that{tail}."
            )
        else:
            sentences.append(
                f"The check applies only when {context}: the `assert` checks only that the "
                "call just before it returned a value, and taking another branch of the guards "
                "around it is no way out."
            )
        picked = selection_context(facts.stored, solutions(facts), facts.value_picked)
        if picked:
            sentences.append(picked)
        elif (
            not solutions(facts)
            and not facts.refused
            and not facts.exempted  # a setting spares another check: said below
            and nothing_to_do is None
            and not facts.memo.get(REFUSED)  # a yes/no setting decides it: said below
        ):
            # said rather than a condition negated: a way out no user can take is none
            sentences.append(_no_solution(facts))
    sentences.extend(hidden_sentence(s) for s in facts.hidden[:1])
    abstract = enforced_abstract(facts)
    if abstract is not None:
        sentences.append(abstract)
    made = package_made_sentence(facts)
    if made is not None:  # an interface only the package implements: no user's subclass
        sentences.append(made)
    offered = {s.condition for s in solutions(facts)}
    sentences.extend(
        try_failure_sentences(facts, lambda c: no_way_out(c, facts) or c.text in offered)
    )
    sentences.extend(
        f"Changing {code(s.knob or '')} is no way out: the test at line {line} then holds "
        "with what the path holds, and that guard fails as well."
        for s, line in facts.tripped[:2]
    )
    sentences.extend(_tripping_sentences(facts))
    pinned = pinned_sentence(facts)
    if pinned is not None:
        sentences.append(pinned)  # a setting the constructor requires to hold one value
    invariant = invariant_sentence(facts)
    if invariant is not None:
        sentences.append(invariant)  # a setting tied to what the function is handed
    filled = filled_sentence(facts)
    if filled is not None:
        sentences.append(filled)  # a flag left out is filled with a default object
    refusing = refused_mode_sentence(facts.refused_modes)
    if refusing is not None:
        sentences.append(refusing)  # another mode the config refuses with the user's value
    spared = exempted_sentence(facts.exempted)
    if spared is not None:
        sentences.append(spared)  # turned off, a setting leads into the check it spares
    # yes/no settings whose value leads into a failing branch
    sentences.extend(list(dict.fromkeys(said for _, said in facts.memo.get(REFUSED, [])))[:2])
    failing = failing_sentence(facts.failing)
    if failing is not None:
        sentences.append(failing)  # each guard, with the call its other branch makes
    waiting = waiting_branches(facts)
    waited = waiting_sentence(waiting)
    if waited is not None:
        sentences.append(waited)  # each guard, with the loop its other branch waits in
    taken = fallback_sentence(facts)
    if taken is not None:
        sentences.append(taken)  # each guard, with the fallback its other branch returns
    said_failing = {(f.line, f.holds) for f in facts.failing} | {(w.line, w.holds) for w in waiting}
    tried, tried_lines = tried_sentence(facts, held)
    if tried is not None:
        sentences.append(tried)  # each guard, with the failed call its other branch runs
    blocked = [
        c
        for c in held
        if no_way_out(c, facts)
        and (c.line, c.holds) not in said_failing
        and c.line not in tried_lines
    ]
    if blocked:
        lines = ", ".join(str(c.line) for c in blocked)
        sentences.append(
            f"The guard at line {lines} is no way out: its other branch fails as well."
            if len(blocked) == 1
            else f"The guards at lines {lines} are no way out: their other branches fail as well."
        )
    if not context and nothing_to_do is None and is_reraise(facts) and not solutions(facts):
        # every guard picks only how the caught error is told
        sentences.append(PASSED_ON_BARE if caught_bare(facts) else PASSED_ON)
    for solution, comment in facts.refused[:2]:
        sentences.append(
            f"{code(solution.knob or '')} would skip the check, but the comment beside it "
            f"(“{comment}”) warns against that way out: it is not offered."
        )
    rebound = _rebound(facts)
    where = [b for b in facts.bindings if len(b.value) <= 200 and b not in rebound]
    if where:
        parts = [
            f"{code(b.name)} is {code(b.value)}"
            + (
                f" (line {b.line})"
                if b.origin == "local" and b.line
                else " (its default)"
                if b.origin == "default"
                else f" ({b.file})"
            )
            for b in where[:4]
        ]
        sentences.append("Here " + "; ".join(parts) + ".")
    if facts.variants:
        reasons = ", ".join(f"“{v.reason}”" for v in facts.variants[:_MAX_REASONS])
        more = len(facts.variants) - _MAX_REASONS
        tail = f" and {more} more" if more > 0 else ""
        sentences.append(f"The message lists each reason that applies, among {reasons}{tail}.")
    note = _KIND_NOTES.get(stored.site.kind)
    raised = _raised_next(facts) if stored.site.kind in (SiteKind.LOG, SiteKind.WARN) else None
    if raised is not None:
        what = "A log record" if stored.site.kind == SiteKind.LOG else "A warning"
        note = f"{what} is not an exception, but the statement after it raises (line {raised})."
    if note:
        sentences.append(note)
    sentences.extend(_documented(facts))
    return " ".join(sentences)


def _raised_next(facts: Facts) -> int | None:
    """The line of a `raise` that follows the site's statement: in the same block, or
    after the `if`/`with` holding it once that block runs out (`if e is None: log(...)`
    then `raise e` in the handler): the program does not go on after that log record or
    warning."""
    function = facts.site_function()
    if function is None:
        return None
    for rest, falls_through in _rests_outward(function, facts.stored.site.line):
        if (raised := _raise_after(rest)) is not None:
            return raised
        if not falls_through or not all(isinstance(s, _PASSED) for s in rest):
            return None
    return None


def _rests_outward(function: ast.FunctionDef, line: int) -> Iterator[tuple[list[ast.stmt], bool]]:
    """The statements after the expression statement at `line` in its block, then after
    each enclosing statement in turn, innermost first; each with whether running off the
    end of that block goes on to the next (an `if`'s branch or a `with` body does; a loop,
    a `try` or a nested function does not, as far as this reading goes)."""
    path = holding_path(function.body, line)
    if not path or not isinstance(path[-1][0], ast.Expr):
        return
    for depth in range(len(path) - 1, -1, -1):
        _, block, index = path[depth]
        falls = depth > 0 and isinstance(path[depth - 1][0], ast.If | ast.With)
        yield block[index + 1 :], falls


_PASSED = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)


def _raise_after(statements: list[ast.stmt]) -> int | None:
    """The line of the `raise` that `statements` reach before any branch, loop or return
    (a cleanup call or an assignment between, `self.paths.pop(path, None)`, is passed)."""
    for statement in statements:
        if isinstance(statement, ast.Raise):
            return statement.lineno
        if not isinstance(statement, _PASSED):
            return None
    return None


def _documented(facts: Facts) -> list[str]:
    """What the exception's class is documented as."""
    info = facts.stored.exception
    if info is None or not info.docstring:
        return []
    doc = info.docstring.strip().split("\n\n")[0]
    doc = " ".join(doc.split())
    bases = f", a subclass of {code(info.bases[0])}," if info.bases else ""
    return [f"{code(info.name)}{bases} is documented as: “{doc[:400]}”"]


def when_it_happens(facts: Facts) -> WhenItHappens:
    stored = facts.stored
    function = stored.site.function
    held = facts.held
    raises = f"it {_verb(stored)}" + (f" when {all_of(held)}" if held else "")
    direct = [c for c in facts.callers if c.depth == 1]
    if function == "<module>":
        trigger = f"When the module {code(stored.module)} is imported: {raises}."
    elif direct:
        first = direct[0]
        guard = f" when {_guard_words(facts, first)}" if first.guard else _not_read(first)
        others = f" (and {len(direct) - 1} more callers)" if len(direct) > 1 else ""
        trigger = (
            f"{code(first.function)} calls {code(function)} ({first.file}:{first.line}){guard}"
            f"{others}; {raises}."
        )
    else:
        trigger = f"When {code(function)} runs, {raises}."
    situations: list[str] = []
    for caller in facts.callers:
        if caller.depth == 1 and caller is direct[0]:
            continue
        target = (caller.calls or "").rsplit(".", 2)
        callee = ".".join(target[-2:]) if len(target) >= 2 else caller.calls or ""
        guard = f" when {' and '.join(code(g) for g in caller.guard)}" if caller.guard else ""
        guard = guard or _not_read(caller)
        situations.append(
            f"Reached from {code(caller.function)} ({caller.file}:{caller.line}), "
            f"which calls {code(callee)}{guard}."
        )
    for knob in facts.knobs:
        behind = code(knob.behind or knob.name)
        if knob.kind == KnobKind.PACKAGE:
            situations.append(
                f"{behind} is None when the optional {code(knob.name)} is missing."
                if knob.same_value
                else f"{behind} depends on whether the optional {code(knob.name)} is installed."
            )
            continue
        if knob.kind == KnobKind.PLATFORM:
            verb = "tests" if knob.same_value else "depends on"
            situations.append(f"{behind} {verb} the machine: {code(knob.name)}.")
            continue
        kind = "environment variable" if knob.kind == KnobKind.ENV else "command-line flag"
        if knob.via == NAMED_IN_MESSAGE:
            if knob.behind and knob.behind != knob.name:
                situations.append(
                    f"The message names {behind}, a field of the JSON object the {kind} "
                    f"{code(knob.name)} takes."
                )
            continue
        via = f" (through the {knob.via})" if knob.via and knob.via.startswith("property") else ""
        if knob.passed_by:
            via = f" (passed in by {', from '.join(code(f) for f in knob.passed_by)})"
        setting = f"the {kind} {code(knob.name)}"
        if knob.entry_keyword and knob.call:
            entry = knob.call.partition("(")[0]
            setting = f"the keyword {code(knob.entry_keyword)} of {code(entry)}"
        situations.append(f"{behind} depends on {setting}{via}.")
    situations = situations[:_MAX_SITUATIONS]
    for test in facts.tests[:2]:
        situations.append(
            f"The test {code(test.function)} ({test.file}:{test.line}) reproduces it."
        )
    return WhenItHappens(trigger=trigger, situations=situations)


def _not_read(caller: Caller) -> str:
    """What a sentence says of a call with no guard: nothing, unless it was not read."""
    return "" if caller.guard_known else f" ({GUARD_NOT_READ})"


def _guard_words(facts: Facts, caller: Caller) -> str:
    for known, views in facts.caller_guards:
        if known is caller and views:
            return all_of(views)
    return " and ".join(code(g) for g in caller.guard)


def _placement(facts: Facts) -> str:
    """Where a site with no branch condition sits: in a loop, an except clause, a `with`."""
    parts: list[str] = []
    for condition in facts.conditions:
        if condition.kind == ConditionKind.LOOP:
            header = condition.text if condition.text.startswith(("for ", "while ")) else None
            parts.append(
                f"inside the loop {code(header)} (line {condition.line})"
                if header
                else f"inside a loop while {code(condition.text)} (line {condition.line})"
            )
        elif condition.kind == ConditionKind.EXCEPT:
            parts.append(f"in the clause {code(condition.text)} (line {condition.line})")
        elif condition.kind == ConditionKind.WITH:
            parts.append(f"inside {code('with ' + condition.text)} (line {condition.line})")
        elif condition.kind == ConditionKind.NO_MATCH:
            parts.append(f"after the loop {code(condition.test)}")  # said in `ran_out.py`
    return "; it sits " + ", ".join(parts) if parts else "under the conditions listed below"


def _except_sentences(facts: Facts, check: bool = True) -> list[str]:
    """What failed, for a site in an except clause: the calls or imports of its `try`
    (and, with `check`, that their input is what to check)."""
    out: list[str] = []
    for condition in facts.conditions:
        if condition.kind != ConditionKind.EXCEPT:
            continue
        tried = facts.read.tries.get(condition.line)
        if tried is None:
            continue
        innermost = condition is facts.innermost_except()
        given = (facts.tried or setting_input(facts)) if innermost else None
        if given is not None:
            out.append(given.sentence())  # what failed, and with which input
            continue
        caught = caught_text(condition.text) or "an exception"
        # a lookup said in place of the calls named, none of which raises what was caught
        lookup = failed_lookup(facts, condition.line, condition.text) if tried.calls else None
        if tried.imports:
            what = "importing " + ", ".join(code(m) for m in tried.imports[:3])
        elif lookup is not None:
            what = f"the lookup {code(lookup)}"  # its calls raise no such error
        elif tried.calls:
            shown = failing_calls(tried.calls)[:2]
            what = " or ".join(code(c) for c in shown)
            if _calls_more(tried, shown):  # the `try` is not narrowed to those it names
                what = ", ".join(code(c) for c in shown) + " or another call in it"
        else:
            continue
        request = sent_request(facts) if innermost else None
        if request is not None and not tried.imports:
            # what failed is the request: the network, the host, the server's answer
            which = " The exception it passes on says which." if is_reraise(facts) else ""
            out.append(
                f"It runs when {what} (the `try` at line {tried.line}) raised "
                f"{code(caught)}: {request.sentence()}{which}"
            )
            continue
        made = made_sentence(facts) if innermost and check and not tried.imports else None
        out.append(
            f"It runs when {what} (the `try` at line {tried.line}) raised {code(caught)}. {made}"
            if made is not None
            else f"It runs when {what} (the `try` at line {tried.line}) raised {code(caught)}; "
            + (
                "the key it looked up is what to check."
                if lookup
                else "the input of that call is what to check."
            )
            if not tried.imports and check and not (innermost and caught_bare(facts))
            else f"It runs when {what} (the `try` at line {tried.line}) raised {code(caught)}."
        )
    return out


def _no_solution(facts: Facts) -> str:
    """Why no solution is offered: the program's own state, or (when the conditions read
    an argument of a function the user calls) that and the argument, never a bug to
    report then."""
    passed = arguments_read(facts)
    if not passed and is_reraise(facts):
        # what the `try` raised is the error: nothing of this site's own
        return PASSED_ON_BARE if caught_bare(facts) else PASSED_ON
    defined = class_hook_sentence(facts)
    if defined is not None:
        return defined  # the user's class, being created: its definition is the way out
    if not passed and caught_without_replacement(facts):
        return NOT_FOLLOWED  # no traceback of it: its own handler is said
    refused = None if passed else refused_use(facts)
    if refused is not None:
        return refused  # a value or a use refused, an event logged: no bug to report
    given = None if passed else user_value_sentence(facts)
    if given is not None:
        return given  # an item of an argument, an operator's operand: the user's value
    kept = None if passed else own_bookkeeping(facts)
    if kept is not None:
        # evidence: the conditions read only what the package computes and keeps itself;
        # no caller, setting or input decides them
        return bookkeeping_sentence(facts, kept)
    if not passed:
        # no such evidence: a flag, the request's data, an argument of a method users
        # call, a declaration or a model's metadata may decide them; errdex cannot tell
        # which, and says no more than what it did not find
        return (
            "So no solution is offered: errdex followed none of these conditions to a "
            "setting or to an argument you pass; the traceback's frames above this one "
            "show which call led here."
        )
    names = ", ".join(code(p) for p in passed)
    callee = code(facts.stored.site.function.removesuffix(".__init__"))
    what = "the argument" if len(passed) == 1 else "the arguments"
    return (
        f"So no exact solution is offered: the conditions read {what} {names} of {callee}, "
        "the value it was given, together with what errdex could not follow to a setting."
    )


# What `assignment_targets` reads a target of.
_ASSIGNING = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)
# Names a `try` calls that are not what fails in it (logging, counting, reading a mapping).
_QUIET_CALLEES = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print"}
    | {"range", "len", "isinstance", "issubclass", "hasattr", "callable", "str", "repr"}
    | {"bool", "id", "type", "enumerate", "zip", "items", "keys", "values", "copy", "get"}
    | {"time", "monotonic", "perf_counter", "getLogger", "any", "all", "sorted", "min"}
    | {"max", "sum", "append", "extend"}
)
_CALLED = re.compile(r"(?:[\w.]*\.)?(\w+)\(")  # the name a call's text calls
# Methods that change a list, a dict or a set in place.
_MUTATORS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "remove", "discard", "pop"}
    | {"clear", "popitem", "sort", "reverse"}
)
# A container written out as a literal (`[]`, `{"a": 1}`, `set()`): what a later in-place
# change makes it no longer is
_LITERAL_CONTAINER = re.compile(r"^\s*(?:[\[{]|(?:list|dict|set)\(\s*\)\s*$)")


def _rebound(facts: Facts) -> list[BindingView]:
    """The locals assigned again between their binding and the site (under an `if`: the
    binding read is only their first value, and "here X is ..." would not hold)."""
    local = [b for b in facts.bindings if b.origin == "local" and b.line]
    function = facts.site_function() if local else None
    if function is None:
        return []
    site = facts.stored.site.line
    assigned: dict[str, list[int]] = {}
    changed: dict[str, list[int]] = {}
    for node in walk(function):
        if _mutating_call(node):
            # `packages.append(...)`: a container bound as a literal and filled in is not
            # the literal at the site
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            assert isinstance(node.func.value, ast.Name)
            changed.setdefault(node.func.value.id, []).append(node.lineno)
            continue
        if not isinstance(node, _ASSIGNING):  # most nodes: the test alone
            continue
        for target in assignment_targets(node):
            for name in stored_roots(target):
                assigned.setdefault(name, []).append(target.lineno)
    for b in local:
        if _LITERAL_CONTAINER.match(b.value):
            assigned.setdefault(b.name, []).extend(changed.get(b.name, []))
    return [
        b for b in local if any((b.line or 0) < line < site for line in assigned.get(b.name, []))
    ]


def _calls_more(tried: TryRead, shown: list[str]) -> bool:
    """Whether the `try` calls more than the calls a page names of it: a third that may
    fail, or a name it calls that none of them writes (its calls are kept three at most,
    the names it calls more)."""
    text = " ".join(shown)
    rest = [_CALLED.match(c) for c in failing_calls(tried.calls)[len(shown) :]]
    names = [*tried.callees, *(m.group(1) for m in rest if m)]
    return any(
        name.removesuffix("_once") not in _QUIET_CALLEES  # `logger.warning_once`
        and not names_word(text, name)
        for name in names
    )


def _mutating_call(node: ast.AST) -> bool:
    """A call of a method that changes a container in place on a plain name
    (`names.append(x)`, `seen.add(x)`, `table.update(...)`)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _MUTATORS
        and isinstance(node.func.value, ast.Name)
    )


def _entry_read(conditions: list[ConditionView], facts: Facts) -> bool:
    """Whether a condition reads a parameter that a public call hands in as it is
    (`facts.entry_args`: `encode_host`'s `host`, the `host` part of the `url` given to
    `httpx.URL`): an argument a user passes is behind it, whatever its own function."""
    if not facts.entry_args:
        return False
    for condition in conditions:
        tree = parse_expression(condition.text)
        if tree is not None and any(
            isinstance(n, ast.Name) and n.id in facts.entry_args for n in walk(tree)
        ):
            return True
    return False


def _context(facts: Facts) -> list[ConditionView]:
    """The site's conditions that no solution changes: when the check applies."""
    if facts.handed is not None and facts.handed.inside:
        return []  # each is what the user's callable passed: its way out says them all
    covered = {s.condition for s in solutions(facts) if s.condition}
    covered |= {s.condition for s, _ in facts.refused if s.condition}
    covered |= {s.condition for s in facts.hidden if s.condition}
    covered |= {s.condition for s, _ in facts.tripped if s.condition}
    covered |= {e.condition for e in facts.exempted}
    covered |= {text for text, _ in facts.memo.get(REFUSED, [])}  # said on their own
    rest = [
        c
        for c in facts.held
        if c.text not in covered
        and not no_way_out(c, facts)
        and not no_way_out_of_try(c, facts)  # said by `try_failure_sentences`
        and c not in facts.twinned
        and not reasons_solved(c, facts, solutions(facts))  # said with each reason
    ]
    return rest


def _tripping_sentences(facts: Facts) -> list[str]:
    """The values of arguments a way out would pass that a guard before the check reads
    too, so that passing them may fail it (but those the sentence on settings that trip a
    guard already names). Said beside a solution on the same argument too: `None` for
    `temperature_partial` is no way out where its shape is."""
    tripping: dict[tuple[str, str], list[int]] = facts.memo.get(TRIPPING, {})
    said = {s.knob for s, _ in facts.tripped}
    return [
        f"Passing {how} for {code(name)} is no way out: the guard at line {lines[0]} reads "
        "it too, and may then fail."
        if len(lines) == 1
        else f"Passing {how} for {code(name)} is no way out: the guards at lines "
        f"{', '.join(map(str, lines))} read it too, and one of them may then fail."
        for (name, how), lines in list(tripping.items())[:2]
        if name not in said
    ]
