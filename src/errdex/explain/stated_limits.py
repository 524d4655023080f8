"""Messages that state what the code refuses or requires, read as the way out they imply.

Beside the preconditions `advice_phrasings` reads, a message often states a limit with the
values that pass it: "NIXL >= {min_version} is required, but {dist}=={installed} is
installed" (upgrade it), "Valid strategies for session synchronization are 'auto',
'evaluate', 'fetch', False" (give one of them), "'default' is not supported for nargs=-1"
(do not give the one together with the other), "Discriminator must be used with a Union
type, not {source_type}" (use it with one), "Argument {key!r} must be {expected} but got
{seen}" (give it such a value). Each is the authors' word on the way out,
turned into an instruction; a sentence that says a thing is unsupported without naming an
argument's value ("Pooling models do not support full cudagraphs") gives none, since the
way out would be to give up the feature.
"""

from __future__ import annotations

import re

# A participle of giving or using a value, and the verb a way out says it with ("cannot be
# specified together" -> "specify only one").
INFINITIVE = {
    "accessed": "access",
    "read": "read",
    "used": "use",
    "set": "set",
    "defined": "define",
    "given": "give",
    "passed": "pass",
    "specified": "specify",
    "provided": "provide",
    "enabled": "enable",
    "applied": "apply",
    "added": "add",
    "combined": "combine",
    "placed": "place",
    "declared": "declare",
    "called": "call",
}

# "Valid strategies for session synchronization are 'auto', 'evaluate', 'fetch', False",
# "Supported methods are eagle, eagle3, and dflash", "Supported types: {', '.join(s)}",
# "Possible values: {...}" (not "Possible cause: ...", a guess): what the value may be, listed.
_VALID_ARE = re.compile(
    r"^(?:the\s+)?(?:valid|supported|allowed|accepted"
    r"|possible(?=\s+(?:values|choices|options|keys|names)\b))"
    r"\s+(?P<what>[\w`'\" {}.!\-]{2,80}?)"
    r"(?:\s+are\s*:?|\s*:)\s+(?P<values>\S.*?)\s*\.?$",
    re.I,
)
# "'default' is not supported for nargs=-1", "mistral_format=True is not supported with
# tokenizer_mode='hf'": an argument (quoted, or with its value) the code refuses together
# with another's value (not "LoRA is not supported with ...": a feature, given up then).
_NOT_WITH_VALUE = re.compile(
    r"^(?P<what>[`'\"][\w.\-]+[`'\"]|[\w.]+(?:\([^()]*\))?\s*=\s*[^\s,;]+|[\w.]+\([^()]*=[^()]*\))"
    r"\s+(?:is|are)\s+not\s+supported\s+(?:for|with)\s+"
    r"(?P<value>[A-Za-z_][\w.]*\s*=\s*[^\s,;]+?)\s*\.?$",
    re.I,
)

# "Discriminator must be used with a Union type, not {source_type}": what the thing is for,
# said against what it was given (not "must be used with extreme caution").
_USED_WITH = re.compile(
    r"^(?P<what>\S.{0,60}?)\s+must\s+be\s+used\s+with\s+(?P<with>(?:an?|the)\s+\S.{0,60}?),"
    r"\s+not\s+\S",
    re.I,
)

# The values listed as the object's own state ("{self.allowed_attn_types}"): what the program
# set up, not a choice the user makes.
_OWN_STATE = re.compile(r"^\{self\.[^{}]*\}\.?$")

# "Argument {key!r} must be {expected} but got {seen}", "Field {k!r} of model {m!r} needs to
# be a `Literal`": one argument, parameter or field, named (quoted, or the value put in),
# and what it must be.
_NAMED_MUST_BE = re.compile(
    r"^(?P<what>(?:argument|parameter|keyword\s+argument|option|field)\s+"
    r"(?:[`'\"][^`'\"\s]+[`'\"]|\{[^{}\s]+\})(?:\s+of\s+(?:model|class|type)\s+\S+)?)\s+(?:must|needs\s+to|has\s+to)\s+be\s+"
    r"(?P<be>\S.*?)(?:,?\s+(?:but\s+)?got\b.*)?\s*\.?$",
    re.I,
)


# A sentence that states its own requirement ("Dispatch must be a function definition",
# "Traced lambdas require positional args", "Cases support assignments and return"): a
# list of valid values after it, the same in every message a helper builds, is not the
# way out of it.
_OWN_REQUIREMENT = re.compile(
    r"\b(?:must|requires?|needs?|cannot|can't|only|(?<!not )supports?)\b", re.I
)


def states_requirement(sentence: str) -> bool:
    """Whether the sentence states a requirement of its own (`_OWN_REQUIREMENT`)."""
    return _OWN_REQUIREMENT.search(sentence) is not None


def lists_valid(sentence: str) -> bool:
    """Whether the sentence lists the valid values ("Supported methods are a, b")."""
    return _VALID_ARE.match(sentence.strip()) is not None


def labelled_list(sentence: str) -> bool:
    """Whether the sentence lists the valid values after a label and a colon ("Supported
    types: a, b"), not in a sentence of its own ("Supported types are a, b")."""
    match = _VALID_ARE.match(sentence.strip())
    return match is not None and not re.match(r"\s+are\b", sentence.strip()[match.end("what") :])


def stated_limit(sentence: str) -> tuple[str, str] | None:
    """(the instruction, its kind) a stated limit implies, or None."""
    text = sentence.strip()
    match = _VALID_ARE.match(text)
    if match is not None and not _OWN_STATE.match(match["values"]):
        what = match["what"].strip()
        return f"Use one of the {what.lower() if plain(what) else what} it lists", "input"
    match = _USED_WITH.match(text)
    if match is not None:
        return f"Use {match['what']} with {match['with']}", "input"
    match = _NAMED_MUST_BE.match(text)
    if match is not None:
        what = match["what"][0].lower() + match["what"][1:]
        if re.match(r"an?\s+`", match["be"]):  # a type the code names: declare it so
            return f"Make {what} {match['be']}", "input"
        return f"Give {what} a value that is {match['be']}", "input"
    match = _NOT_WITH_VALUE.match(text)
    if match is not None:
        return f"Do not give {match['what']} together with {match['value']}", "input"
    return None


def plain(words: str) -> bool:
    """Whether the words are plain prose (a capital only as a sentence's first letter)."""
    first = words.split()[0]
    return first[:1].isupper() and first[1:].islower()
