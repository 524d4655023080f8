"""What a value the user gives must be, as the message states it, read as the instruction.

A message often states the rule the value broke: its type ("drivername must be a string",
"{paramname} must be a string", "Port argument must be an integer or None"), its range
("color values must be in the range 0 to {max_val}", "alpha must be between 0 and 1"), what
a function the user hands over must produce ("`validation_alias` generator must produce one
of `{(str, AliasChoices, AliasPath)}`", "Config.alias_generator must return str"), how often
a thing may match ("Each shard may match at most one target"), and the value another one
needs beside it ("'name' is required with 'prompt=True'"). Each gives the way out in the
message's words. `advice_phrasings.form_rule` offers them, and `advised` only where the
sentence speaks to a user (a function a user calls, or one handed the user's value): the
same words state the package's own invariants too ("the cache must be a list").
"""

from __future__ import annotations

import re

from errdex.explain.plain import code, listed

# One thing named: a name of the code (quoted or not: `drivername`, 'prompt', a.b), or a
# placeholder the message fills in with it ({paramname})
_NAME = r"(?:[`'\"][A-Za-z_][\w.\[\]-]*[`'\"]|\{[A-Za-z_][\w.]*\}|--?[a-z][\w-]*|[A-Za-z_][\w.]*)"
# ... or a few plain words ("color values", "Port argument"), never the code's own "this",
# "it", "the result" (what a function computed)
_SUBJECT = (
    r"(?P<subject>(?!(?:this|it|that|which|there|you|we|i|result|output|self|cls)\b)"
    rf"(?:{_NAME}|[A-Za-z][a-z]+(?:\s+[a-z]+){{0,2}})"
    r"(?:\s+(?:argument|parameter|option|values?|field|keyword))?)"
)
# What a message adds after the rule: the value it got ("got {x!r}", "but found int")
_GOT = r"(?:\s*[,;(]\s*(?:but\s+)?(?:got|found|not|received|is\s+of\s+type)\b.*)?"

_TYPE = (
    r"(?:string|str|integer|int|float|number|bool|boolean|list|tuple|dict|dictionary|mapping|"
    r"sequence|callable|bytes)"
)
# A class named as another type the value may be, after a builtin one ("a string or an
# AttentionBackendEnum"): a name in CamelCase (two capitals at least)
_CLASS = r"(?-i:[A-Z][a-z0-9]+[A-Z]\w*)"
# "drivername must be a string", "enable_2x_fp8 must be bool or None", "Character must be a
# string of length 1": the type the value must have
_MUST_BE_TYPE = re.compile(
    rf"^{_SUBJECT}\s+(?:must|should|has\s+to|needs\s+to)\s+be\s+"
    rf"(?P<type>(?:an?\s+)?{_TYPE}(?:(?:\s*,\s*|\s+)(?:or\s+)?(?:an?\s+)?(?:{_TYPE}|None|{_CLASS})\b)*)"
    rf"(?P<rest>\s+of\s+length\s+\d+)?{_GOT}\s*\.?$",
    re.I,
)
# "List argument must consist only of tuples or dictionaries": the type of each item
_ITEMS = rf"(?:{_TYPE}s?|dictionaries)"
_MUST_CONSIST = re.compile(
    rf"^{_SUBJECT}\s+(?:must|should|has\s+to|needs\s+to)\s+consist\s+(?:only\s+)?of\s+"
    rf"{_ITEMS}(?:(?:\s*,\s*|\s+)(?:or\s+|and\s+)?{_ITEMS})*{_GOT}\s*\.?$",
    re.I,
)
# "color values must be in the range 0 to {max_val}", "alpha must be between 0 and 1"
_MUST_BE_IN_RANGE = re.compile(
    rf"^{_SUBJECT}\s+(?:must|should|has\s+to|needs\s+to)\s+be\s+"
    r"(?P<range>(?:in|within)\s+(?:the\s+)?range\s+(?:of\s+)?[^,;]{1,40}?|"
    r"between\s+[^,;]{1,60}?)"
    rf"{_GOT}\s*\.?$",
    re.I,
)
# "`validation_alias` generator must produce one of `{(str, AliasChoices, AliasPath)}`",
# "Config.alias_generator must return str, not {alias.__class__}": what a function the user
# hands over must give back
_MUST_PRODUCE = re.compile(
    rf"^(?P<subject>(?!(?:this|it|that|which|there|subclass(?:es)?)\b)"
    r"[A-Za-z`'\"{][\w.`'\"{}-]*(?:\s+[a-z][\w-]*){0,2})"
    r"\s+(?:must|should)\s+(?P<verb>produce|return|yield)\s+"
    r"(?P<what>(?:(?:one\s+of|only|an?)\s+)?(?:`[^`]+`|[A-Za-z_][\w.]*))"
    rf"{_GOT}\s*\.?$",
    re.I,
)
# "Each shard may match at most one target", "each placeholder must appear at most once"
_AT_MOST = re.compile(
    r"^(?P<det>each|every|an?|the)\s+(?P<noun>[a-z]\w*(?:\s+[a-z]\w*)?)\s+"
    r"(?:may|can|must|should)\s+(?P<verb>[a-z]+)\s+at\s+most\s+"
    r"(?P<count>(?:one|once|twice|\d+)(?:\s+[\w`'\"-]+(?:\.[\w`'\"-]+)*){0,3})\s*\.?$",
    re.I,
)
# "'name' is required with 'prompt=True'", "`tensor_sizes` is required when packed=True":
# what the user must give beside a value they gave (an assignment or a flag: not "when
# q_lora_rank is None", a state of the code)
_GIVEN_VALUE = (
    r"(?:[`'\"][\w.\-]+\s*=\s*[^`'\"\s]+[`'\"]|[\w.]+=\S+|--[a-z][\w-]*(?:[ =][^\s.,;]+)?)"
)
_REQUIRED_WITH = re.compile(
    rf"^(?P<what>{_NAME})\s+(?:is|are)\s+required\s+"
    r"(?:with\s+|when\s+(?:using\s+|passing\s+|setting\s+|giving\s+)?)"
    rf"(?P<given>{_GIVEN_VALUE})\s*\.?$",
    re.I,
)


