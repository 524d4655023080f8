"""What value a command-line flag must take, for a check of its value's form.

A validator of a flag's value (vllm's `numa_bind_cpus` field validator: `for cpuset in
value: if not _NUMACTL_CPUSET_PATTERN.fullmatch(cpuset): raise`) tests what the user typed;
the knob rules know the flag behind `value` but only say to leave it out. The way out that
keeps the feature is the value in the form the check accepts: a multiple, a range, a
pattern, a predicate (`explain/input_shapes.py`), of the flag's value or of each item of it.
Where the check is none of those shapes (`int(start) > int(end)` of each range), a validator
of the flag's value alone whose message says what the value must be ("numa_bind_cpus ranges
must be ascending") is said with those words, still before leaving the flag out.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.advice import sentences
from errdex.explain.context import CONTEXT_KINDS, Facts
from errdex.explain.input_nodes import free_names
from errdex.explain.input_shapes import module_patterns, more_shapes
from errdex.explain.outline import compiling
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.validators import validated_fields
from errdex.facts import ConditionKind, KnobKind

_LOOP = re.compile(r"^for (\w+) in ([\w.]+)$")
# A sentence that says what a value must be: "ranges must be ascending".
_REQUIRED = re.compile(r"\b(?:must|should|has\s+to|needs\s+to)\s+(?:not\s+)?\w", re.I)
# What follows the requirement: the value the user gave, printed ("..., but got '{x}'").
_GOT = re.compile(r",?\s*(?:but\s+)?(?:got|received)\b.*$", re.I)


def _its_value(behind: str, flag: str) -> bool:
    """Whether the name holds the flag's own value: an attribute of the flag's name
    (`self.block_size` of `--block-size`), or a validator's parameter (`value`); not a
    field of a JSON-valued flag (`self.min_prob` of `--speculative-config`)."""
    if not flag.startswith("--"):
        return False
    return "." not in behind or behind.rsplit(".", 1)[-1] == flag[2:].replace("-", "_")


def flag_value_solutions(facts: Facts) -> list[Solution]:
    """ "Pass each value you give `--numa-bind-cpus` in a form the pattern ... matches",
    for the innermost check of the site on a flag's value; none when there is no such."""
    flags = {
        k.behind: k.name
        for k in facts.knobs
        if k.kind == KnobKind.FLAG and k.same_value and k.behind and _its_value(k.behind, k.name)
    }
    if not flags:
        return []
    described = {name: code(flag) for name, flag in flags.items()}
    for condition in facts.conditions:
        found = _LOOP.match(condition.text) if condition.kind == ConditionKind.LOOP else None
        if found and found.group(2) in flags:
            described[found.group(1)] = f"each value you give {code(flags[found.group(2)])}"
    constants = {b.name: b.value for b in facts.bindings if b.origin == "constant"}
    checks = [
        c
        for c in facts.conditions
        if c.kind not in CONTEXT_KINDS and c.kind != ConditionKind.EARLY_EXIT
    ]
    for condition in reversed(checks):
        try:
            node = ast.parse(condition.text, mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
        calls = "match(" in condition.text
        patterns = module_patterns(facts.top_module(compiling)) if calls else {}
        names = free_names(node)
        known = set(described) | set(constants) | set(patterns) | {"re", "os.path"}
        if not names or not all(n in known or n[:1].isupper() for n in names):
            continue
        instead = more_shapes(node, described, constants, patterns, lambda _: None)
        if instead is None:
            continue
        flag = next((f for f in flags.values() if code(f) in instead.text), None)
        return [Solution(text=instead.text, knob=flag, condition=condition.text, kind="setting")]
    stated = _stated_form(facts, flags)
    return [stated] if stated is not None else []


def _stated_form(facts: Facts, flags: dict[str, str]) -> Solution | None:
    """ "Give `--numa-bind-cpus` a value as its check asks: “... must be ascending”", for a
    validator whose one parameter is the flag's value (every check in it is of that value),
    when the message says what the value must be; None otherwise."""
    params = [p for p in facts.read.params if p not in ("self", "cls")]
    message = facts.stored.site.message
    if len(params) != 1 or params[0] not in flags or message is None:
        return None
    flag = flags[params[0]]
    fields = validated_fields(facts)
    if not fields and flag[2:].replace("-", "_") != params[0]:
        return None  # a function handed a part of the flag's value (a JSON field): not its form
    # the words the message may name the value by: the flag's, the parameter's, the field's
    names = {flag[2:].replace("-", "_"), params[0], *fields}
    for sentence in sentences(message.text):
        said = _GOT.sub("", sentence).strip().rstrip(".")
        if "{" in said or not _REQUIRED.search(said):
            continue  # a computed part: the words are not all the code's
        if not any(re.search(rf"\b{re.escape(n)}\b", said) for n in names) and flag not in said:
            continue  # a requirement of something else
        return Solution(
            text=f"Give {code(flag)} a value in the form its check asks for: “{said}.”",
            knob=flag,
            kind="setting",
        )
    return None
