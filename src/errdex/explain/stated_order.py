"""A message that states an order of calls: the method to call first on the user's object.

"set_transfer_context() must be called before add_recv()", "start_weight_update must be
called before update_weights.", "Call init_transfer_engine() first.", "prepare() has not
been called", "... without having called `read()`": the message names the method that must
run first. When that name is a public method of the class the raising method belongs to
(defined in its body, in the site's file), and a public path reaches the class, the way out
is that call on the user's object before the one that raised:
`engine.init_transfer_engine(INIT_INFO)`. A name the class does not define (another object's
method, a word such as "sending") says nothing.

What a message says to do ranks before an input solution on a private name: a private
parameter (`CaseKey(_allow_empty=True)`) or attribute (a `statement` whose `_where_criteria`
is empty, an `nbytes` at most `self._total_bytes`) is the library's own state, while "add
synchronize_session=None execution option" is the user's way out.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.advice import short_message
from errdex.explain.context import Facts, class_in_file
from errdex.explain.page import Change, Solution
from errdex.explain.plain import code
from errdex.explain.user_call import method_arguments, user_call

_NAME = r"[A-Za-z_][\w.]*"
_ORDERS = (
    # "X() must be called before Y()", "X must run before Y"
    re.compile(
        rf"(?P<first>{_NAME})(?:\(\))?\s+(?:must|should|has\s+to|needs\s+to)\s+"
        rf"(?:be\s+called|be\s+run|run|be\s+invoked)\s+(?:first|before\s+(?:calling\s+)?"
        rf"(?P<then>{_NAME})?)",
        re.I,
    ),
    # "Call X() first", "call X() before initializing again", "Call finish_update first."
    re.compile(
        rf"\b(?:call\s+`?(?P<first>{_NAME})(?:\(\))?|run\s+`?(?P<run>{_NAME})\(\))`?\s+"
        r"(?:first|before)\b",
        re.I,
    ),
    # "X() has not been called", "X() was not called after ..."
    re.compile(
        rf"(?P<first>{_NAME})\(\)`?\s+(?:has|was)\s+not\s+(?:yet\s+)?(?:been\s+)?called", re.I
    ),
    # "Attempted to access streaming request content, without having called `read()`"
    re.compile(
        rf"\bwithout\s+(?:first\s+)?(?:having\s+called|calling)\s+`?(?P<first>{_NAME})\(\)", re.I
    ),
    # "can't call begin() here unless rollback() or commit() is called first"
    re.compile(
        rf"\b(?:unless|until)\s+`?(?P<first>{_NAME})\(\)`?(?:\s+or\s+`?(?P<other>{_NAME})\(\)`?)?"
        r"\s+(?:is|are|has\s+been|have\s+been)\s+called\b",
        re.I,
    ),
    # "flush() all changes on mapped instances before merging": a sentence that opens with
    # the call to make, then what it is made on and what it comes before (not a sentence
    # about the call: "merge() with load=False does not support ...", "x() is deprecated")
    re.compile(
        rf"(?:^|(?<=[.;!?])\s+)`?(?P<first>{_NAME})\(\)`?\s+(?!(?:with|is|was|has|have|does|"
        r"did|can|cannot|must|should|will|would|may|might|returned|returns|raised|raises|"
        r"failed|fails|called|on|of|for|in|at|got|received|requires?|needs?|and|or|to|"
        r"not)\b)[a-z][^.;!?]{0,80}?\bbefore\b",
        re.I,
    ),
)
# a value to pass that a private name decides: `_allow_empty`, `self._total_bytes` (not a
# dunder); a call to make that sets one ("Call `stop_profile()` ...: it sets `self._x`") is
# the user's own way out, and stays
_PASS_PRIVATE = re.compile(r"Pass\b.*`(?:[A-Za-z_][\w.]*\.)?_(?!_)\w*`")
_NEGATED = re.compile(r"\b(?:not|never|cannot|can't|don't|do not)\s*$", re.I)
_NOT_CALLED = frozenset({"property", "cached_property", "staticmethod", "classmethod"})


def stated_order_solution(facts: Facts) -> Solution | None:
    """ "Call `X` on your `C` object before `Y`" for a message that says the public method
    `X` of the site's class `C` must run first; else None."""
    site = facts.stored.site
    message = site.message
    owner, _, member = site.function.rpartition(".")
    if message is None or not owner or "." in owner or owner != site.class_name:
        return None
    stated = [
        (found, first)
        for pattern in _ORDERS
        for found in pattern.finditer(message.text)
        # "can't call X() before Y()" forbids the order it names
        if not _NEGATED.search(message.text[max(0, found.start() - 16) : found.start()])
        and (first := _own_name(found["first"] or found.groupdict().get("run") or "", owner))
        and first not in (member, member.lstrip("_"))
    ]
    # the message first: the class's methods need the whole file parsed
    call = user_call(facts, constructor=True) if stated else None
    if call is None:
        return None
    methods = _public_methods(facts, owner)
    for found, first in stated:
        if first in methods:
            then = _own_name(found.groupdict().get("then") or "", owner)
            before = then if then in methods and then != first else None
            if before is None and not member.startswith("_"):
                before = member
            elif before is None and member.lstrip("_") in methods:
                before = member.lstrip("_")  # `_merge` does the work of the public `merge`
            twin = "a" + first  # `aread` beside `read`: what an async stream needs instead
            is_twin = isinstance(methods.get(twin), ast.AsyncFunctionDef)
            also = (
                f" (or its async twin {code(twin)})"
                if is_twin and not _is_async(methods[first])
                else ""
            )
            other = _own_name(found.groupdict().get("other") or "", owner)
            if other in methods and other != first:
                also = f" (or {code(other)})"  # "unless rollback() or commit() is called"
            return _solution(call[0], owner, first, methods[first], before, message.text, also)
    return None


