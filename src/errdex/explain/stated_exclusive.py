"""Messages that say two things may not be given together, read as "give only one of them".

"keep_existing and extend_existing are mutually exclusive", "cannot specify both default
and default_factory", "the 'flat' and 'selectable' arguments cannot be passed
simultaneously to with_polymorphic()", "Can't use the ORM yield_per feature in conjunction
with unique()", "Mixing raw image and embedding inputs is not allowed": the user gave both,
and either one alone passes. The way out keeps one and drops the other; which one is the
user's to choose, so the page names both, in the message's own words. A thing said to be
unsupported on its own ("LoRA is not supported with ...") gives up a feature and is left
to `stated_limits`, which says nothing then.
"""

from __future__ import annotations

import re

from errdex.explain.stated_limits import INFINITIVE, plain

# One of the two things: a name, quoted or not, a call, a value (`passive_deletes='all'`),
# or a few words ("the ORM yield_per feature", "bounds gt"); no clause of its own.
_WORD = r"[`'\"\w{}.()\[\]=\-*]+"
_THING = rf"(?:(?!(?:and|or|but|are|is|be|both|with|together)\b){_WORD}\s+){{0,4}}?{_WORD}"
# "On {self}, ", "For relationship X, ": where the message says it happened; "to avoid
# confusion": why; "Error: " before it.
_WHERE = r"(?:(?:on|for|in|when)\s+[^,]{1,60},\s+|to\s+avoid\s+\w+,?\s+|error:\s+)?"
_VERBS = r"specify|set|pass|use|give|provide|enable|combine|mix|define"
# The participles "X and Y cannot be ... together" is read with (`INFINITIVE` gives the verb).
_PARTICIPLES = (
    "specified",
    "set",
    "passed",
    "used",
    "given",
    "provided",
    "enabled",
    "combined",
    "defined",
)
_CANNOT = r"(?:cannot|can't|can\s+not|must\s+not|may\s+not)"
# "the cascade_scalar_deletes and create_on_none_assignment parameters": what the two are.
_KIND = r"(?:(?:keyword\s+)?(?:arguments|parameters|options|flags|fields|settings)\s+)?"
_TOGETHER = r"(?:together|simultaneously|at\s+the\s+same\s+time)"

# "keep_existing and extend_existing are mutually exclusive", "The cascade_scalar_deletes
# and create_on_none_assignment parameters are mutually exclusive."
_EXCLUSIVE = re.compile(
    rf"^{_WHERE}(?:the\s+)?(?P<a>{_THING})\s+and\s+(?P<b>{_THING})\s+{_KIND}"
    r"are\s+mutually\s+exclusive\s*[.!]?$",
    re.I,
)
# "cannot specify both default and default_factory", "An column cannot specify both
# Identity and Sequence.", "Cannot set both `pooling_type` and `seq_pooling_type`"
_NOT_BOTH = re.compile(
    rf"^{_WHERE}(?:\S.{{0,60}}?\s+)?{_CANNOT}\s+"
    rf"(?P<verb>{_VERBS})\s+both\s+(?P<a>{_THING})\s+and\s+(?P<b>{_THING})\s*[.!]?$",
    re.I,
)
# "bounds gt and ge cannot be specified at the same time", "the 'flat' and 'selectable'
# arguments cannot be passed simultaneously to with_polymorphic()", "Config and
# model_config cannot be used together"
_NOT_TOGETHER = re.compile(
    rf"^{_WHERE}(?:the\s+)?(?P<a>{_THING})\s+and\s+(?P<b>{_THING})\s+{_KIND}"
    rf"{_CANNOT}\s+(?:both\s+)?be\s+"
    rf"(?P<verb>{'|'.join(_PARTICIPLES)})\s+{_TOGETHER}"
    r"(?P<rest>\s+(?:to|in|on|for|with)\s+\S.{0,60}?)?\s*[.!]?$",
    re.I,
)
# "Can't use the ORM yield_per feature in conjunction with unique()", "can't set
# passive_deletes='all' in conjunction with 'delete' cascade", "Can't pass kwargs and
# positional arguments simultaneously"
_NOT_WITH = re.compile(
    rf"^{_WHERE}(?:cannot|can't|can\s+not)\s+(?P<verb>{_VERBS})\s+(?P<a>{_THING})\s+"
    rf"(?:(?:in\s+conjunction|together)\s+with\s+(?P<b>.{{1,60}}?)|and\s+(?P<c>{_THING})\s+"
    rf"{_TOGETHER})\s*[.!]?$",
    re.I,
)
# "--x cannot be combined with --y or --z"
_COMBINED = re.compile(
    rf"^{_WHERE}(?P<a>{_THING})\s+{_CANNOT}\s+be\s+"
    r"combined\s+with\s+(?P<b>\S.{0,80}?)\s*[.!]?$",
    re.I,
)
# "Mixing raw image and embedding inputs is not allowed", "Pydantic does not support mixing
# more than one of TypeVar bounds, constraints and defaults"
_MIXING = re.compile(
    r"^(?:(?:mixing|combining)\s+(?P<a>\S.{0,80}?)\s+(?:is|are)\s+not\s+(?:allowed|permitted|"
    r"supported)|\S.{0,40}?\s+(?:does|do)\s+not\s+(?:yet\s+)?support\s+(?:mixing|combining)\s+"
    r"(?P<b>\S.{0,80}?))\s*[.!]?$",
    re.I,
)


