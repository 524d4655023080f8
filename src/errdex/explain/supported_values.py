"""The value a message says the setting it names must take, given on the command line.

A message often says which values a case supports and which value it got, naming the
setting by its field: "TritonAttentionDiffKVBackend supports only fp8/fp8_e4m3 quantized KV
cache (got kv_cache_dtype={...})", "hpc rope_norm not support kv_cache_dtype:{...}, only
support fp8_e4m3, auto, bfloat16", "Elastic EP is only supported with enable_eplb=True". The
model or the program may pick the code that checks it (no condition of the page leads to a
setting), but the linker links the field the message names to the flag that sets it
(`link.named.NamedSettings.fields`: `--kv-cache-dtype`), so the way out is that flag with a
value the message supports: `--kv-cache-dtype fp8`.

Not where the check tests a variable of that name itself (`block_size != 128` of a
vendored kernel's parameter: its caller's value, not the flag's). Only where the message
shows the setting with the value it refused (`field=...`,
`field: ...`, "for field") or writes the value it takes (`field=True`): a list of supported
things in a message that merely mentions a setting is of something else ("only supports
running with at most one API server. Capping api_server_count from ...").
"""

from __future__ import annotations

import re

from errdex.explain.advice import sentences, spoken_text
from errdex.explain.context import Facts
from errdex.explain.fix_forms import command_fix
from errdex.explain.page import Knob, Solution
from errdex.facts import KnobKind
from errdex.link.named import shown_fields
from errdex.linked_facts import NAMED_IN_MESSAGE

# a value as the message writes it: `fp8`, `fp8_e4m3`, 'auto', bfloat16 (no placeholder)
_VALUE = r"[`'\"]?[A-Za-z0-9][\w.\-]*[`'\"]?"
# values listed: "fp8/fp8_e4m3", "fp8_e4m3, auto, bfloat16", "int4 or int8"
_VALUES = rf"(?P<values>{_VALUE}(?:\s*(?:/|,\s*(?:and\s+|or\s+)?|\s+(?:or|and)\s+)\s*{_VALUE})*)"
# "supports only V", "only support V", "currently only supports V"
_SUPPORTS_ONLY = re.compile(
    rf"\b(?:supports?\s+only|only\s+supports?|only\s+accepts?)\s+{_VALUES}", re.I
)
# "only V is supported", "Only fp8 and auto are supported"
_ONLY_SUPPORTED = re.compile(rf"\bonly\s+{_VALUES}\s+(?:is|are)\s+supported\b", re.I)
# "only supports enable_eplb=True", "is only supported with enable_eplb=True": the value
# written beside the field
_ONLY_WITH = re.compile(
    r"\b(?:only\s+supports?|supports?\s+only|is\s+only\s+supported\s+(?:with|when)|"
    r"requires?)\s+`?(?P<field>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*=\s*"
    # the value quoted or not (`'triton'`), without a sentence's stop (`=1.`)
    r"[`'\"]?(?P<value>[\w\-]+(?:\.[\w\-]+)*)[`'\"]?",
    re.I,
)
# words that begin a phrase rather than name a value
_NOT_VALUES = frozenset(
    {
        "a",
        "an",
        "the",
        "one",
        "two",
        "its",
        "their",
        "this",
        "these",
        "those",
        "some",
        "when",
        "with",
        "for",
        "if",
        "on",
        "in",
        "by",
        "from",
        "to",
        "running",
        "using",
        "being",
    }
)
_TRUE = frozenset({"true", "1", "yes", "on"})
# what follows the name of what is given a value: `x=...`, `x: ...`; a field's name and
# its number: `head_dim 128`
_GIVEN_NAME = re.compile(r"\s*[=:]")
_FIELD = re.compile(r"[a-z]\w*_\w+")
_COUNT = re.compile(r"\s+\d")
# the end of the clause a list of values is in: `(got ...)`, `;`, `,`, the sentence's end
_CLAUSE_END = re.compile(r"\s*(?:[(;,]|[.!?]?\s*$)")


