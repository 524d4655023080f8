"""A site under `except` whose `try` sends a request to a URL: the network is what failed.

vllm's `HTTPConnection.download_file` re-raises whatever its `try` raised, and that `try`
calls `self.get_response(url, timeout=timeout)` and `r.raise_for_status()`: the request
failed, because this machine did not reach the URL's host (no network, a proxy or firewall
in the way, a timeout) or the server answered with an error. That is what the page says,
and the way out is the machine's reach to that host. A request is a call of a fetching
function (`urlopen`, `get_response`, `download_file`, ...) or of an HTTP verb on a client
(`requests.get`, `session.post`, `client.get`) given a URL (a name that says so, or a literal
`http(s)://` string), under an `except` that catches what a failed request raises.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.plain import caught_names, code
from errdex.explain.try_failure import caught_tests

__all__ = ["SentRequest", "network_solutions", "sent_request"]

# Functions that fetch a URL, whatever their receiver.
_FETCHES = frozenset(
    {"get_response", "get_async_response", "get_bytes", "async_get_bytes", "get_json"}
    | {"async_get_json", "download_file", "async_download_file", "urlopen", "urlretrieve"}
)
# HTTP verbs, called on a client of these names.
_VERBS = frozenset({"get", "post", "put", "patch", "delete", "head", "request", "stream"})
_CLIENTS = frozenset(
    {"requests", "httpx", "session", "_session", "client", "_client", "http_client"}
)
# What a failed request raises, or a clause that catches everything.
_CAUGHT = frozenset(
    {"Exception", "BaseException", "OSError", "IOError", "ConnectionError", "TimeoutError"}
    | {"RequestException", "HTTPError", "URLError", "ClientError", "HTTPStatusError"}
    | {"RequestError", "TransportError", "ConnectError", "ConnectTimeout", "ReadTimeout"}
)


@dataclass(frozen=True)
class SentRequest:
    """The request a `try` sends, and the URL it is sent to."""

    call: str
    url: str  # the URL's expression as written: `url`, `url_spec.url`, a literal
    try_line: int
    literal: bool  # the URL is written out in the code

    def where(self) -> str:
        return f"the URL {code(self.url)}" if self.literal else f"the URL in {code(self.url)}"

    def sentence(self) -> str:
        """What failed: said in "What it means" after what the clause caught."""
        return (
            f"the `try` sends a request ({code(self.call)}) to {self.where()}, which fails "
            "when this machine cannot reach that host (no network, a proxy or firewall in "
            "the way, a timeout) or when the server answers with an error."
        )

    def solution(self) -> Solution:
        return Solution(
            text=(
                f"Make sure this machine can reach the host of {self.where()} (network "
                "access, any proxy your network needs) and that the server there accepts the "
                f"request: the request the `try` at line {self.try_line} sends failed."
            ),
            kind="environment",
        )


def sent_request(facts: Facts) -> SentRequest | None:
    """The request of the `try` whose `except` (the innermost) holds the site, or None."""
    clause = facts.innermost_except()
    if clause is None:
        return None
    names = caught_names(clause.text) or {""}  # "": a bare `except`
    if names - _CAUGHT - {""} and not names & {"Exception", "BaseException", ""}:
        return None  # a clause for another failure (a `KeyError`, a `ValueError`)
    if _sorts_failures(facts):
        return None
    tried = facts.read.tries.get(clause.line)
    if tried is None:
        return None
    for text in tried.calls:
        found = _request(text)
        if found is not None:
            url, literal = found
            return SentRequest(text, url, tried.line, literal)
    return None


def _sorts_failures(facts: Facts) -> bool:
    """Whether a test inside the clause reads the caught error (or a local computed from it:
    `wrapped = _wrap_media_fetch_error(url, e)`): the clause tells one failure from another
    (an HTTP 404 from a connection refused), and the site is one of them, not every failed
    request."""
    return any(caught_tests(c, facts) for c in facts.conditions)


def network_solutions(facts: Facts) -> list[Solution]:
    """The machine's reach to the host of the URL the `try` sends a request to."""
    request = sent_request(facts)
    return [request.solution()] if request is not None else []


def _request(text: str) -> tuple[str, bool] | None:
    """(the URL's expression, whether it is a literal) of a call that sends a request."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        try:  # cut short at 120 characters where it was read
            node = ast.parse(_whole(text), mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            return None
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    receiver = func.value if isinstance(func, ast.Attribute) else None
    owner = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
    if name not in _FETCHES and not (name in _VERBS and owner in _CLIENTS):
        return None
    given = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "url")]
    for value in given:
        literal = _http_literal(value)
        if literal is not None:
            return literal, True
        source = ast.unparse(value)
        if "url" in source.lower() and not isinstance(value, ast.Constant):
            return source, False
    return None


def _whole(text: str) -> str:
    """A call `TryRead` cut short (`f(a, b=c`): its function and the arguments written out
    before the cut one, closed again (`f(a)`)."""
    depth = 0
    cut = None
    for index, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 1:
            cut = index  # the end of the last argument written out whole
    return text[:cut] + ")" if cut is not None else text


def _http_literal(value: ast.expr) -> str | None:
    """The text of a literal `http(s)://` URL (an f-string's leading literal part)."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        text = value.value
    elif isinstance(value, ast.JoinedStr):
        text = ast.unparse(value)[2:-1]  # `f"https://{host}/x"` → `https://{host}/x`
    else:
        return None
    return text if text.startswith(("http://", "https://")) else None
