"""A setting that guards every way into the site's function: turning it off avoids the check.

vllm's `SymmMemCommunicator.__init__` logs when the device cannot use symmetric memory; its
one caller builds it only under `if use_torch_symm_mem and ...`, the local read from
`VLLM_ALLREDUCE_USE_SYMM_MEM`. Turning that variable off keeps the check from running, and
the feature with it. Said only when every caller the index knows calls the function under
a guard that the same setting decides with an exact value: one caller that reaches it
without that guard (or a caller whose guard was not read, or more callers than the linker
keeps) and the setting is no way out. Nor is another value of a chain of branches on one
value (`elif method == "dflash": ... elif method == "ngram":`): it picks other code, with
requirements of its own. Nor a number the caller refuses before its call under another
setting (`refused_before_call`: vllm's `--api-server-count` at least 1, which `--headless`
refuses first); that guard still says what the path holds for the other ways out's fixes.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.context import Facts, function_at
from errdex.explain.knob_actions import KnobAction, knob_action
from errdex.explain.page import Caller, ConditionView
from errdex.explain.plain import code, listed
from errdex.extract.shapes import and_parts, is_not_none
from errdex.link.callers import MAX_PER_LEVEL
from errdex.link.expression_texts import parse_expression


@dataclass(frozen=True)
class GuardedEntry:
    """The setting that keeps every caller from calling the site's function."""

    condition: ConditionView  # the first caller's guard the setting decides
    action: KnobAction
    reason: str
    caller: Caller | None = None  # the first caller, whose guard `condition` is


def guarded_entries(facts: Facts) -> list[GuardedEntry]:
    """The settings behind a guard of every direct caller's call, each with how to turn it
    off and why that avoids the check (empty when some caller reaches it unguarded)."""
    direct = facts.caller_guards
    # the linker keeps MAX_PER_LEVEL callers of a function: at that many, more may exist
    if not direct or len(direct) >= MAX_PER_LEVEL:
        return []
    return _entries(facts, direct, _callers_words(facts, direct), dropped=False)


def gated_path_entries(facts: Facts) -> list[GuardedEntry]:
    """The settings the linker found tested true on every path into the site's function,
    up to three callers away (`link.path_gates`), where the direct callers' guards give
    none: the check runs only with the setting on. A way out that drops the feature, so
    ranked after those that keep it (`solutions`)."""
    if not facts.gate_guards or guarded_entries(facts):
        return []
    return _entries(facts, facts.gate_guards, _gate_words(facts), dropped=True)


def _entries(
    facts: Facts, calls: list[tuple[Caller, list[ConditionView]]], callers: str, *, dropped: bool
) -> list[GuardedEntry]:
    """The settings a guard of each of `calls` tests, shared by all of them; with
    `dropped`, also a setting left out with no value to write (`Do not pass --goodput`,
    `Leave VLLM_TRACE_FUNCTION unset`) when the guard tests it for truth: a gate is read
    only as such a test (`link.path_gates`), and left out, the setting is false."""
    per_caller: list[dict[str, list[tuple[ConditionView, KnobAction]]]] = []
    for caller, guard in calls:
        if not caller.guard_known:
            return []
        found: dict[str, list[tuple[ConditionView, KnobAction]]] = {}
        for condition in guard:
            action = knob_action(condition, facts.knobs)
            # Not calling the function is a way out only when the setting's value is exact
            # (`VLLM_USE_V2_MODEL_RUNNER=1`): "another backend" often reaches the same check.
            # Nor is turning a mode on that one conjunct of a guard keeps off (`... and not
            # envs.VLLM_BATCH_INVARIANT`): that trades the feature for a mode of its own.
            # Nor another value of an `elif` chain (`method != "ngram"` before the n-gram
            # speculator): "pass dflash" picks other code with requirements of its own.
            if action is None or _negated_part(action.part):
                continue
            tested = action.part or condition.text
            if not _exact(action) and not (
                dropped and action.drops and _truth_test(tested) and _plain(action, tested, facts)
            ):
                continue
            if _other_value(action.part or condition.text):
                continue
            if _checking_switch(action.knob, facts):
                continue  # turning it off hides what it checks, and does not avoid it
            found.setdefault(action.knob, []).append((condition, action))
        if not found:
            return []
        per_caller.append(found)
    shared = [k for k in per_caller[0] if all(k in other for other in per_caller[1:])]
    out: list[GuardedEntry] = []
    for condition, action in (entry for name in shared for entry in per_caller[0][name]):
        tested = action.part or condition.text
        when = code(action.part) if action.part else condition.plain or code(condition.text)
        if _truth_test(tested):
            # the guard is the setting being on: turning it off turns its feature off
            then = (
                f", so the check runs only when {_setting_words(action.knob, tested, facts)} "
                "is on: turning it off avoids it, and the feature with it"
            )
        else:
            then = ", so this avoids the check"
        reason = f"{callers} only when {when}{then}"
        out.append(GuardedEntry(condition, action, reason, calls[0][0]))
    return out