def supported_value_solution(facts: Facts) -> Solution | None:
    """The flag the message names by its field, with a value the message says is supported
    (`Pass `--kv-cache-dtype fp8``), or None."""
    message = spoken_text(facts.stored.site.message)
    flags = {
        k.name[2:].replace("-", "_"): k
        for k in facts.knobs
        if k.kind == KnobKind.FLAG and k.via == NAMED_IN_MESSAGE and k.behind == k.name
    }
    if not message or not flags:
        return None
    for sentence in sentences(message):
        given = _given(sentence, message, flags)
        if given is None or _own_variable(given[0], facts):
            continue
        knob, value = given
        said = f"`{knob.name} {value}`" if value else f"`{knob.name}`"
        keyword = repr(value) if value else "True"  # (`""`: the switch given)
        note = "The message's own advice, on the command line."
        fix = command_fix(knob, keyword, note) if knob.command else None
        return Solution(
            text=f"Pass {said}, a value the message says is supported: “{sentence.strip()}”",
            knob=knob.name,
            kind="setting",
            fix=fix,
        )
    return None


def _given(sentence: str, message: str, flags: dict[str, Knob]) -> tuple[Knob, str] | None:
    """The flag and the value (`""` for a switch turned on) the sentence says is supported."""
    written = _ONLY_WITH.search(sentence)
    if written is not None:
        knob = flags.get(written["field"])
        if knob is None:
            return None
        value = written["value"].strip("`'\"")
        if "bool" in (knob.value_type or "").split(" | "):
            return (knob, "") if value.lower() in _TRUE else None  # the switch given
        return knob, value
    listed = _SUPPORTS_ONLY.search(sentence) or _ONLY_SUPPORTED.search(sentence)
    if listed is None:
        return None
    raw = re.match(_VALUE, listed["values"])
    first = raw[0].strip("`'\"") if raw is not None else ""
    if first.lower() in _NOT_VALUES or not re.search(r"[a-z]", first):
        return None  # a phrase, not a value; or a name in capitals, not a setting's value
    after = sentence[listed.start("values") + (raw.end() if raw is not None else 0) :]
    named = _FIELD.fullmatch(first) is not None and _COUNT.match(after) is not None
    if first in flags or _GIVEN_NAME.match(after) or named:
        return None  # a field's name (`moe_backend='triton'`, `head_dim 128`), not a value
    shown = {name.lower() for name in shown_fields(message, of=True)}
    refused = [f for f in flags if f.lower() in shown]
    if len(refused) != 1:
        return None  # none shown with its refused value, or two: not known which
    knob = flags[refused[0]]
    if "bool" in (knob.value_type or "").split(" | "):
        return None  # a switch takes no listed value
    if listed.re is _SUPPORTS_ONLY and not _of_field(sentence[listed.end() :], refused[0]):
        return None  # values of what the words after them name ("bfloat16 activations")
    return knob, first


def _of_field(after: str, field: str) -> bool:
    """Whether the listed values are the field's: the list ends the clause (`(got ...)`,
    `;`, `,`, the sentence's end), or the noun after it shares a word with the field's name
    ("fp8 quantized KV cache" of kv_cache_dtype; not "bfloat16 activations")."""
    if _CLAUSE_END.match(after):
        return True
    noun = re.match(r"(?:\s*[\w\-]+){1,3}", after)  # the next words, up to three
    words = set(re.findall(r"[a-z0-9]+", noun[0].lower())) if noun is not None else set()
    return bool(words & set(field.lower().split("_")))


def _own_variable(knob: Knob, facts: Facts) -> bool:
    """Whether the check tests a variable of the field's name itself (a parameter or a local,
    `block_size != 128`): the message shows that variable, which a kernel's caller may give
    a value of its own (a vendored kernel's 128-token tile, not `--block-size`); only an
    attribute (`self.kv_cache_dtype`) is read as the setting the message names."""
    field = re.escape(knob.name[2:].replace("-", "_"))
    bare = re.compile(rf"(?<![\w.]){field}(?!\w)")
    return any(bare.search(c.text) for c in facts.conditions)
