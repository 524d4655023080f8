"""A way out through the body of a request the user sends to the package's server.

A check reads an attribute whose value a client sent: the server's request class copies
its field into the object checked (`SamplingParams.from_optional(watermarking=
self.watermarking)`, then `if config.watermarking is False: return` before a warning), or
the check reads the request itself. The way out is the field in the body, with the value
the condition accepts ("set `watermarking` to `false`"), and the fix is the body as sent.
Only where the check's own code says its object is of that class (the parameter's
annotation, an `isinstance` on the path): a field of the same name on an internal object
no request fills is no way out.
"""

from __future__ import annotations

import ast
import json

from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, ExampleFix, Solution
from errdex.explain.plain import your_values
from errdex.extract.conditions import negate
from errdex.extract.shapes import annotated_classes, isinstance_of
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.linked_facts import RequestLink

# Python literals a body sends as JSON.
_JSON_LITERALS = (bool, int, float, str, type(None))


def request_solutions(facts: Facts, conditions: list[ConditionView]) -> list[tuple[Solution, int]]:
    """The fields of a request body that decide the open conditions, with the value that
    avoids the site, innermost check first; each with its tier: 0 for a field the check
    reads from the request, 1 for one copied into an object a Python caller may build
    itself (whose own argument, when offered, comes first)."""
    links = facts.stored.requests
    if not links or facts.stored.site.kind == SiteKind.ASSERT:
        return []  # an assert is the program's own invariant: no request is its way out
    found: list[tuple[Solution, int]] = []
    for condition in reversed(conditions):
        solution = _solution(condition, links, facts)
        if solution is not None and all(s.text != solution[0].text for s, _ in found):
            found.append(solution)
    return found


def _solution(
    condition: ConditionView, links: tuple[RequestLink, ...], facts: Facts
) -> tuple[Solution, int] | None:
    """The way out of one condition; of `a and b`, of its last part a field decides (any
    part made false avoids the site)."""
    held = parse_expression(condition.text)
    if held is None:
        return None
    joined = isinstance(held, ast.BoolOp) and isinstance(held.op, ast.And)
    for part in reversed(held.values) if isinstance(held, ast.BoolOp) and joined else [held]:
        try:
            wanted = negate(part)
        except (ValueError, RecursionError):
            continue
        found = _part_solution(wanted, condition, links, facts)
        if found is not None:
            return found
    return None


def _part_solution(
    wanted: ast.expr, condition: ConditionView, links: tuple[RequestLink, ...], facts: Facts
) -> tuple[Solution, int] | None:
    read = _read(wanted)
    if read is None:
        return None
    owner, attr, accepted = read
    if attr:
        classes = _classes_of(owner, facts)
        matching = [
            link
            for link in links
            if link.parameter is None
            and link.attr == attr
            and link.target.rpartition(".")[2] in classes
        ]
    else:  # the parameter a caller gives the field as: the link found the body's class
        matching = [link for link in links if link.parameter == owner]
    if not matching:
        return None
    first = matching[0]
    if not attr and any(link.key != first.key for link in matching):
        return None  # callers give the parameter different fields: which one is the user's
    matching = [link for link in matching if link.key == first.key]  # one key said
    if first.default is None and (accepted is None or accepted is False):
        return None  # a required field: leaving it empty is no request the server takes
    if not isinstance(wanted, ast.Compare) and "bool" not in first.annotation.lower():
        return None  # `not request.tools`: an empty value of another type, unsaid
    if isinstance(accepted, _Other) and isinstance(accepted.value, bool):
        if "bool" not in first.annotation.lower():
            return None
        accepted = not accepted.value  # `x is not True` on a flag: send it false
    value = _words(first.key, accepted, first.default)
    # each body's plainest route
    routes = list(dict.fromkeys(link.routes[0] for link in matching if link.routes))
    where = " (" + ", ".join(f"`{r}`" for r in routes[:3]) + ")" if routes else ""
    into = dict.fromkeys(
        f"`{link.target.rpartition('.')[2]}.{link.attr}`"
        for link in matching
        if link.via is not None
    )
    carried = f"; the server copies it into {' or '.join(into)}" if into else ""
    if first.parameter is not None:
        through = first.passed_by[1:]
        handing = f"`{first.passed_by[0]}` hands it on" + (
            f" (through `{'`, `'.join(through)}`)" if through else ""
        )
        handing += f" to `{facts.stored.site.function}` as `{owner}`"
        carried = f"{carried}, and {handing}" if carried else f"; {handing}"
    text = f"In the body of your request{where}, {value}{carried} (so that {ast.unparse(wanted)})."
    # the field left out to skip the check (`if input_type is None: return`): it gives up
    # what the field asks for
    skipped = accepted is None and condition.kind == ConditionKind.EARLY_EXIT
    solution = Solution(
        text=text,
        condition=condition.text,
        kind="input",
        fix=_fix(first, routes, accepted),
        drops=skipped,
    )
    # read from the request itself first; a value only said to differ after the message's
    # own advice; a field carried into an object a method of another class is handed
    # (`sampling_params` of a sampler's method), or one the package's own calls hand a
    # function, before that argument, which no user passes
    handed = owner != "self" and (bool(facts.stored.callers) or bool(facts.stored.site.class_name))
    tier = 2 if isinstance(accepted, _Other) else 0 if first.via is None or handed else 1
    if first.parameter is not None and not isinstance(accepted, _Other):
        tier = 0  # the callers hand it this field: before the function's own argument
    elif skipped:
        tier += 2  # the feature left out, to skip its check: after what keeps it
    return solution, tier


