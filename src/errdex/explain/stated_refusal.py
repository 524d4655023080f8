"""Messages that say a value may not be given, read as "do not give it".

"A column with an Identity object cannot specify autoincrement=False", "native_inet_types
cannot be set to True when using this dialect", "Cannot set `continue_final_message` to True
when the last message is not from the assistant", "`Field` default cannot be set in
`Annotated`": the user gave the value (a keyword, an argument, a default) where the thing
named refuses it, and leaving it out there is the way out. The instruction keeps the
message's own words: what is not to be given, to what, and the case it names.

Read only where the refused thing is a value given (specify, set, pass, give, provide: not
"use" or "enable", which give up a feature, `stated_limits`' part), the sentence holds one
clause, and its subject is no part of the program's own (a private name, a bare class name,
"this", "it", a placeholder alone). A subject-less "Cannot pass X" is read only with the
case it refuses it in ("when ...", "if ..."): alone it may report a failure ("Cannot provide
a placement group within 1800 seconds"), not a refusal. A value the message names as why a
thing is refused ("'{self}' is not available due to lazy='raise_on_sql'", "Unable to get
tokenizer because `skip_tokenizer_init=True`") is to be left out or changed.
"""

from __future__ import annotations

import re

from errdex.explain.stated_limits import INFINITIVE

__all__ = ["refused_value"]

_CANNOT = r"(?:cannot|can't|can\s+not|may\s+not|must\s+not)"
_VERBS = r"specify|set|pass|give|provide"
_PARTICIPLES = r"specified|set|passed|given|provided"
# the case it is refused in, or why: kept as the message says it
_CASE = r"(?:since|because|as|when|if|while|unless)"
# the subject: a phrase of its own, not a clause that says something else first, nor the
# program's own ("this", "it", a private name, a placeholder alone)
_SUBJECT = (
    r"(?!(?:this|it|that|which|there|they|we|i|one|you)\b)(?![^{};,]*\b(?:is|are|was|were|but)\b)"
    r"[^{}_\s;,][^;,]{0,60}?"
)
# what is refused: not "both a and b" (`stated_exclusive`), not "through"/"into" (a part
# passing a value on), no clause of its own
_WHAT = r"(?!(?:both|through|into|on|in|out)\b)[^;]{1,80}?"

# "A generated column cannot specify a server_default or a server_onupdate argument",
# "Relationship {rel_b} cannot specify sync_backref=True since {rel_a} includes viewonly=True"
_ACTIVE = re.compile(
    rf"^(?P<subject>{_SUBJECT})\s+{_CANNOT}\s+(?P<verb>{_VERBS})\s+(?P<what>{_WHAT})"
    rf"(?P<rest>,?\s+{_CASE}\s+\S.{{0,120}}?)?\s*[.!]?$",
    re.I,
)
# "Cannot set `x` to True when the last message is not from the assistant", "You cannot pass
# text prompts when `skip_tokenizer_init=True`": no subject, so the case must be said
_BARE = re.compile(
    rf"^(?:you\s+)?{_CANNOT}\s+(?P<verb>{_VERBS})\s+(?P<what>{_WHAT})"
    rf"(?P<rest>,?\s+(?:when|if|while|unless)\s+\S.{{0,120}}?)\s*[.!]?$",
    re.I,
)
# "native_inet_types cannot be set to True when using this dialect", "`Field` default cannot
# be set in `Annotated` for {field_name!r}"
_PASSIVE = re.compile(
    rf"^(?P<what>{_SUBJECT})\s+{_CANNOT}\s+be\s+(?P<verb>{_PARTICIPLES})"
    rf"(?P<rest>\s+(?:to|in|on|for|with|as|{_CASE})\s+\S.{{0,120}}?)?\s*[.!]?$",
    re.I,
)
# "'{self}' is not available due to lazy='raise_on_sql'", "Unable to get tokenizer because
# `skip_tokenizer_init=True`": a keyword's value the message names as what refuses it
_VALUE = r"`?(?P<key>[A-Za-z_][\w.-]*)\s*=\s*(?P<value>[^\s`]+?)`?"
_DUE_TO = re.compile(
    r"^(?:\S.{0,80}?\s+(?:is|are)\s+not\s+(?:available|allowed|possible)\s+"
    r"(?:due\s+to|because\s+of)|(?:unable\s+to|cannot|can't)\s+\S.{0,60}?\s+because)\s+"
    rf"{_VALUE}\s*[.!]?$",
    re.I,
)
# a private name in the subject, a bare class name alone ("NixlWrapper"): the program's own
_OWN = re.compile(r"(?:^|\s)_\w|^[A-Z]\w*[A-Z]\w*$")
# a plain word first ("A", "Relationship", "Method"), lowered after the instruction's verb
_PLAIN_FIRST = re.compile(r"^[A-Z][a-z]*\b(?!['`-])")


def refused_value(sentence: str) -> str | None:
    """The instruction ("Do not specify autoincrement=False for a column with an Identity
    object") a sentence refusing a value given implies, or None."""
    text = sentence.strip()
    match = _DUE_TO.match(text)
    if match is not None and not match["key"].startswith("_"):
        key, value = match["key"], match["value"]
        return f"Leave out `{key}={value}`, or give `{key}` another value"
    if re.search(_CANNOT, text, re.I) is None:
        return None
    match = _ACTIVE.match(text)
    if match is not None and not _OWN.search(match["subject"].strip("`'\"")):
        subject, rest = _lowered(match["subject"].strip()), _case(match["rest"])
        return _said(f"Do not {match['verb'].lower()} {match['what'].strip()} for {subject}{rest}")
    match = _BARE.match(text)
    if match is not None:
        rest = _case(match["rest"])
        return _said(f"Do not {match['verb'].lower()} {match['what'].strip()}{rest}")
    match = _PASSIVE.match(text)
    if match is not None and not _OWN.search(match["what"].strip("`'\"")):
        what, verb = _lowered(match["what"].strip()), INFINITIVE[match["verb"].lower()]
        return _said(f"Do not {verb} {what}{_case(match['rest'])}")
    return None


def _case(rest: str | None) -> str:
    """ ", since {rel_a} includes viewonly=True" (a reason, after a comma), " when using this
    dialect", " to True": the rest of the sentence after the instruction."""
    if not rest:
        return ""
    rest = rest.strip().lstrip(",").strip()
    reason = re.match(r"(?:since|because)\b", rest, re.I) is not None
    return (", " if reason else " ") + rest


def _lowered(words: str) -> str:
    """ "Relationship {rel_b}" → "relationship {rel_b}"; a name ("`Field`", "NCCL") as written."""
    return words[0].lower() + words[1:] if _PLAIN_FIRST.match(words) else words


def _said(instruction: str) -> str:
    """The instruction with reST's double backticks as plain code quotes."""
    return instruction.replace("``", "`")
