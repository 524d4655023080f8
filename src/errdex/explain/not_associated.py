"""A message that says the user's object is not yet part of the whole it must belong to.

"this ForeignKey's parent column is not yet associated with a Table.", "Index '{name}' is
not associated with any table.", "this ForeignKey object does not yet have a parent Column
associated with it.": the user made an object and used it before putting it in
the object that holds it (a column in a table, an index on a table). The check reads an
attribute that only the holder sets when the object is added to it (`self.parent.table`),
so no argument or setting decides it; the way out is the earlier step the message names:
associate the object with its holder first, then make the call that raised.

Read only where the holder is a kind of code the user declares (`declared_rule`'s kinds: a
table, a column, a model): "this session is not associated with a worker" and "Request
{id} is not associated with any Scheduler" name the program's own state, whatever the
case of the holder's first letter.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts
from errdex.explain.declared_rule import code_kind, quoted
from errdex.explain.page import Solution
from errdex.explain.stated_requirement import message_text
from errdex.facts import SiteKind

__all__ = ["not_associated_solution"]

_REPORTED = frozenset({SiteKind.RAISE, SiteKind.HELPER})
_PH = r"\{[^{}]+\}"  # a placeholder
# "this ForeignKey's parent column is not yet associated with a Table."
_NOT_ASSOCIATED = re.compile(
    rf"^(?P<subject>(?:[\w'\"“”]|{_PH})+(?: (?:[\w'\"“”]|{_PH})+){{0,5}}?) (?:is|are) not "
    r"(?:yet )?(?:associated with|attached to|added to|part of) (?:an?|any) "
    r"(?P<holder>[A-Za-z]\w*)\.?$",
    re.I,
)

# "this ForeignKey object does not yet have a parent Column associated with it."
_HAS_NONE = re.compile(
    rf"^(?P<subject>(?:[\w'\"“”]|{_PH})+(?: (?:[\w'\"“”]|{_PH})+){{0,5}}?) (?:does|do) not "
    r"(?:yet )?have an? (?P<holder>[A-Za-z]\w*(?: [A-Za-z]\w*)?) (?:associated with|attached "
    r"to) it\.?$",
    re.I,
)
# The words that open a sentence about a thing: lower case inside the way out's sentence
_OPENERS = frozenset({"the", "this", "these", "that", "those"})


def not_associated_solution(facts: Facts) -> Solution | None:
    """ "Associate this ForeignKey's parent column with a Table first, ..." or None."""
    if facts.stored.site.kind not in _REPORTED:
        return None
    text = message_text(facts)
    found = _NOT_ASSOCIATED.match(text)
    lacking = None if found is not None else _HAS_NONE.match(text)
    match = found if found is not None else lacking
    if match is None:
        return None
    subject, holder = match.group("subject"), match.group("holder")
    if not code_kind(holder):
        return None  # "... is not associated with any Scheduler": the program's state
    subject = _in_sentence(quoted(subject))
    if lacking is not None:
        how = f"Give {subject} {_a(holder)} first (add it to one)"
    else:
        how = f"Associate {subject} with {_a(holder)} first (add it to one)"
    return Solution(
        text=f"{how}, then make the call that raised: the message says “{text.rstrip('.')}”.",
        kind="input",
    )


def _in_sentence(subject: str) -> str:
    """The message's subject inside a sentence: "this ForeignKey's parent column" as it is,
    "The column" lower case, "Index “NAME”" as "the Index “NAME”"."""
    first, _, rest = subject.partition(" ")
    if first.lower() in _OPENERS:
        return f"{first.lower()} {rest}"
    return f"the {subject}" if first[:1].isupper() else subject


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"
