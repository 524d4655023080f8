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
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.user_data import callable_by_user

__all__ = ["error_status_solution"]

# A response's attributes that tell whether its status is an error.
_TELLS = frozenset({"is_success", "is_error", "is_client_error", "is_server_error", "ok"})
_CODES = frozenset({"status_code", "status"})  # the status's number, compared with codes
_WORDS = (".status", ".is_", ".ok")
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
        if response is not None:
            return _solution(facts, response, redirected)
    return None


def _status_tested(node: ast.expr) -> ast.Attribute | None:
    """The status attribute (`self.is_success`, `response.status`) that `node` reads, when
    `node` holds for an error status and not for success (`not self.is_success`, `not 200 <=
    response.status < 300`; not `200 <= response.status < 300`, held after that check)."""
    for part in walk(node):
        if not isinstance(part, ast.Attribute) or part.attr not in _TELLS | _CODES:
            continue
        success: list[object]
        failures: list[object]
        if part.attr in _CODES:
            success, failures = [200], [404, 500]
        else:
            ok = part.attr in ("is_success", "ok")
            success, failures = [ok], [not ok]
        if _holds(node, part, success) is False and any(_holds(node, part, [f]) for f in failures):
            return part
    return None


def _holds(node: ast.expr, status: ast.Attribute, value: list[object]) -> object:
    """The value of `node` with `status` read as `value[0]`; None when it reads anything
    else, or anything but constants, comparisons, `not`, `and` and `or` (never run)."""
    if node is status:
        return value[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, int | bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _holds(node.operand, status, value)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        parts = [_holds(v, status, value) for v in node.values]
        if any(p is None for p in parts):
            return None
        return all(parts) if isinstance(node.op, ast.And) else any(parts)
    if isinstance(node, ast.Compare):
        left = _holds(node.left, status, value)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _holds(right_node, status, value)
            compare = _COMPARE.get(type(op))
            if compare is None or not isinstance(left, int) or not isinstance(right, int):
                return None
            if not compare(left, right):
                return False
            left = right
        return True
    return None


_COMPARE: dict[type[ast.cmpop], Callable[[int, int], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


def _solution(facts: Facts, status: ast.Attribute, redirected: bool) -> Solution:
    owner = ast.unparse(status.value)
    function = facts.stored.site.function
    held = ""
    if owner == "self" and "." in function and callable_by_user(facts):
        # the method raises on the response the user holds: they may test its status first
        cls, _, method = function.rpartition(".")
        shown = f"{cls.split('.')[-1].lower()}.{status.attr}"
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
    return Solution(
        text=(
            f"Check the request {answer} answers: the server sent a status other than "
            f"success, which the message shows with what was asked. {kinds} No setting of "
            f"the program changes it.{held}"
        ),
        kind="environment",
    )
