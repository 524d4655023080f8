"""A message that states what a setting's key must be, on a check of those keys alone.

`SpeculativeConfig._validate_suffix_decoding` tests `self.suffix_decoding_max_tree_depth < 1`
and says "suffix_decoding_max_tree_depth=... must be >= 1": the name is a key of the JSON
the user writes for `--speculative-config`. The setting rules turn a key tested against a
literal into the JSON to pass, but not a bound (`< 1`, `<= 0`) or a truth test, whose
type they do not know; the message says what the key must be in the authors' words. When
every name the raise's own test reads is a key of one JSON-valued flag and the message
names them (of a test that needs all its parts, `a and b < 0`, the ones it names), that
requirement is the way out, said of those keys.

A test that reads anything else the program holds (a local, another object, a call of its
own), a message that names no key it tests (`"seq_pooling_type is not set; it should be
resolved by ModelConfig"` names it, but as what the program fills in, not the user:
"resolved by" and other uses are no requirement of a value), or one that states no
requirement gets nothing here.
"""

from __future__ import annotations

import ast
import builtins
import re
from typing import NamedTuple

from errdex.explain.context import Facts
from errdex.explain.entry_input import CHECKS
from errdex.explain.input_nodes import free_names
from errdex.explain.knob_types import json_valued, nested_key
from errdex.explain.page import Knob, Solution
from errdex.explain.plain import code
from errdex.explain.stated_requirement import message_text
from errdex.facts import KnobKind, SiteKind
from errdex.link.expression_texts import parse_expression

# What a message says a value must be: "must be", "should be", "expected", "requires",
# "at least", "greater than", "only ... supported".
_NEEDS = re.compile(
    r"\b(?:must|should\s+be|expected|expects?|requires?|required|at\s+least|at\s+most|"
    r"greater\s+than|less\s+than|only\b.*\bsupported)\b",
    re.I,
)
# A sentence of what the program does with the value, not what the user gives: "it
# should be resolved by ModelConfig before calling ...".
_PROGRAM_DOES = re.compile(
    r"\b(?:should|must)\s+(?:be|have\s+been)\s+(?:resolved|set|called|computed|filled|"
    r"initialized|initialised)\s+(?:by|before|during)\b",
    re.I,
)
_BUILTINS = frozenset(dir(builtins))


class StatedSetting(NamedTuple):
    solution: Solution
    keys: list[str]  # the flag's keys it names


def stated_setting_solution(facts: Facts, quoted: list[str]) -> StatedSetting | None:
    """ "Change `k` in the JSON of `--flag` as the message says: ...", or None; None too
    when a solution (`quoted`: their texts) quotes the message already."""
    site = facts.stored.site
    message = site.message
    if site.kind != SiteKind.RAISE or message is None:
        return None
    text = message.text
    if not _NEEDS.search(text) or _PROGRAM_DOES.search(text):
        return None
    own_words = f"“{message_text(facts)}”"
    if any(own_words in said for said in quoted):
        return None  # said already, in the message's own words
    checks = [c for c in facts.held if c.kind in CHECKS]
    if not checks or not any(_json_key(k) for k in facts.knobs):
        return None
    node = parse_expression(checks[-1].text)
    if node is None:
        return None
    keys: dict[str, Knob] = {}
    for name in dict.fromkeys(free_names(node)):
        if name in _BUILTINS:
            continue
        knob = next((k for k in facts.knobs if _json_key(k) and k.behind == name), None)
        if knob is None:
            return None  # something else the program holds decides it too
        keys[name] = knob
    flags = {k.name for k in keys.values()}
    if len(flags) != 1:
        return None  # no key, or keys of several flags: which to change is not one JSON
    # a dict's key nested in the object is the key the message speaks of
    tested = list(dict.fromkeys(k.dict_key or k.json_key or "" for k in keys.values()))
    said = [key for key in tested if re.search(rf"(?<![\w.]){re.escape(key)}\b", text)]
    both = isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)
    if not said or (len(said) < len(tested) and not both):
        # the message speaks of something else than the keys tested; of a test that needs
        # all its parts (`a and b < 0`), changing the part it names is enough
        return None
    flag = flags.pop()
    named = " or ".join(code(key) for key in said)
    outer = {k.json_key for k in keys.values() if nested_key(k)}
    if len(outer) == 1 and all(nested_key(k) for k in keys.values()):
        named += f" in {code(outer.pop() or '')}"
    solution = Solution(
        text=(f"Change {named} in the JSON of {code(flag)} as the message says: {own_words}"),
        condition=checks[-1].text,
        knob=flag,
        kind="setting",
    )
    return StatedSetting(solution, said)


def other_keys_set(solution: Solution, keys: list[str]) -> bool:
    """Whether `solution` sets keys of the flag's JSON (`'{"auto": false}'`) and none of
    `keys`, those the message names: turning a yes/no key off beside the message's
    requirement of another key, which keeps that feature on (`self.auto and self.depth >
    8`). A solution holds what it sets only as its text, the JSON `json.dumps` wrote."""
    if f"{solution.knob} '{{" not in solution.text:
        return False  # the flag named without its keys: it says as much as the message
    return not any(f'"{key}":' in solution.text for key in keys)


def _json_key(knob: Knob) -> bool:
    """A key of a JSON-valued flag's object that a name of the check holds."""
    return (
        knob.kind == KnobKind.FLAG
        and knob.json_key is not None
        and knob.behind is not None
        and json_valued(knob)
    )
