"""A name the user chose that clashes with one already taken: rename it.

A message that opens on the kind of name and the name itself (`Field name "{ann_name}" in
"{cls.__qualname__}" shadows an attribute in parent ...`, `Bind parameter '{name}'
conflicts with ...`, `{key!r}: requested attribute name conflicts with ...`) and says it
shadows or conflicts with another is about a name in the user's code (a field of their
model, a column, a parameter they bound): the way out is another name for it. A message
about anything else that conflicts (an instance, a relationship, a class) says no name.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts
from errdex.explain.page import Solution

_NOUN = r"(?P<noun>field|attribute|column|key|parameter|bind parameter)(?: name)?"
_NAME = r"[\"'`“]?(?P<name>\{[^{}]+\})[\"'`”]?"
_CLASH = r"(?P<clash>(?:shadows|conflicts with)\b(?:\{[^{}]*\}|[^.;{])*)"
# "Field name "{x}" ... shadows ...": the kind of name, the name, then the clash
# (a placeholder between may hold dots: `{cls.__qualname__}`)
_NAMED = re.compile(rf"^{_NOUN}\s+{_NAME}(?:\{{[^{{}}]*\}}|[^.;{{])*?\b{_CLASH}", re.I)
# "{key!r}: requested attribute name conflicts with ...": the name, then what it is
_LED = re.compile(
    rf"^{_NAME}:\s*(?:the\s+)?(?:requested\s+)?{_NOUN}\s+{_CLASH}",
    re.I,
)

# "This declarative base already contains a class with the same class name and module name
# as {module}.{name}": a second declaration of one name under one holder
_TAKEN = re.compile(
    r"^(?P<holder>(?:this|the)\s+[\w ]+?)\s+already\s+(?:contains|has)\s+an?\s+"
    r"(?P<noun>class|model|table)\s+with\s+the\s+same\s+"
    r"(?P<same>(?:\w+\s+)*?name(?:\s+and\s+(?:\w+\s+)*?name)?)\s+as\s+"
    r"(?P<name>\{[^{}]+\}(?:\.\{[^{}]+\})*)",
    re.I,
)


def name_clash_solution(facts: Facts) -> Solution | None:
    """ "Rename the field “{ann_name}” in your code: as the message says, it shadows an
    attribute in parent ...", for a message that opens on a name that clashes."""
    message = facts.stored.site.message
    if message is None:
        return None
    text = message.text.strip()
    found = _NAMED.match(text) or _LED.match(text)
    if found is None:
        return _taken_solution(text)
    noun = found.group("noun").lower()
    # the name as the user wrote it, not its repr
    name = re.sub(r"![rsa]\}$", "}", found.group("name"))
    clash = found.group("clash").strip().rstrip(",")
    return Solution(
        text=(
            f"Rename the {noun} “{name}” in your code to one that nothing "
            f"else uses: as the message says, it {clash}."
        ),
        kind="input",
    )


def _taken_solution(text: str) -> Solution | None:
    """ "Declare the class “{m}.{n}” once, or give one of the two another name", for a
    message saying its holder already has one of the same name."""
    found = _TAKEN.match(text)
    if found is None:
        return None
    noun = found.group("noun").lower()
    name = re.sub(r"![rsa]\}", "}", found.group("name"))
    holder = found.group("holder")
    held = f"{holder[0].lower()}{holder[1:]}"
    rest = text[found.start("holder") + len(holder) :].strip().rstrip(".,")
    rest = re.split(r",\s*and\b", rest, maxsplit=1)[0]
    return Solution(
        text=(
            f"Declare the {noun} “{name}” only once under {held} (a `class` statement run "
            f"again, in a function called twice or a module reloaded, declares it again), "
            f"or give one of the two another name: as the message says, it {rest}."
        ),
        kind="input",
    )
