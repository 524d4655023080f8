"""A raise because a server answered a request with an error status: what to check.

httpx's `Response.raise_for_status` raises `HTTPStatusError` when `not self.is_success`;
vllm's `upload_data` raises when `not 200 <= response.status < 300`. The status is the
server's answer to the request that was sent: no setting of the program changes it, and
not sending the request gives up what it was for. The way out is the request itself,
checked against the status the message shows (a 4xx: its URL, credentials, parameters or
body; a 5xx: the server), and, for a method that raises on the response the user holds, a
test of that response's status before it where an error status is an answer to expect.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.fix_forms import instance_name
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.user_data import callable_by_user
from errdex.facts import Placeholder

__all__ = ["error_status_solution"]

# A response's attributes that tell whether its status is an error.
_TELLS = frozenset({"is_success", "is_error", "is_client_error", "is_server_error", "ok"})
_CODES = frozenset({"status_code", "status"})  # the status's number, compared with codes
_WORDS = (".status", ".is_", ".ok")
# Names of a local that holds a response (`response`, `resp`, `http_response`): these
# attributes (`.ok`, `.is_success`) tell a job's or a result's own state on other objects.
_RESPONSE_NAME = re.compile(r"(?:^|_)(?:response|resp)$", re.I)
# Methods that send a request and return its response (`session.put(url)`), called on
# an HTTP client (`_CLIENT`: not `cache.get(key)`, whose value may tell a job's `.ok`).
_REQUESTS = frozenset(
    {"get", "post", "put", "patch", "delete", "head", "options", "request", "send"}
)
_CLIENT = re.compile(
    r"(?:^|_)(?:client|session|http|https|requests|httpx|aiohttp|pool|conn|connection)$", re.I
)
# a held test that the response redirects (`self.has_redirect_location`, not negated)
_REDIRECT = re.compile(r"^(?!not\b)[\w.]*\b(?:has_redirect_location|is_redirect)$")


def error_status_solution(facts: Facts) -> Solution | None:
    """What to check when a held condition of the site tests the status of a response."""
    redirected = any(_REDIRECT.search(c.text) for c in facts.held)
    for condition in facts.held:
        if not any(w in condition.text for w in _WORDS):
            continue  # no status read: not parsed
        try:
            node = ast.parse(condition.text, mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
        response = _status_tested(node)
        if response is not None and _is_response(facts, response.value):
            return _solution(facts, response, redirected)
    return None


def _is_response(facts: Facts, owner: ast.expr) -> bool:
    """Whether `owner`, whose status attribute a condition reads, is an HTTP response: a
    method of a class named for one (`Response`, `HTTPResponse`; not a `ResponseFormat`),
    or a name (an attribute's last part) named for one or bound by a call that sends a
    request (`session.put(url)`)."""
    if isinstance(owner, ast.Name) and owner.id == "self":
        return (facts.stored.site.class_name or "").lower().endswith("response")
    name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    if _RESPONSE_NAME.search(name):
        return True
    for binding in facts.stored.site.bindings:
        if binding.name != ast.unparse(owner) or binding.origin != "local":
            continue
        try:
            value = ast.parse(binding.value, mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            continue
        while isinstance(value, ast.Await):
            value = value.value
        if isinstance(value, ast.Call) and _sends_request(value.func):
            return True
    return False


def _sends_request(func: ast.expr) -> bool:
    """Whether the call of `func` sends a request: `urlopen(...)`, or a request method of
    an HTTP client (`session.put`, `self._client.get`, `requests.post`)."""
    if isinstance(func, ast.Name | ast.Attribute) and ast.unparse(func).endswith("urlopen"):
        return True
    if not (isinstance(func, ast.Attribute) and func.attr in _REQUESTS):
        return False
    receiver = func.value
    name = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
    return _CLIENT.search(name) is not None


def _status_tested(node: ast.expr) -> ast.Attribute | None:
    """The status attribute (`self.is_success`, `response.status`) that `node` reads, when
    `node` holds for an error status and not for success (`not self.is_success`, `not 200 <=
    response.status < 300`; not `200 <= response.status < 300`, held after that check)."""
    for part in walk(node):
        if not isinstance(part, ast.Attribute) or part.attr not in _TELLS | _CODES:
            continue
        success: int | bool
        failures: tuple[int | bool, ...]
        if part.attr in _CODES:
            if not _http_codes(node, part):
                continue  # `status > 255`, `status_code == 3`: some other kind of status
            success, failures = 200, (404, 500)
        else:
            ok = part.attr in ("is_success", "ok")
            success, failures = ok, (not ok,)
        # every read of the same attribute is the one status (`s < 200 or s >= 300`)
        read = ast.dump(part)
        if _truth(_holds(node, read, success)) is False and any(
            _truth(_holds(node, read, f)) for f in failures
        ):
            return part
    return None


def _http_codes(node: ast.expr, status: ast.Attribute) -> bool:
    """Whether every number `node` compares the status with is an HTTP status or a bound
    of their range (100 to 600): an exit status or a protocol's own code compared with
    other numbers (`status > 255`, `status_code == 3`) is no server's answer."""
    read = ast.dump(status)
    for compare in walk(node):
        if not isinstance(compare, ast.Compare):
            continue
        operands = [compare.left, *compare.comparators]
        if not any(ast.dump(o) == read for o in operands):
            continue
        numbers = [
            o.value
            for o in operands
            if isinstance(o, ast.Constant)
            and isinstance(o.value, int)
            and not isinstance(o.value, bool)
        ]
        if not all(100 <= n <= 600 for n in numbers):
            return False
    return True


class _Unknown:
    """What `_holds` cannot evaluate: not `None`, which a test may compare with."""


_UNKNOWN = _Unknown()
_Value = int | bool | None | _Unknown


def _holds(node: ast.expr, status: str, value: int | bool) -> _Value:
    """The value of `node`, as Python gives it, with the attribute whose `ast.dump` is
    `status` read as `value`; `_UNKNOWN` when it reads anything else, or anything but
    constants, comparisons (identity of `True`, `False` and `None` only), `not`, `and` and
    `or` (never run). `and`/`or` stop where Python stops: a part past the one that decides
    is not read."""
    if isinstance(node, ast.Attribute) and ast.dump(node) == status:
        return value
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, int)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _holds(node.operand, status, value)
        return inner if isinstance(inner, _Unknown) else not inner
    if isinstance(node, ast.BoolOp):
        result: _Value = _UNKNOWN
        for part in node.values:
            result = _holds(part, status, value)
            if isinstance(result, _Unknown):
                return result
            if bool(result) is isinstance(node.op, ast.Or):
                return result  # `or` stops at a true part, `and` at a false one
        return result
    if isinstance(node, ast.Compare):
        left = _holds(node.left, status, value)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _holds(right_node, status, value)
            held = _compared(op, left, right)
            if not isinstance(held, bool):
                return held
            if not held:
                return False
            left = right
        return True
    return _UNKNOWN


