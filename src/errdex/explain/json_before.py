"""A JSON-valued flag's key as the "before" line of an example fix gives it.

The "before" is the command the user ran, the one that reaches the check: each key the
fix changes holds there a value the check refuses. A yes/no key (its class declares it
`bool`, or `bool | None`) is turned (`true` where the fix writes `false`; `true` where
it writes `null` for a `bool | None`); a number takes another number than those the
check accepts (`1` where it wants `0`; `2` where it fixes `not in (None, 1)` with
`null`); a text takes the user's own, written `"VALUE"` and named in the note (`"VALUE"`
is a text, as the key's is). A section of the configuration (`hisparse_config`) where
the fix writes `null` is given as `{}` when its class requires no key of its own. Where
no value of the key is known to reach the check, none is written: `null` asked for a key
that may be another section, a list or a number, or `false` for a key of no known type
(`"VALUE"` in their place is refused by the key's own type before the check runs, and
leaving the key out gives the default, often the fix's own value).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from errdex.explain.page import Knob
from errdex.explain.required_keys import OwnValue
from errdex.linked_facts import EMPTY_SECTION

# The word a text key's "before" gives, the user's own value (the note names it).
PLACEHOLDER = "VALUE"
# the defaults the link gives a yes/no key (`None`: one declared `bool | None` left None)
YES_NO_DEFAULTS = ("True", "False", "None")


def before_keys(
    knob: Knob,
    value: dict[object, object],
    held: Mapping[str, object],
    had: Iterable[tuple[str, object]] = (),
    others: Iterable[object] = (),
) -> dict[object, object] | None:
    """The flag's JSON object in the "before", where the fix gives it `value` and keeps
    `held` (the other keys the path holds) in both lines: each key of `value` as the user
    `had` it where the caller knows, else a value the check refuses; None when a key has
    no such value known."""
    was: dict[object, object] = dict(held.items())
    given_before = dict(had)
    accepted = tuple(others)
    for field, given in value.items():
        key = str(field)
        refused = (
            (given_before[key],)
            if key in given_before
            else refused_value(knob, key, given, accepted)
        )
        if refused is None:
            return None
        was[field] = refused[0]
    return was


def refused_value(
    knob: Knob, field: str, given: object, others: Iterable[object] = ()
) -> tuple[object] | None:
    """The value of the JSON key `field` in the "before", where the fix gives it `given`
    (and the check accepts `others` too), as a 1-tuple; None when none is known."""
    if given is None and dict(knob.key_defaults).get(field) == EMPTY_SECTION:
        return ({},)  # a section whose class requires no key: given with its defaults
    if given is None and dict(knob.key_defaults).get(field) == "None":
        return (True,)  # a `bool | None` left None: any yes/no given is not None
    if given is None:
        numbers = [o for o in others if isinstance(o, int | float) and not isinstance(o, bool)]
        accepted = [o for o in others if o is not None]
        if numbers and len(numbers) == len(accepted):
            # `not in (None, 1)` fixed with `null`: a number past every one it accepts
            return (max(numbers) + 1,)
        return None
    if isinstance(given, bool):
        return (not given,) if yes_no_key(knob, field) else None
    if isinstance(given, int | float):
        numbers = [given, *(o for o in others if isinstance(o, int | float))]
        # a number the check refuses: past every one it accepts
        return (max(numbers) + 1,)
    if isinstance(given, str):
        return (PLACEHOLDER,)
    return None


def yes_no_key(knob: Knob, field: str) -> bool:
    """Whether the flag's key `field` is a yes/no as its class declares it: the knob's own
    key with a yes/no default (`key_default`), or one of the keys read with one."""
    if field == knob.json_key and knob.key_default is not None:
        return True
    return dict(knob.key_defaults).get(field) in YES_NO_DEFAULTS


def json_text(value: object) -> str:
    """`json.dumps` of a flag's JSON, the user's own values (`OwnValue`) written as their
    names: a text's in quotes (`"MODEL"`), another's bare (`NUM_SPECULATIVE_TOKENS`), for
    the user to put a number in its place."""
    marks: dict[str, str] = {}

    def marked(item: object) -> object:
        if isinstance(item, OwnValue):
            mark = f"\x00{len(marks)}\x00"
            marks[json.dumps(mark)] = json.dumps(item.name) if item.text else item.name
            return mark
        if isinstance(item, dict):
            return {k: marked(v) for k, v in item.items()}
        return item

    text = json.dumps(marked(value))
    for mark, written in marks.items():
        text = text.replace(mark, written)
    return text


def named_values(written: dict[str, object], before: Mapping[Any, object]) -> list[str]:
    """The user's own values a fix's note names: those its JSON writes, and the placeholder
    its "before" line gives a key whose refused value is the user's to pick."""
    return [*own_values(written), *([PLACEHOLDER] if PLACEHOLDER in before.values() else [])]


def own_values(value: object) -> list[str]:
    """The names of the user's own values (`OwnValue`) a flag's JSON writes, in order."""
    if isinstance(value, OwnValue):
        return [value.name]
    if isinstance(value, dict):
        return [name for v in value.values() for name in own_values(v)]
    return []
