"""The environment variable of the mode a message says is needed, for an object the linker
did not follow to it.

"SWA bounded replay needs model runner V2", "Beam allowlists require the V2 model runner",
"cross_encoder_cache requires Model Runner V2": the check reads
`vllm_config.use_v2_model_runner` (or `config.`, `self.vllm_config.`) of an object handed
in, which the linker links to no setting, and the version reads `VLLM_USE_V2_MODEL_RUNNER`:
the project's namespace and that attribute's name. Where the message names the mode in the
attribute's own words (`v2`, `model`, `runner`, in any order) and the check needs the
attribute true, the variable set true is the way out the message means, and it keeps what
the user asked for where dropping the feature gives it up. Three pieces of evidence agree
(the words of the message, the attribute the condition tests, a variable the version
reads); with any missing, nothing is added. The variable becomes a knob of the page, so the
page's setting rules phrase it and draw its fix.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.page import ConditionView, Knob
from errdex.extract.shapes import and_parts
from errdex.facts import KnobKind
from errdex.link.expression_texts import parse_expression
from errdex.linked_facts import NAMED_IN_MESSAGE
from errdex.store.base import Store, StoredSite

# how such a knob's `via` starts: the page's rules know it by that
MODE_VIA = "the message names what "
# `x.use_v2_model_runner`: an attribute of two words or more, read off an object
_ATTRIBUTE = re.compile(r"\.([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b")
# words of an attribute's name that say it is a switch, not what it switches
_SWITCH = frozenset({"use", "enable", "enabled", "is", "has", "with", "allow"})
_WORD = re.compile(r"[a-z0-9]+")
# what the message says of the mode: it needs it
_NEEDS = re.compile(r"\b(?:requires?|needs?|only\s+supported\s+(?:with|by|on))\b", re.I)


def mode_knobs(store: Store, stored: StoredSite, knobs: list[Knob]) -> list[Knob]:
    """`knobs`, with the variable of each attribute the check needs true whose mode the
    message names (none is read from the store unless the message names one)."""
    message = stored.site.message
    if message is None or not _NEEDS.search(message.text):
        return knobs
    said = set(_WORD.findall(message.text.lower()))
    wanted = [
        (behind, attribute)
        for behind, attribute in _needed_true(stored)
        if _named(attribute, said) and not any(k.behind == behind for k in knobs)
    ]
    if not wanted:
        return knobs
    defined = store.defined_names(stored.version_id)
    space = re.sub(r"\W", "", stored.project).upper()
    command = next((k.command for k in knobs if k.command), None)
    added: list[Knob] = []
    for behind, attribute in wanted:
        name = f"{space}_{attribute.upper()}"
        if name in defined and not any(_decides(k, name) for k in (*knobs, *added)):
            added.append(
                Knob(
                    name=name,
                    kind=KnobKind.ENV,
                    behind=behind,
                    via=f"{MODE_VIA}`{attribute}` turns on, and the version reads `{name}`",
                    same_value=True,
                    value_type="bool",
                    command=command,
                )
            )
    return [*knobs, *added]


def _decides(knob: Knob, name: str) -> bool:
    """Whether the knob is the variable, behind a condition (not only named by the message)."""
    return knob.name == name and knob.via != NAMED_IN_MESSAGE


def mode_parts(
    condition: ConditionView, knobs: list[Knob], message: str | None = None
) -> list[ConditionView]:
    """The parts of an `a and not x.mode` condition such a knob is behind, or a variable
    the linker found behind a mode the `message` says is needed: the mode turned on is a
    way out beside the setting of another part, and it keeps that one as it is (the page
    takes only the first part's setting of a condition otherwise)."""
    behind = {k.behind for k in knobs if (k.via or "").startswith(MODE_VIA)}
    if message is not None and _NEEDS.search(message):
        said = set(_WORD.findall(message.lower()))
        # a variable the message writes itself is its own advice's ("requires X=1")
        behind |= {
            k.behind
            for k in knobs
            if k.kind == KnobKind.ENV
            and k.behind
            and k.name not in message
            and _named(k.behind.rpartition(".")[2], said)
        }
    node = parse_expression(condition.text) if behind else None
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)):
        return []
    return [
        ConditionView(
            text=ast.unparse(part),
            test=condition.test,
            kind=condition.kind,
            holds=condition.holds,
            line=condition.line,
        )
        for part in node.values
        if isinstance(part, ast.UnaryOp)
        and isinstance(part.op, ast.Not)
        and ast.unparse(part.operand) in behind
    ]


def _named(attribute: str, said: set[str]) -> bool:
    """Whether the message says every word of the attribute's name but its switch words
    (two at least: `v2`, `model`, `runner`)."""
    words = [w for w in attribute.split("_") if w not in _SWITCH]
    return len(words) >= 2 and all(w in said for w in words)


def _needed_true(stored: StoredSite) -> list[tuple[str, str]]:
    """(`vllm_config.use_v2_model_runner`, `use_v2_model_runner`) of each attribute of an
    object (not `self`'s own) the site's conditions need false to raise: `not x.attr`,
    alone or beside other parts of an `and`."""
    found: list[tuple[str, str]] = []
    for condition in stored.site.conditions:
        if not _ATTRIBUTE.search(condition.text):
            continue  # most conditions read no such attribute: not parsed
        node = parse_expression(condition.text)
        if node is None:
            continue
        for part in and_parts(node):
            if not (isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not)):
                continue
            target = part.operand
            if not isinstance(target, ast.Attribute) or not _object(target.value):
                continue
            if isinstance(target.value, ast.Name) and target.value.id == "self":
                continue  # the class's own attribute: the linker reads it itself
            found.append((ast.unparse(target), target.attr))
    return found


def _object(node: ast.expr) -> bool:
    """A name, an attribute of one (`self.vllm_config`) or what a call without arguments
    hands back (`get_current_vllm_config()`): an object, not a computed value."""
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Attribute):
        return _object(node.value)
    return isinstance(node, ast.Call) and not node.args and not node.keywords and _object(node.func)