def _read(test: ast.expr) -> tuple[str, str, object] | None:
    """(the object's name, the attribute, the value the test accepts: a JSON-able literal,
    or `_Other` for any value but one) of a test on one attribute of a name; None for any
    other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        named = _attribute(test.operand)
        return None if named is None else (named[0], named[1], False)
    named = _attribute(test)
    if named is not None:
        return (named[0], named[1], True)
    if isinstance(test, ast.Compare) and len(test.ops) == 2:
        return _range(test)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    named = _attribute(test.left)
    right = test.comparators[0]
    if named is None or not isinstance(right, ast.Constant):
        return None
    if not isinstance(right.value, _JSON_LITERALS):
        return None
    if isinstance(test.ops[0], ast.Is | ast.Eq):
        return (named[0], named[1], right.value)
    if isinstance(test.ops[0], ast.IsNot | ast.NotEq):
        return (named[0], named[1], _Other(right.value))
    if _number(right.value) and type(test.ops[0]) in _BOUND_WORDS:
        return (named[0], named[1], _Bound(_BOUND_WORDS[type(test.ops[0])], right.value))
    return None


def _range(test: ast.Compare) -> tuple[str, str, object] | None:
    """`-2.0 <= self.presence_penalty <= 2.0`: the attribute between two numbers."""
    named = _attribute(test.comparators[0])
    if named is None or not all(isinstance(op, ast.Lt | ast.LtE) for op in test.ops):
        return None
    try:
        low = ast.literal_eval(test.left)
        high = ast.literal_eval(test.comparators[1])
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not (_number(low) and _number(high)):
        return None
    low_word = "from" if isinstance(test.ops[0], ast.LtE) else "above"
    high_word = "to" if isinstance(test.ops[1], ast.LtE) else "below"
    words = f"{low_word} `{_json(low)}` {high_word} `{_json(high)}`"
    return named[0], named[1], _Bound(words, None)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Other:
    """Any value but this one."""

    def __init__(self, value: object) -> None:
        self.value = value


class _Bound:
    """A value on one side of a number (`at least 0`), or between two."""

    def __init__(self, words: str, value: object) -> None:
        self.words = words  # "at least", or the whole range said
        self.value = value  # the bound, or None for a range

    def said(self) -> str:
        return self.words if self.value is None else f"{self.words} `{_json(self.value)}`"

    def example(self) -> object:
        """The bound itself, when it is a value the test takes; else None."""
        return self.value if self.words in ("at least", "at most") else None


# The test that avoids the site → how the value must stand to its bound.
_BOUND_WORDS: dict[type, str] = {
    ast.GtE: "at least",
    ast.Gt: "above",
    ast.LtE: "at most",
    ast.Lt: "below",
}


def _attribute(node: ast.expr) -> tuple[str, str] | None:
    """(object, attribute) of `a.b`; (name, "") of a plain name `a` (a parameter a caller
    gives a field as)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id, node.attr
    if isinstance(node, ast.Name):
        return node.id, ""
    return None