# "Cannot mix named and unnamed arguments", "--device-ids must not mix integer IDs and UUIDs"
_NOT_MIX = re.compile(
    rf"^{_WHERE}(?:\S.{{0,40}}?\s+)?{_CANNOT}\s+mix\s+"
    r"(?P<mixed>\S.{0,60}?\s+and\s+\S.{0,80}?)\s*[.!]?$",
    re.I,
)


# "Setting {k} on relationship() while also setting viewonly=True does not make sense, as
# ...": a thing given beside another that makes it pointless (a warning, at times)
_GERUNDS = {
    "setting": "set",
    "passing": "pass",
    "using": "use",
    "specifying": "specify",
    "enabling": "enable",
    "giving": "give",
}
_ALSO = rf"(?:{'|'.join(_GERUNDS)})"
_WHILE_ALSO = re.compile(
    rf"^(?P<verb>{_ALSO})\s+(?P<a>{_THING})\s+(?:while|when)\s+also\s+{_ALSO}\s+"
    rf"(?P<b>{_THING})\s+(?:does\s+not\s+make\s+sense|makes\s+no\s+sense|has\s+no\s+effect|"
    r"is\s+(?:not\s+(?:allowed|supported|permitted)|redundant|ignored|meaningless))"
    r"(?:\s*,\s+(?:as|since|because)\b.*)?$",
    re.I,
)

# Every phrasing above holds one of these words: a sentence without any is read no further.
_KEYWORDS = re.compile(
    r"exclusive|\bboth\b|together|simultaneous|same\s+time|conjunction|combin|\bmix|"
    r"\bwhile\s+also\b|\bwhen\s+also\b",
    re.I,
)


def _lower(words: str) -> str:
    """Plain words in mid-sentence ("Rotary" -> "rotary"); a name as it is written."""
    return words[0].lower() + words[1:] if plain(words) else words


def exclusive_instruction(sentence: str) -> tuple[str, str] | None:
    """(the instruction, its kind) of a sentence that refuses two things given together,
    or None."""
    if _KEYWORDS.search(sentence) is None:
        return None
    text = sentence.strip().rstrip(".!;,:").rstrip()
    match = _EXCLUSIVE.match(text)
    if match is not None:
        return f"Give only one of {_lower(match['a'])} and {match['b']}", "input"
    match = _NOT_BOTH.match(text)
    if match is not None:
        verb = match["verb"].lower()
        return f"{verb.capitalize()} only one of {match['a']} and {match['b']}", "input"
    match = _NOT_TOGETHER.match(text)
    if match is not None:
        verb = INFINITIVE[match["verb"].lower()]
        rest = match["rest"] or ""
        return f"{verb.capitalize()} only one of {match['a']} and {match['b']}{rest}", "input"
    match = _NOT_WITH.match(text)
    if match is not None:
        verb, other = match["verb"].lower(), match["b"] or match["c"]
        return f"Do not {verb} {match['a']} together with {other}", "input"
    match = _COMBINED.match(text)
    if match is not None:
        return f"Do not combine {_lower(match['a'])} with {match['b']}", "input"
    match = _NOT_MIX.match(text)
    if match is not None:
        return f"Do not mix {match['mixed']}", "input"
    match = _WHILE_ALSO.match(text)
    if match is not None:
        verb = _GERUNDS[match["verb"].lower()]
        return f"Do not {verb} {match['a']} together with {match['b']}", "input"
    match = _MIXING.match(text)
    if match is not None:
        mixed = match["a"] or match["b"]
        if re.match(r"more\s+than\s+one\s+of\s+", mixed, re.I):
            return f"Use only one of {mixed.split(' of ', 1)[1]}", "input"
        return f"Do not mix {mixed}", "input"
    return None