# Words of a setting whose feature is the check itself (`VLLM_RAISE_ON_LOGIT_NANS`, "Raise an
# exception when generated logits contain NaNs"): off, the program goes on with what it
# would have refused.
_CHECKING_WORDS = frozenset(
    {"raise", "raises", "strict", "check", "checks", "validate", "validation", "assert"}
)
_RAISES_DOC = re.compile(r"\b(?:raise|raises|throw|fail)\b[^.]*\b(?:exception|error)", re.I)


def _checking_switch(name: str, facts: Facts) -> bool:
    """Whether the setting turns a check on (its name or its doc says it raises or checks)."""
    words = set(re.split(r"[_\-\s]+", name.lower()))
    if words & _CHECKING_WORDS:
        return True
    doc = next((k.doc for k in facts.knobs if k.name == name and k.doc), None)
    return doc is not None and _RAISES_DOC.search(doc) is not None


def _plain(action: KnobAction, tested: str, facts: Facts) -> bool:
    """Whether the tested name is the setting's own value, of a plain type (`--goodput`, a
    list; `VLLM_TRACE_FUNCTION`, a number): left out, the name is false. Not a flag taking a
    configuration object (`KernelConfig`) that the linker put behind a local holding one of
    its fields: leaving the flag out keeps the field's default, which may be true."""
    for knob in facts.knobs:
        if knob.name != action.knob or knob.behind != tested or not knob.same_value:
            continue
        kind = re.split(r"[\[| ]", knob.value_type or "")[0]
        return kind == "" or kind.islower()
    return False


def _setting_words(knob: str, tested: str, facts: Facts) -> str:
    """The setting as the test reads it: `--enforce-eager`, or the field of a JSON-valued
    flag (`enable_x` of `--kernel-config`) when the test reads one field of its object."""
    for known in facts.knobs:
        behind = known.behind or ""
        if known.name == knob and behind != tested and tested.startswith(f"{behind}."):
            field = tested[len(behind) + 1 :]
            return f"{code(field)} of {code(knob)}"
    return code(knob)


def _callers_words(facts: Facts, calls: list[tuple[Caller, list[ConditionView]]]) -> str:
    """`A.f` calls `g` / `A.f` and `B.h` call `g`."""
    callee = code(facts.stored.site.function)
    names = list(dict.fromkeys(code(caller.function) for caller, _ in calls))
    if len(names) == 1:
        return f"{names[0]} calls {callee}"
    return f"{listed(names)} call {callee}"


def _gate_words(facts: Facts) -> str:
    """`A.f` calls `g` (a direct caller) / every way into `g` passes `A.f`, which calls
    `h` / ... passes `A.f` or `B.k`, which call `h` and `m`."""
    calls = facts.gate_guards
    if all(caller.depth == 1 for caller, _ in calls):
        return _callers_words(facts, calls)
    callee = code(facts.stored.site.function)
    names = list(dict.fromkeys(code(caller.function) for caller, _ in calls))
    called = list(
        dict.fromkeys(code((caller.calls or "").rpartition(".")[2]) for caller, _ in calls)
    )
    if len(names) == 1:
        return f"every way into {callee} passes {names[0]}, which calls {listed(called)}"
    return f"every way into {callee} passes {listed(names, 'or')}, which call {listed(called)}"


