"""What to say of a check with no way out found, when it is no bug to report.

"Hitting the check is worth reporting to the project" fits an invariant: an `assert`, an
`AssertionError`, `NotImplementedError` or `SystemError` raised where the authors hold
that the program cannot get. Any other class raised (`ValueError`, `TypeError`, a
`RuntimeError` for a use out of order, a package's own error such as SQLAlchemy's
`NoSuchTableError`) is how the code refuses a value or a use it was handed: a user's
argument, declaration, data or call order more often than a bug (click's `Boolean option
cannot use the same flag for true/false`, httpx's `Cannot send a request, as the client has
been closed`). A log record or a warning reports what the program met, as its authors
foresaw; the page does not call it harmless, since what it reports may be a step skipped or
a failure to come. For those the page says plainly that errdex found no setting or argument behind
the conditions and that the message and the traceback tell what was refused, not that the
project should hear of it.

A call of a helper that raises (`self._no_criterion_assertion("get")` in SQLAlchemy's
`Query.get`) is the same when the call is in a function the package hands its users (a
public method of a class at most two modules under the top package): the object it is
called on and the arguments are the user's (a query with criteria already, an alias
generator returning a non-string). Elsewhere the helper's inputs are as often the package's
own literals (`get_act_fn("gelu")` at import), and a call inside a `try` may be caught
right there (an `AttributeError` a lookup falls back from): those keep the invariant's text.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.plain import code
from errdex.explain.state_gated import INVARIANTS
from errdex.explain.user_values import entry_point
from errdex.facts import SiteKind

__all__ = ["INVARIANTS", "NOT_FOLLOWED", "refused_use"]

# after "errdex found no setting or argument a user passes behind that"
NOT_FOLLOWED = "So no solution is offered."


def refused_use(facts: Facts) -> str | None:
    """The sentence for a refused value or use, or a reported event; None for an invariant
    (or a raise of no known class)."""
    site = facts.stored.site
    if site.kind in (SiteKind.LOG, SiteKind.WARN):
        # whether it is harmless is not known: the step it reports may be skipped ("will
        # not proceed") or fail later (a connection string without its driver)
        return f"{NOT_FOLLOWED} The message says what the program met."
    helper = site.kind == SiteKind.HELPER and _users_call(facts)
    if (site.kind != SiteKind.RAISE and not helper) or not site.exception:
        return None
    info = facts.stored.exception
    # `PydanticUndefinedAnnotation.from_name_error(e)`: the class, not its factory
    words = [w for w in site.exception.split(".") if w[:1].isupper()]
    name = info.name if info is not None else (words[-1] if words else "")
    bases = {b.rpartition(".")[2] for b in info.bases} if info is not None else set()
    if not name or {name, *bases} & INVARIANTS or not name.isidentifier():
        return None  # an invariant, or a subclass of one
    said = ", as its message says" if site.message is not None else ""
    where = "by the helper called here" if helper else "here"
    return (
        f"{NOT_FOLLOWED} {code(name)} is raised {where} for what the code was handed or met "
        f"(a value, a call out of order, the data or a service it read){said}; the "
        "traceback's frames above this one show which call led here."
    )


def _users_call(facts: Facts) -> bool:
    """Whether the site's function is one users call (`entry_point`) and the call of the
    helper is in no `try` of it."""
    if entry_point(facts) is None:
        return False
    function = facts.site_function()
    if function is None:
        return False
    line = facts.stored.site.line
    return not any(
        isinstance(node, ast.Try | ast.TryStar)
        and node.body
        and node.body[0].lineno <= line <= (node.body[-1].end_lineno or node.body[-1].lineno)
        for node in walk(function)
    )
