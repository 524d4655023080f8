"""The object a user handed a public call lacks what the error's class name says it must be.

SQLAlchemy's `Session.delete(instance)` reads the ORM's state of the object it is given
(`attributes.instance_state(instance)`, inside a `try`) and, when there is none, raises
`UnmappedInstanceError(instance)`: the object is no instance of a mapped class. The check
tests nothing a setting decides, and the call that failed is the library's own helper, so
the page had only "fix what the error's cause names" (the `AttributeError` of a missing
attribute), which says nothing of what to pass. The error's class says it: it is raised
with the value given as its only argument, and its name is the property that value lacks,
negated (`Un` + `mapped` + `Instance` + `Error`): the way out is a value that has it, "a
mapped instance", given to the public call as the argument the user wrote.

Taken only where all of these hold, so that the name speaks of the value given and of
nothing the package computed: the site raises the class with one argument, a parameter of
the site's function that the function never rebinds (the object as the user handed it);
the class's name is `Un<participle><Noun>Error` (`UnmappedClassError`, not
`UnsupportedCompilationError(compiler, type)`, whose arguments are the package's, nor
`UnboundExecutionError`, raised with a message); the function is one a user calls (a public
name with a public import path, no operator such as `__get__` or `__contains__`, which no
user calls by name), and the parameter is no private keyword.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.inputs import public_name
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.user_data import local_sources
from errdex.facts import SiteKind

__all__ = ["lacked_property_solution"]

# `UnmappedInstanceError`: the property (`mapped`, a participle) and what lacks it (`Instance`)
_LACKING = re.compile(r"^Un(?P<property>[a-z]+ed)(?P<noun>[A-Z][a-z]+)Error$")
_OWN = frozenset({"self", "cls"})


def lacked_property_solution(facts: Facts) -> Solution | None:
    """ "Give `Session.delete()` a mapped instance as `instance`", for a raise of
    `UnmappedInstanceError(instance)` in a public function whose parameter it is."""
    stored = facts.stored
    site = stored.site
    if site.kind is not SiteKind.RAISE or site.exception is None or len(site.args) != 1:
        return None
    name = site.exception.rpartition(".")[2]
    lacking = _LACKING.match(name)
    given = site.args[0].source
    if lacking is None or not given.isidentifier() or given in _OWN or given.startswith("_"):
        return None
    member = site.function.rpartition(".")[2]
    public = stored.public_path()
    if public is None or not public_name(site.function) or member.startswith("__"):
        return None  # the package's own helper, or an operator no user calls by name
    if any(part.startswith("_") for part in public.split(".")):
        return None  # reached only by a private path: no call a user writes
    function = facts.site_function()
    if function is None or given not in _parameters(function) or given in local_sources(function):
        return None  # a value the function computed, not the one handed in
    wanted = f"{lacking['property']} {lacking['noun'].lower()}"
    article = "an" if wanted[0] in "aeiou" else "a"
    return Solution(
        text=(
            f"Give {code(public + '()')} {article} {wanted} as {code(given)}: the error is "
            f"raised with the value given there (line {site.line}), and its class, "
            f"{code(name)}, says that value is not {article} {wanted}."
        ),
        kind="input",
    )


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters a caller fills by name or position (not `*args`/`**kwargs`)."""
    args = function.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
