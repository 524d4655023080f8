"""A check only the package's own bookkeeping can trip: say so, and where to report it.

A page with no way out leaves a user stuck on an internal check asking what to do. When
the evidence is positive that nothing of theirs decides the check, the answer is that
hitting it is a bug in the package (or a combination it did not foresee), to report with
the traceback and the versions. The evidence: the site is an `assert` or an invariant's
raise, under no `except`; no setting is linked behind its conditions or gates the path to
it; no argument of its function is read; and every name the conditions read comes from
literals, constants and classes (`own_state.computed_alone`), or from private attributes
of `self` that only the site's class sets, from such values (`own_attributes`), in a class
the package does not hand its users (so neither their arguments nor the order of their
calls set them) and that no class in another file derives from or is derived from (the
linker's count, `IndexedSite.kin`). Without all of that, nothing is said: a flag, the user's
data or a service may be what trips the check.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.own_attributes import AttributeReader, may_be_own
from errdex.explain.own_state import computed_alone, held_tests, own_computation, own_constants
from errdex.explain.page import OwnCheck
from errdex.explain.plain import code
from errdex.explain.private_names import private_name
from errdex.explain.state_gated import users_call
from errdex.facts import ConditionKind, SiteKind

__all__ = ["bookkeeping_sentence", "own_bookkeeping", "own_check"]

_MEMO = "bookkeeping"
_SAID = "bookkeeping_said"


def own_bookkeeping(facts: Facts) -> tuple[str, ...] | None:
    """The private attributes of `self` the check reads (empty when it reads only what its
    function computes from literals and constants) when only the package's own state
    decides it; None without that evidence (once per page)."""
    return facts.once(_MEMO, lambda: _bookkeeping(facts))


def own_check(facts: Facts) -> OwnCheck | None:
    """What the page said of a check only the package's own state decides, when it did."""
    said: OwnCheck | None = facts.memo.get(_SAID)
    return said


def bookkeeping_sentence(facts: Facts, attributes: tuple[str, ...]) -> str:
    """The sentence of "What it means", kept for the JSON page's `own_check` too."""
    stored = facts.stored
    project = stored.project
    function = stored.site.function
    if attributes:
        names = ", ".join(code(f"self.{a}") for a in attributes)
        owner = function.rpartition(".")[0]
        what = f"{names}, which only {code(owner)} sets, from its own values"
    else:
        computes = "the module" if function == "<module>" else code(function)
        what = f"what {computes} computes itself from literals and constants"
    where = f" at {facts.tracker}" if facts.tracker else ""
    text = (
        f"So no solution is offered: the check guards {project}'s own bookkeeping ({what}), "
        "no setting or argument of yours is known to reach it, and hitting it means a bug "
        f"in {project} or a use it did not foresee, worth reporting to the project{where} "
        f"with the traceback and the versions of {project} and Python."
    )
    facts.memo[_SAID] = OwnCheck(text=text, attributes=list(attributes), report_to=facts.tracker)
    return text


def _bookkeeping(facts: Facts) -> tuple[str, ...] | None:
    stored = facts.stored
    site = stored.site
    if site.kind not in (SiteKind.ASSERT, SiteKind.RAISE):
        return None
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions) or facts.read.placement:
        return None  # what a `try` met, or the `else` of a loop: not the state alone
    if facts.knobs or stored.gates or stored.requests or stored.selections:
        return None  # a setting is read on the way
    if own_computation(facts):
        return ()
    owner = site.function.rpartition(".")[0]
    if not owner or "." in owner or facts.source_text is None or users_call(facts):
        return None  # a class handed to users: their calls set its attributes
    if stored.kin != 0:
        return None  # a subclass or base in another file may set them (or none counted)
    function = facts.site_function()
    arguments = function.args.posonlyargs + function.args.args if function else []
    if function is None or not arguments or arguments[0].arg != "self":
        return None
    tests = held_tests(facts)
    constants = own_constants(facts)
    asked: set[str] = set()

    def hoped(attr: str, _binding: bool) -> bool:
        asked.add(attr)
        return private_name(attr)

    # first as if every private attribute were the class's own: the class (which may be
    # thousands of lines) is parsed only when nothing else the check reads is outside
    if not tests or not computed_alone(function, tests, constants, hoped):
        return None
    if any(not may_be_own(facts.source_text, a) for a in asked):
        return None
    cls = facts.own_class()
    if cls is None:
        return None
    package = stored.module.split(".")[0]

    def own_test(method: ast.FunctionDef | ast.AsyncFunctionDef, values: list[ast.AST]) -> bool:
        return computed_alone(method, values, constants, reader.own)

    reader = AttributeReader(cls, facts.source_text, package, own_test)
    if not computed_alone(function, tests, constants, reader.own):
        return None
    read = {
        n.attr
        for n in walk(function)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
    }
    named = tuple(sorted(reader.used & read))
    return named or None