def value_rule(sentence: str) -> str | None:
    """The instruction a sentence stating what a value must be implies ("Make `drivername`
    a string", "Keep color values in the range 0 to {max_val}"), or None."""
    text = sentence.strip()
    match = _MUST_BE_TYPE.match(text)
    if match is not None:
        return f"Make {_named(match['subject'])} {match['type']}{match['rest'] or ''}"
    match = _MUST_BE_IN_RANGE.match(text)
    if match is not None:
        return f"Keep {_named(match['subject'])} {match['range']}"
    match = _MUST_PRODUCE.match(text)
    if match is not None:
        subject = _named(match["subject"])
        subject = subject if re.fullmatch(r"`[^`]+`", subject) else f"the {subject}"
        return f"Make {subject} {match['verb'].lower()} {_listed_names(match['what'])}"
    match = _AT_MOST.match(text)
    if match is not None:
        det, count = match["det"].lower(), match["count"]
        return f"Make {det} {match['noun']} {match['verb'].lower()} at most {count}"
    match = _REQUIRED_WITH.match(text)
    if match is not None:
        what, given = _named(match["what"]), _named(match["given"])
        return f"Give {what} too when you give {given}, or leave {given} out"
    return None


def restates_check(sentence: str) -> bool:
    """Whether the sentence states a type (of the value, or of its items) or a range: what
    a way out found from the check itself says exactly (the argument, its bounds), when one
    is found."""
    text = sentence.strip()
    return any(p.match(text) is not None for p in (_MUST_BE_TYPE, _MUST_CONSIST, _MUST_BE_IN_RANGE))


def _listed_names(what: str) -> str:
    """What a thing must produce with a tuple of names the message put in as it is
    (`{(str, AliasChoices, AliasPath)}`: the type list itself, not a value to fill in)
    written as those names."""
    shown = re.search(r"`\{\((?P<names>[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*),?\)\}`", what)
    if shown is None:
        return what
    names = [code(n.strip()) for n in shown["names"].split(",")]
    before = what[: shown.start()]
    if len(names) == 1 and before.strip() == "one of":
        before = "a "  # "one of `{(str,)}`": the one type
    return before + listed(names, "or") + what[shown.end() :]


def _named(subject: str) -> str:
    """The subject as code where it is one name of the code (`drivername`, `--port`), as
    it is where the message fills it in (`{paramname}`), else plain words, lowered."""
    quoted = re.match(r"([`'\"])(.+?)\1(.*)$", subject.strip())
    if quoted is not None:
        return f"{code(quoted[2])}{quoted[3]}"
    bare = subject.strip()
    if re.fullmatch(r"\{[\w.]+\}", bare):
        return bare
    head, _, tail = bare.partition(" ")
    if re.fullmatch(r"--?[a-z][\w-]*(?:[ =]\S+)?|[\w.]+=\S+", bare):
        return code(bare)  # a flag with its value, an assignment: one thing the user writes
    if re.search(r"[_.]", head):
        return f"{code(head)} {tail}".rstrip()
    return bare[0].lower() + bare[1:] if bare[1:2].islower() or len(bare) == 1 else bare
