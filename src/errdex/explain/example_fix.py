"""The example fix: before and after, in the form the user runs the program.

For the first setting a solution turns, in order of preference: the package's own command
line with the real flag and value (`vllm serve MODEL_TAG --enforce-eager`, from the console
script and subcommand the index found behind the flag), the environment variable set for
that command (`VLLM_USE_V2_MODEL_RUNNER=1 vllm serve MODEL_TAG`), the Python call that takes
the flag's field as a keyword (`LLM(model=MODEL, enforce_eager=True)`), or the shell line
alone (`export VLLM_X=1`). Upper-case placeholders stand only for the user's own values.
Nothing is given when no runnable form is known: never a `<command>` placeholder.
"""

from __future__ import annotations

import ast
import json
import shlex

from errdex.explain.context import Facts
from errdex.explain.knob_actions import KnobAction, knob_action
from errdex.explain.page import ConditionView, ExampleFix, Knob
from errdex.explain.plain import code
from errdex.explain.solutions import expanded, ways_out
from errdex.facts import ConditionKind, KnobKind


def example_fix(facts: Facts) -> ExampleFix | None:
    """Before and after for the first setting a solution turns that has a runnable form."""
    # the check's own conditions before the earlier exits, as the solutions rank them
    open_conditions = sorted(ways_out(facts), key=lambda c: c.kind == ConditionKind.EARLY_EXIT)
    candidates = [*open_conditions, *(expanded(c, facts) for c in open_conditions)]
    for _, guard in facts.caller_guards:
        candidates.extend(guard)
    for variant in facts.variants:
        candidates.extend(variant.conditions)
    for condition in candidates:
        action = knob_action(condition, facts.knobs)
        if action is None:
            continue
        fix = _fix_for(action, condition, facts.knobs)
        if fix is not None:
            return fix
    return None


def _fix_for(action: KnobAction, condition: ConditionView, knobs: list[Knob]) -> ExampleFix | None:
    knob = next((k for k in knobs if k.name == action.knob), None)
    note = action.note or f"{code(action.knob)} decides {code(condition.text)}."
    if knob is None:
        return None
    if knob.kind == KnobKind.ENV and action.before and action.after:
        if knob.command:
            return _envcommand_fix(knob.command, action.before, action.after, note)
        return ExampleFix(before=action.before, after=action.after, note=note)
    if knob.kind != KnobKind.FLAG or action.keyword is None:
        return None
    if knob.command:
        fix = command_fix(knob, action.keyword, note)
        if fix is not None:
            return fix
    if knob.call and knob.behind:
        keyword = (knob.when_behind or knob.behind).rsplit(".", 1)[-1]
        return call_fix(knob.call, keyword, action.keyword, note)
    return None


def _placeholders(command: str) -> str:
    words = [w for w in command.split()[1:] if w.isupper()]
    if not words:
        return ""
    named = ", ".join(f"`{w}`" for w in words)
    return (
        f" {named} stands for your own value."
        if len(words) == 1
        else f" {named} stand for your own values."
    )


def _envcommand_fix(command: str, before: str, after: str, note: str) -> ExampleFix | None:
    """`export X=1` → `X=1 vllm serve MODEL_TAG`; `unset X` → the command alone."""

    def line(shell: str) -> str:
        if shell.startswith("export "):
            return f"{shell[len('export ') :]} {command}"
        if shell.startswith("unset "):
            return f"env -u {shell[len('unset ') :]} {command}"
        return f"{shell}\n{command}"

    return ExampleFix(before=line(before), after=line(after), note=note + _placeholders(command))


def command_fix(knob: Knob, keyword: str, note: str) -> ExampleFix | None:
    """The command line with the flag as the action wants it, and as it was before."""
    command = knob.command or ""
    flag = knob.name
    try:
        value = ast.literal_eval(keyword)
    except (ValueError, SyntaxError, RecursionError):
        return None
    before_args: str | None
    after_args: str | None
    if value is True:
        before_args, after_args = "", flag
    elif value is False:
        if "None" in (knob.value_type or ""):
            return None  # leaving it out lets the code choose: no line turns it off for sure
        before_args, after_args = flag, ""
    elif value is None:
        before_args, after_args = f"{flag} VALUE", ""
    elif isinstance(value, dict):
        before_args = f"{flag} {shlex.quote(json.dumps(dict.fromkeys(value, 'VALUE')))}"
        after_args = f"{flag} {shlex.quote(json.dumps(value))}"
    elif isinstance(value, str | int | float):
        before_args, after_args = f"{flag} VALUE", f"{flag} {shlex.quote(str(value))}"
    else:
        return None
    before = f"{command} {before_args}".strip()
    after = f"{command} {after_args}".strip()
    if before == after:
        return None
    return ExampleFix(before=before, after=after, note=note + _placeholders(command))


def call_fix(call: str, keyword: str, value: str, note: str) -> ExampleFix:
    """`LLM(model=MODEL)` → `LLM(model=MODEL, enforce_eager=True)`: the constructor that
    takes the flag's field as a keyword, with its first argument left as the user's own."""
    target, _, first = call.partition("(")
    first = first.rstrip(")")
    module, _, name = target.rpartition(".")
    head = f"from {module} import {name}\n" if module else ""
    mine = f"{first}={first.upper()}" if first and first != keyword else ""
    # a switch turned off was on before; any other value replaces what the user had
    was = {"True": "False", "False": "True", "None": "VALUE"}.get(value, "VALUE")
    before_args = ", ".join(a for a in (mine, f"{keyword}={was}") if a)
    after_args = ", ".join(a for a in (mine, f"{keyword}={value}") if a)
    return ExampleFix(
        before=f"{head}{name}({before_args})",
        after=f"{head}{name}({after_args})",
        note=f"{note} {first.upper()} stands for your own `{first}`." if mine else note,
    )
