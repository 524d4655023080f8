"""A deprecation whose message names the replacement: the replacement first, no "leave it out".

`AsyncClient(app=...)` warns "The 'app' shortcut is now deprecated. Use the explicit style
'transport=ASGITransport(app=...)' instead.": leaving `app` out (or passing it empty)
silences the warning but drops what the argument did (the client then goes to the network,
not the app). For a deprecation (a `DeprecationWarning`, `FutureWarning` or
`PendingDeprecationWarning`, or a message that says "deprecated") whose message says what to
do, that advice is the way out, first; solutions that drop the argument are not offered.
When the advice gives the replacement as a keyword whose value calls a public name with the
deprecated argument in it (`transport=ASGITransport(app=...)`), its fix moves the user's
value there: `AsyncClient(app=APP)` → `AsyncClient(transport=ASGITransport(app=APP))`,
each name imported by its public path.
"""

from __future__ import annotations

import ast
import re

import msgspec

from errdex.explain.advice import message_advice
from errdex.explain.context import Facts
from errdex.explain.copied_keyword import copied_keyword_solution
from errdex.explain.kept_first import drops_argument
from errdex.explain.page import Change, Solution
from errdex.explain.stated_order import before_private
from errdex.store.base import StoredSite

_DEPRECATION = re.compile(r"Deprecat|FutureWarning")
# "deprecated", or "`unique_items` is removed, use `Set` instead": a removal is the
# deprecation's end, and its message's replacement the way out as well
_DEPRECATED = re.compile(
    r"\bdeprecated\b|\b(?:is|are|has\s+been|have\s+been|was|were)\s+removed\b", re.I
)
# 'transport=ASGITransport(app=...)': a keyword to pass instead, its value a call, quoted
_REPLACEMENT = re.compile(
    r"[`'\"](?P<keyword>[A-Za-z_]\w*)=(?P<value>(?P<name>[A-Za-z_]\w*)\([^`'\"]*\))[`'\"]"
)


def deprecation(stored: StoredSite) -> bool:
    """Whether the site warns of (or raises for) something deprecated."""
    site = stored.site
    text = site.message.text if site.message is not None else ""
    return bool(_DEPRECATION.search(site.exception or "") or _DEPRECATED.search(text))


def replacement_names(stored: StoredSite) -> list[str]:
    """The names a deprecation's message calls in the replacement it gives, for the page
    to find their public paths."""
    message = stored.site.message
    if message is None or not deprecation(stored):
        return []
    return list(dict.fromkeys(m["name"] for m in _REPLACEMENT.finditer(message.text)))


def replacement_first(solutions: list[Solution], facts: Facts) -> list[Solution]:
    """The solutions, the message's own advice first for a deprecation that gives one,
    without those that leave the deprecated argument out; for any other error, the advice
    before the input solutions on private names (`before_private`)."""
    site = facts.stored.site
    text = site.message.text if site.message is not None else ""
    said = [a.text for a in message_advice(text)]
    advised = [s for s in solutions if any(t in s.text for t in said)]
    if not deprecation(facts.stored):
        return before_private(solutions, advised)
    copied = copied_keyword_solution(facts)
    if copied is not None and copied.change is not None:
        # the value passed as the keyword the function copies it into: what the message's
        # advice on that keyword says, with the call; leaving it out drops what it did
        keyword = copied.change.keyword or ""
        named = [s for s in advised if f"`{keyword}`" in s.text or f'"{keyword}"' in s.text]
        return [copied] + [s for s in solutions if s not in named and not drops_argument(s)]
    if not advised:
        return solutions
    rest = [s for s in solutions if s not in advised]
    dropped = [s for s in rest if drops_argument(s)]  # not replaced: given up
    if dropped and advised[0].condition is None:
        # the replacement is the way out of what the dropped one turned off (the page
        # then does not say no argument is behind the check)
        advised[0] = msgspec.structs.replace(advised[0], condition=dropped[0].condition)
    moved = next((_moved(advised[0], s.change, facts) for s in dropped if s.change), None)
    if moved is not None and advised[0].change is None and advised[0].fix is None:
        advised[0] = msgspec.structs.replace(advised[0], change=moved)
    return advised + [s for s in rest if s not in dropped]


def _moved(advised: Solution, dropped: Change | None, facts: Facts) -> Change | None:
    """The user's call with the deprecated argument's value moved into the replacement the
    advice quotes: `app=APP` → `transport=ASGITransport(app=APP)`. Only where `...` in the
    replacement stands under the deprecated argument's own name, and the name it calls has
    a public path."""
    if dropped is None or dropped.form != "call" or dropped.argument is None:
        return None
    found = _REPLACEMENT.search(advised.text)
    path = facts.public_names.get(found["name"]) if found is not None else None
    if found is None or path is None:
        return None
    try:
        node = ast.parse(found["value"], mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(node, ast.Call):
        return None
    mine = dropped.argument.upper()
    moved = False
    for keyword in node.keywords:
        if isinstance(keyword.value, ast.Constant) and keyword.value.value is Ellipsis:
            if keyword.arg != dropped.argument:
                return None  # a value of something else the message leaves to the user
            keyword.value, moved = ast.Name(id=mine), True
    if not moved or any(isinstance(a, ast.Constant) and a.value is Ellipsis for a in node.args):
        return None
    return Change(
        form="call",
        target=dropped.target,
        method=dropped.method,
        argument=dropped.argument,
        before=mine,
        after=ast.unparse(node),
        keyword=found["keyword"],
        required=dropped.required,
        imports=(path,),
    )