def _classes_of(owner: str, facts: Facts) -> set[str]:
    """The classes the site's own code says `owner` is: its parameter's annotation, narrowed
    by the `isinstance` tests on the path; the method's class for `self`."""
    function = facts.site_function()
    if function is None:
        return set()
    if owner == "self":
        owner_class = facts.stored.site.function.rpartition(".")[0].rpartition(".")[2]
        return {owner_class} if owner_class else set()
    classes: set[str] = set()
    arguments = function.args
    for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        if arg.arg == owner:
            classes = {name.rpartition(".")[2] for name in annotated_classes(arg.annotation)}
    for condition in facts.conditions:
        node = parse_expression(condition.text)
        if node is None:
            continue
        negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
        test = node.operand if isinstance(node, ast.UnaryOp) and negative else node
        kinds = isinstance_of(test, owner)
        if kinds is None:
            continue
        # `isinstance(request, (A, B))`: an instance of any of them
        named = {
            n.rpartition(".")[2]
            for kind in (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds])
            for n in annotated_classes(kind)
        }
        classes = classes - named if negative else (classes & named if classes else named)
    return classes


def _json(value: object) -> str:
    return json.dumps(value)


def _words(key: str, accepted: object, default: str | None) -> str:
    """What to send, said; with the field's default when that is the value too."""
    if isinstance(accepted, _Other):
        return f"send `{key}` with a value other than `{_json(accepted.value)}`"
    if isinstance(accepted, _Bound):
        return f"send `{key}` {accepted.said()}"
    said = f"set `{key}` to `{_json(accepted)}`"
    known, value = _literal(default) if default is not None else (False, None)
    if known and _same(value, accepted):
        said += f" (or leave it out: `{_json(accepted)}` by default)"
    elif known:
        said += f" (it is `{_json(value)}` when left out)"
    return said


def _same(one: object, other: object) -> bool:
    return type(one) is type(other) and one == other


def _literal(source: str) -> tuple[bool, object]:
    """(whether the default is a JSON-able literal, its value)."""
    try:
        value = ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None
    return isinstance(value, _JSON_LITERALS), value


def _fix(link: RequestLink, routes: list[str], accepted: object) -> ExampleFix | None:
    """The body before and after, each required key with a placeholder of the user's own
    value: the key added with the accepted value, or, when leaving it out gives that value,
    the key the user sent taken out."""
    placeholders = [f'"{key}": {key.upper()}' for key in link.required if key != link.key]
    route = routes[0] if routes else None
    if isinstance(accepted, _Bound):
        # out of bounds, the key was sent: the user's value before, the bound after
        accepted = accepted.example()
        if accepted is None:
            return None
        sent = [*placeholders, f'"{link.key}": {link.key.upper()}']
        bound = [*placeholders, f'"{link.key}": {_json(accepted)}']
        return ExampleFix(before=_body(sent, route), after=_body(bound, route))
    if isinstance(accepted, _Other):
        return None
    is_literal, default = _literal(link.default) if link.default is not None else (False, None)
    if is_literal and _same(default, accepted):
        sent = [*placeholders, f'"{link.key}": {link.key.upper()}']
        return ExampleFix(before=_body(sent, route), after=_body(placeholders, route))
    before = _body(placeholders, route)
    after = _body([*placeholders, f'"{link.key}": {_json(accepted)}'], route)
    return ExampleFix(before=before, after=after, note=_note(link, route, accepted))


def _note(link: RequestLink, route: str | None, accepted: object) -> str | None:
    """The client's form, when there is one, and the placeholders said to be the user's."""
    client = _client_note(link, route, accepted)
    words = [key.upper() for key in link.required if key != link.key]
    if client is not None and "MODEL" not in words:
        words.insert(0, "MODEL")
    parts = [f"{client}." if client else "", your_values(words)]
    return " ".join(p for p in parts if p) or None


# The OpenAI API's routes → the OpenAI Python client's method that posts to each.
_CLIENT_METHODS = {
    "/v1/chat/completions": "chat.completions.create",
    "/v1/completions": "completions.create",
    "/v1/responses": "responses.create",
    "/v1/embeddings": "embeddings.create",
}


def _client_note(link: RequestLink, route: str | None, accepted: object) -> str | None:
    """The same field through the OpenAI client's `extra_body`, for a version that uses
    that client and a route of the OpenAI API."""
    method = _CLIENT_METHODS.get((route or "").partition(" ")[2])
    if not link.client or method is None:
        return None
    given = ["model=MODEL"] + [
        f"{key}={key.upper()}" for key in link.required if key not in (link.key, "model")
    ]
    extra = f"extra_body={{{_json(link.key)}: {accepted!r}}}"
    return f"With the OpenAI client: client.{method}({', '.join([*given, extra])})"


def _body(parts: list[str], route: str | None) -> str:
    text = "{" + ", ".join(parts) + "}"
    return f"{route}\n{text}" if route else text
