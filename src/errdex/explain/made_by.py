"""A class that checks it was made by its maker: use that maker, not the class on its own.

SQLAlchemy's `ShardedQuery.__init__` asserts `isinstance(self.session, ShardedSession)`,
and `ShardedSession.__init__(..., query_cls=ShardedQuery)` is what makes one: a user does
not call `ShardedQuery(...)`, they query a session, and the session builds its query class.
"Pass `session` as a `ShardedSession`" is right but no call a user writes; the way out is
the maker, the class whose constructor takes the checked class as a parameter's default.
Taken when a check of the class's own code (its constructor, or a method) is `not
isinstance(<x>, M)`, and `M`, a public class of the same file, has a constructor whose
parameter defaults to the checked class: a `C` handed to something else as that parameter
(another session's `query_cls=`) is what trips the check. What is checked is the object's
own attribute (`self.session`, which its maker sets): a method's argument the user passes
(`merge(other)`) says nothing of how the object was made.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.override_hatch import taking_class
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.link.expression_texts import negated_call

__all__ = ["made_by_solution"]


def made_by_solution(facts: Facts) -> Solution | None:
    """ "Make the `C` through a `M` ..." for a check in class `C` that something is a `M`,
    whose constructor takes `C` as a parameter's default; else None."""
    owner = facts.stored.site.function.rpartition(".")[0]
    if not owner or "." in owner or owner.startswith("_") or not facts.held:
        return None
    condition = facts.held[-1]
    call = negated_call(condition.text, "isinstance")
    if call is None or len(call.args) != 2 or not isinstance(wanted := call.args[1], ast.Name):
        return None
    held = call.args[0]
    if not (isinstance(held, ast.Attribute) and isinstance(held.value, ast.Name)):
        return None
    if held.value.id != "self":
        return None  # an argument the user hands a method (`merge(other)`), not its maker's
    maker = wanted.id
    if maker.startswith("_") or maker == owner or maker not in (facts.source_text or ""):
        return None
    params = [p for p, f in taking_class(facts, owner) if f == f"{maker}.__init__"]
    if not params:
        return None
    checked = ast.unparse(held)
    return Solution(
        text=(
            f"Make the {code(owner)} through a {code(maker)}, whose {code(params[0] + '=')} "
            f"defaults to it: this check (line {condition.line}) needs {code(checked)} to be "
            f"a {code(maker)}; a {code(owner)} given as {code(params[0] + '=')} to a class "
            f"that is no {code(maker)} fails it."
        ),
        condition=condition.text,
        kind="input",
    )