def _solution(
    target: str,
    owner: str,
    first: str,
    method: ast.FunctionDef | ast.AsyncFunctionDef,
    before: str | None,
    message: str,
    also: str = "",
) -> Solution:
    when = f"before {code(before)}" if before else "first"
    text = (
        f"Call {code(first)}{also} on your {code(owner)} object {when}, as the message says: "
        f"“{short_message(message)}”"
    )
    change = None
    if isinstance(method, ast.FunctionDef) and before is not None:
        change = Change(
            form="first",
            target=target,
            method=first,
            after=", ".join(method_arguments(method)),
            keyword=before,
        )
    return Solution(text=text, kind="input", change=change, advice=True)


def _is_async(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return isinstance(method, ast.AsyncFunctionDef)


def _own_name(name: str, owner: str) -> str | None:
    """`X` of `X` or of `Owner.X`; None for another object's method (`other.X`)."""
    prefix, _, last = name.rpartition(".")
    if not last or (prefix and prefix != owner):
        return None
    return last


def _public_methods(facts: Facts, owner: str) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The public instance methods of the class (in the site's file), by name."""
    found = class_in_file(facts, owner)
    return {
        m.name: m
        for m in (found.body if found is not None else [])
        if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)
        and not m.name.startswith("_")
        and not any(_decorator(d) in _NOT_CALLED for d in m.decorator_list)
        and (m.args.posonlyargs or m.args.args)
    }


def _decorator(node: ast.expr) -> str:
    """`property` of `@property`, `setter` of `@x.setter`, `cache` of `@functools.cache`."""
    node = node.func if isinstance(node, ast.Call) else node
    if isinstance(node, ast.Attribute):
        return "property" if node.attr in ("setter", "getter", "deleter") else node.attr
    return node.id if isinstance(node, ast.Name) else ""


def before_private(solutions: list[Solution], advised: list[Solution]) -> list[Solution]:
    """The solutions, those of the input on a private name that rank before the message's
    own advice (`advised`) moved to just after it."""
    if not advised:
        return solutions
    last = max(solutions.index(s) for s in advised)
    private = [
        s
        for s in solutions[:last]
        if s not in advised and s.kind == "input" and _PASS_PRIVATE.match(s.text)
    ]
    if not private:
        return solutions
    kept = [s for s in solutions if s not in private]
    at = kept.index(solutions[last]) + 1
    return kept[:at] + private + kept[at:]
