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

"Parent instance {...} is not bound to a Session; lazy load operation of attribute '...'
cannot proceed" says the same of an object the user holds and a holder the user makes: a
loaded instance whose `Session` let it go (closed, or expunged it), or one never added. The
first clause is read; its holder is a class named as written (a capital first) whose public
path the page finds in the version (`holder_names`: `sqlalchemy.orm.Session`), at most
`MAX_DOTS` dots deep, the depth at which a package hands a class to its users: the way out
is to add the object to one, or to keep it in the one it came from until the call.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts
from errdex.explain.declared_rule import code_kind, quoted
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.state_gated import MAX_DOTS
from errdex.explain.stated_requirement import message_text
from errdex.facts import SiteKind
from errdex.store.base import StoredSite

__all__ = ["holder_names", "not_associated_solution"]

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
# "Parent instance {...} is not bound to a Session; lazy load ...": the first clause, with a
# class's name (a capital first) as the holder
_NOT_BOUND = re.compile(
    rf"^(?P<subject>(?:[\w'\"“”]|{_PH})+(?: (?:[\w'\"“”]|{_PH})+){{0,5}}?) (?:is|are) not "
    r"(?:yet )?bound to an? (?P<holder>[A-Z]\w*)(?:[;,.]|$)"
)
# The words that open a sentence about a thing: lower case inside the way out's sentence
_OPENERS = frozenset({"the", "this", "these", "that", "those"})


def not_associated_solution(facts: Facts) -> Solution | None:
    """ "Associate this ForeignKey's parent column with a Table first, ..." or None."""
    if facts.stored.site.kind not in _REPORTED:
        return None
    text = message_text(facts)
    bound = _bound_solution(text, facts)
    if bound is not None:
        return bound
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


def holder_names(stored: StoredSite) -> list[str]:
    """The class a message says the object is not bound to (`Session`), for the page to
    find its public path; none for any other message."""
    message = stored.site.message
    found = _NOT_BOUND.match(message.text.strip()) if message is not None else None
    return [found.group("holder")] if found is not None else []


def _bound_solution(text: str, facts: Facts) -> Solution | None:
    """ "Add the parent instance “...” to a `Session` first ..." for a message whose first
    clause says the object is not bound to a class the package hands its users."""
    found = _NOT_BOUND.match(text)
    if found is None:
        return None
    holder = found.group("holder")
    path = facts.public_names.get(holder)
    if path is None or path.count(".") > MAX_DOTS:
        return None  # no class the package hands its users: its own state
    # the object as the message calls it, its name left to the message ("Parent instance
    # {...}": "the parent instance the message names")
    words = found.group("subject").split()
    named = any(re.fullmatch(_PH, w) for w in words)
    words = [w for w in words if not re.fullmatch(_PH, w)]
    if not words:
        return None
    if not words[0][1:2].isupper():
        words[0] = words[0].lower()  # "Parent" inside the sentence; an acronym kept
    if words[0] not in _OPENERS:
        words.insert(0, "the")
    subject = " ".join(words) + (" the message names" if named else "")
    said = re.sub(_PH, "…", text[: found.end("holder")])
    return Solution(
        text=(
            f"Add {subject} to {_a(code(holder))} ({code(path)}) first, or keep it in the one "
            f"it came from until this call, then make the call that raised: the message says "
            f"“{said}”."
        ),
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