def _truth(value: _Value) -> bool | None:
    """Whether a known value is true; None for `_UNKNOWN`."""
    return None if isinstance(value, _Unknown) else bool(value)


def _compared(op: ast.cmpop, left: _Value, right: _Value) -> bool | _Unknown:
    """`left op right`; `_UNKNOWN` for an unknown side, an order of anything but numbers,
    an identity of two numbers (not fixed by the language), or another operator (`in`)."""
    if isinstance(left, _Unknown) or isinstance(right, _Unknown):
        return _UNKNOWN
    if isinstance(op, ast.Is | ast.IsNot):
        if not any(v is None or isinstance(v, bool) for v in (left, right)):
            return _UNKNOWN  # two numbers: the language does not say
        return (left is right) is isinstance(op, ast.Is)
    if isinstance(op, ast.Eq | ast.NotEq):
        return (left == right) is isinstance(op, ast.Eq)
    compare = _ORDER.get(type(op))
    if compare is None or left is None or right is None:
        return _UNKNOWN
    return compare(left, right)


_ORDER: dict[type[ast.cmpop], Callable[[int, int], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def _solution(facts: Facts, status: ast.Attribute, redirected: bool) -> Solution:
    owner = ast.unparse(status.value)
    function = facts.stored.site.function
    held = ""
    if owner == "self" and "." in function and callable_by_user(facts):
        # the method raises on the response the user holds: they may test its status first
        cls, _, method = function.rpartition(".")
        shown = f"{instance_name(cls.split('.')[-1])}.{status.attr}"
        held = (
            f" Where such a status is an answer to expect, test {code(shown)} before "
            f"calling {code(method)} and handle that answer."
        )
    answer = "the response" if owner == "self" else f"{code(owner)}"
    kinds = (
        "A 3xx status with a location is a redirect: request the location the message "
        "names, or have the client follow redirects."
        if redirected
        else "A 4xx status is a fault of the request (its URL, credentials, parameters or "
        "body), a 5xx one of the server (retry later, or ask whoever runs it)."
    )
    told = ", which the message shows" if _status_shown(facts, owner) else ""
    # a setting behind the conditions may feed the request (its URL, its credentials)
    fixed = "" if facts.knobs else " No setting of the program changes it."
    return Solution(
        text=(
            f"Check the request {answer} answers: the server sent a status other than "
            f"success{told}. {kinds}{fixed}{held}"
        ),
        kind="environment",
    )


def _status_shown(facts: Facts, owner: str) -> bool:
    """Whether the message shows the status: a placeholder (or a local it reads, one step)
    reads the owner's status attribute (`self.status_code`, `response.status`)."""
    message = facts.stored.site.message
    if message is None:
        return False
    exprs = [p.expr for p in message.parts if isinstance(p, Placeholder)]
    locals_ = {b.name: b.value for b in facts.stored.site.bindings}
    exprs += [locals_[n] for e in exprs for n in re.findall(r"\w+", e) if n in locals_]
    status = re.compile(rf"\b{re.escape(owner)}\.(?:{'|'.join(_TELLS | _CODES)})\b")
    return any(status.search(e) for e in exprs)
