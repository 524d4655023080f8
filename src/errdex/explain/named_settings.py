"""Ways out through the settings the message names, once the index has resolved them.

The linker links each flag, config field and environment variable a message writes that
the version declares (`link.named`). A sentence whose subject is one of them says what to
do with it in other words:

- "`--reasoning-effort-map` must be a JSON object mapping ..." → give the flag such a
  value;
- "`attention_config.indexer_sparse_logits` requires ..." → the field, a `bool` of the
  class the flag's JSON is validated against, is what asks for more: turn it off
  (`--attention-config '{"indexer_sparse_logits": false}'`); a plain `bool` flag that
  requires more is left out. A field of another type gets no value: none is known;
- "--monokernel {message}.", "--monokernel layer {i} requires top-4 routing": a plain
  `bool` flag the sentence opens with, then what the run lacks or refuses: the check
  belongs to the code the flag turns on, so it is left out;
- "VLLM_SNAPSHOT_TIMEOUT_S must be a positive finite number" → give the variable such a
  value.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace

import msgspec

from errdex.ast_walk import walk
from errdex.explain.advice import sentences
from errdex.explain.context import Facts, parse_module
from errdex.explain.fix_forms import setting_fix
from errdex.explain.knob_actions import KnobAction
from errdex.explain.knob_types import negative_flag
from errdex.explain.page import ConditionView, Knob, Solution
from errdex.explain.plain import code
from errdex.facts import ConditionKind, KnobKind, SiteKind
from errdex.linked_facts import NAMED_IN_MESSAGE
from errdex.store.base import Store, StoredSite

# What the subject needs that the run lacks: "requires", "needs", "is only supported with".
_REQUIRES = re.compile(
    r"^\s*(?:requires|needs|depends\s+on|is\s+only\s+supported\s+(?:with|on|when)|"
    r"only\s+works\s+(?:with|on|when))\b",
    re.I,
)
# What the value must be: "must be a JSON object mapping ...", "should be one of ...".
_MUST_BE = re.compile(r"^\s*(?:must|should|has\s+to|needs\s+to)\s+be\s+(?P<what>.+?)\s*\.?$", re.I)
# A sentence that opens with a flag and goes on with only a placeholder ("--monokernel
# {message}.") or says what the run lacks or refuses ("... layer {i} requires top-4
# routing", "... not supported with {cls}", "... is incompatible with ..."): the check is
# one that the path the flag turns on makes.
_PATH_CHECK = re.compile(
    r"^\s*\{[^{}]*\}\s*\.?\s*$|\b(?:requires?|needs?|must|(?:is\s+)?not\s+supported|"
    r"unsupported|incompatible|does\s+not\s+support|cannot|can't)\b"
    # "--monokernel layer {i} experts are not MXFP4": something of the run is not what it
    # takes (not the flag itself: "--x is not set" says the flag is missing)
    r"|^\s*[\w{][^.;]*?\s(?:is|are)\s+not\s",
    re.I,
)
# A second subject beside the flag: "--a and --b are mutually exclusive".
_MORE_SUBJECTS = re.compile(r"^\s*(?:and|or|nor|,|/|&)", re.I)
_OTHER_FLAG = re.compile(r"(?<![\w-])--[a-z]")
_LEAD = re.compile(r"^\s*(?:error|warning|note)\s*:\s*", re.I)
_BOOL = frozenset({"bool", "builtins.bool"})


def named(knob: Knob) -> bool:
    """Whether the knob is one the message names (no condition's)."""
    return knob.via == NAMED_IN_MESSAGE


def named_setting_solutions(facts: Facts, settled: bool = False) -> list[Solution]:
    """The ways out the message's sentences give through the settings it names. With
    `settled` (a setting that decides the check is offered already), a flag the message
    only opens with is not: the check's own setting says more."""
    message = facts.stored.site.message
    kinds = (KnobKind.FLAG, KnobKind.ENV)
    knobs = [k for k in facts.knobs if named(k) and k.kind in kinds and k.behind]
    if message is None or not knobs:
        return []
    out: list[Solution] = []
    for sentence in sentences(message.text):
        text = _LEAD.sub("", sentence).strip()
        for knob in knobs:
            rest = _after_subject(text, knob.behind or "")
            if rest is None:
                continue
            # a variable's value is a string the code converts: what it must be, only
            solution = None
            if knob.kind == KnobKind.FLAG:
                solution = _requires(knob, rest, sentence, facts, settled)
            solution = solution or _must_be(knob, rest, sentence)
            if solution is not None:
                out.append(solution)
                break
    return out


def _after_subject(text: str, name: str) -> str | None:
    """What the sentence says after `name`, when `name` (quoted or not) opens it."""
    for quote in ("`", "'", '"', ""):
        opened = f"{quote}{name}{quote}"
        if text.startswith(opened):
            rest = text[len(opened) :]
            return rest if not rest[:1].isalnum() and rest[:1] not in "_-." else None
    return None


def _must_be(knob: Knob, rest: str, sentence: str) -> Solution | None:
    match = _MUST_BE.match(rest)
    if match is None or knob.behind != knob.name:
        return None
    what = match.group("what")
    value = what if re.match(r"(?:an?|one|some)\s", what, re.I) else f"a value that is {what}"
    return Solution(
        text=f"Give {code(knob.name)} {value}, as the message says: “{sentence}”",
        knob=knob.name,
        kind="setting",
        advice=True,
    )


def _requires(knob: Knob, rest: str, sentence: str, facts: Facts, settled: bool) -> Solution | None:
    """The setting that asks for more, turned off, when it is a plain `bool`."""
    if (knob.value_type or "").replace(" ", "") not in _BOOL:
        return None
    behind = knob.behind or ""
    asks = _REQUIRES.match(rest) is not None
    if asks:
        said = "it is what asks for more, as the message says"
    elif not settled and _path_check(rest, facts):
        said = (
            f"the message opens with it, so the check belongs to the code {code(behind)} turns on"
        )
    else:
        return None
    negative = negative_flag(knob.name) if knob.negated or not knob.bare else None
    if behind == knob.name and knob.default == "True" and negative is not None:
        # on by default: left out, it stays on
        action = KnobAction(
            f"Pass {code(negative)}", knob.name, keyword="False", drops=True, negative=True
        )
    elif behind == knob.name:
        action = KnobAction(
            f"Do not pass {code(knob.name)}", knob.name, keyword="False", drops=True
        )
    elif "." in behind:
        field = behind.rsplit(".", 1)[1]
        setting = json.dumps({field: False})
        action = KnobAction(
            f"Turn {code(behind)} off: pass `{knob.name} '{setting}'` (with the rest of "
            f"your {code(knob.name)} fields)",
            knob.name,
            keyword=repr({field: False}),
            # the field was on: that is what the message says asks for more
            had=((field, True),),
        )
    else:
        return None
    note = (
        f"{code(behind)} is what asks for more, as the message says."
        if asks
        else f"The message opens with {code(behind)}: the check belongs to the code it turns on."
    )
    action = replace(action, note=note)
    condition = ConditionView(
        text=behind, test=behind, kind=ConditionKind.IF, holds=True, line=facts.stored.site.line
    )
    # drawn on the command line only: the Python keyword of a field is its object's
    command_knob = msgspec.structs.replace(knob, value_type="bool", call=None)
    fix = setting_fix(action, condition, [command_knob])
    return Solution(
        text=f"{action.text}; {said}: “{sentence}”",
        knob=knob.name,
        kind="setting",
        fix=fix,
        drops=action.drops,
        advice=asks,  # the message's words quoted as what asks for more
    )


def _path_check(rest: str, facts: Facts) -> bool:
    """Whether the rest of a sentence that opens with a flag says what its path lacks or
    refuses: an error raised (a warning or a log record says the run goes on)."""
    if facts.stored.site.kind in (SiteKind.WARN, SiteKind.LOG):
        return False
    if _MORE_SUBJECTS.match(rest) is not None or _OTHER_FLAG.search(rest) is not None:
        return False  # the check is on the two together: either may be the one to drop
    return _PATH_CHECK.search(rest) is not None


def typed_fields(store: Store, stored: StoredSite, knobs: list[Knob]) -> list[Knob]:
    """The knobs with each named config field's declared type, read where its class is
    (the linker points the knob there): `indexer_sparse_logits: bool = False` → `bool`."""
    out: list[Knob] = []
    trees: dict[str, ast.Module | None] = {}
    for knob in knobs:
        if not (named(knob) and knob.kind == KnobKind.FLAG and knob.file and knob.line):
            out.append(knob)
            continue
        if "." not in (knob.behind or ""):
            out.append(knob)
            continue
        if knob.file not in trees:
            trees[knob.file] = parse_module(store.file_text(stored.version_id, knob.file))
        declared = _declared(trees[knob.file], knob.line, (knob.behind or "").rsplit(".", 1)[1])
        out.append(msgspec.structs.replace(knob, value_type=declared))
    return out


def _declared(tree: ast.Module | None, line: int, field: str) -> str | None:
    """The annotation of `field` in the class defined at `line`."""
    if tree is None:
        return None
    for node in walk(tree):
        if isinstance(node, ast.ClassDef) and node.lineno == line:
            for item in node.body:
                if (
                    isinstance(item, ast.AnnAssign)
                    and isinstance(item.target, ast.Name)
                    and item.target.id == field
                ):
                    return ast.unparse(item.annotation)
            return None
    return None