def _truth_test(text: str) -> bool:
    """Whether a test is a name or attribute tested for truth (`use_torch_symm_mem`)."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    return isinstance(node, ast.Name | ast.Attribute)


def _negated_part(part: str | None) -> bool:
    """Whether a conjunct is a name or attribute tested false (`not envs.X`)."""
    if part is None:
        return False
    try:
        node = ast.parse(part, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)


def _other_value(text: str) -> bool:
    """Whether a test holds for every value but some literals (`x != "a"`, `x not in (...)`):
    the branches of a chain on one value, where avoiding it means choosing another."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return False
    right = node.comparators[0]
    if isinstance(node.ops[0], ast.NotEq):
        return isinstance(right, ast.Constant) and right.value is not None
    if isinstance(node.ops[0], ast.NotIn) and isinstance(right, ast.Tuple | ast.List | ast.Set):
        return all(isinstance(e, ast.Constant) for e in right.elts)
    return False


def _exact(action: KnobAction) -> bool:
    return bool(action.before and action.after) or action.keyword is not None


_BOUNDS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def refused_before_call(entry: GuardedEntry, facts: Facts) -> bool:
    """Whether the entry's caller, before its call, raises under a test that every value the
    way out gives passes: `if args.headless: if args.api_server_count is not None and
    args.api_server_count > 0: raise` before `elif args.api_server_count < 1:
    run_headless(args)` (vllm's `ServeSubcommand.cmd`), for the way out "at least 1".
    Read for a guard that bounds one name by a number; the raise's other tests (the
    `headless` around it) are what the user may have given with it, so the value is no
    way out the page can offer alone. (The guard still says what the path holds: the fixes
    of other ways out read it.)"""
    caller = entry.caller
    bound = _bound(entry.condition.text)
    if caller is None or bound is None or facts.file_text is None:
        return False
    name, op, limit = bound
    wanted = (name, _NEGATED[op], limit)  # the values the way out gives
    function = function_at(
        facts.file_text(caller.file), caller.function.rpartition(".")[2], caller.line
    )
    if function is None:
        return False
    for node in walk(function):
        if not isinstance(node, ast.If) or node.lineno >= caller.line:
            continue
        if not any(isinstance(n, ast.Raise) for stmt in node.body for n in walk(stmt)):
            continue
        parts = and_parts(node.test)  # an `or` whole: no bound of its own
        if any(_holds_for_all(part, wanted) for part in parts) and all(
            _holds_for_all(part, wanted) or _not_none(part, name) or name not in ast.unparse(part)
            for part in parts
        ):
            return True
    return False


def _bound(text: str) -> tuple[str, str, int | float] | None:
    """(name, op, number) of `name < 1` and the like."""
    return _bound_of(parse_expression(text))


def _bound_of(node: ast.expr | None) -> tuple[str, str, int | float] | None:
    """`_bound` of a parsed test."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    op = _BOUNDS.get(type(node.ops[0]))
    right = node.comparators[0]
    if op is None or not isinstance(right, ast.Constant):
        return None
    if not isinstance(right.value, int | float) or isinstance(right.value, bool):
        return None
    return ast.unparse(node.left), op, right.value


def _holds_for_all(part: ast.expr, wanted: tuple[str, str, int | float]) -> bool:
    """Whether the bound `part` holds for every integer `wanted` allows (`x > 0` for `x >=
    1`)."""
    found = _bound_of(part)
    if found is None or found[0] != wanted[0]:
        return False
    _, op, limit = found
    _, given, start = wanted
    if given in (">=", ">") and op in (">", ">="):
        low = start if given == ">=" else start + 1  # the least integer given
        return low > limit if op == ">" else low >= limit
    if given in ("<=", "<") and op in ("<", "<="):
        high = start if given == "<=" else start - 1
        return high < limit if op == "<" else high <= limit
    return False


def _not_none(part: ast.expr, name: str) -> bool:
    """`name is not None`: true of every number the way out gives."""
    tested = is_not_none(part)
    return tested is not None and ast.unparse(tested) == name
