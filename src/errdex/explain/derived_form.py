"""The message's rule said of the argument a check sees only through locals made from it.

click's `HelpFormatter.write_dl(rows)` does `rows = list(rows)`, `widths =
measure_table(rows)` and raises "Expected two columns for definition list" when
`len(widths) != 2`; rich's `Color.parse(color)` lowers and strips `color`, matches a
pattern, splits a group of the match and raises "expected three components in ..." when
the parts are not three. The test names no parameter, but every name the path's checks
read is computed from one parameter alone (with literals, builtins and the module's own
names, not those of the machine's state: `init_contents.derived_from`), so the value the
check sees is what the user passed there: "Change what you pass for `rows` of
`HelpFormatter.write_dl` as the message says", with the parameter's `:param rows:` line
when the docstring has one. Only where the message states a rule (what must, should or is
expected to be: `stated_requirement`'s forms, or a sentence opening with "expected"), for
a `raise` of a function a user calls (`stated_form`'s bounds) in a library (a package
with no command of its own: vllm's tool parsers check what the model wrote), and as the
last way out tried: where no other rule offers one (`user_data` says more where the
locals call no module function). A local that reads `self`, another parameter or the
program's state is not the argument: such checks get nothing here.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.closure_switch import param_doc
from errdex.explain.context import Facts
from errdex.explain.entry_input import names_read
from errdex.explain.init_contents import condition_reads, derived_from
from errdex.explain.inputs import public_name
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.stated_form import shallow_call
from errdex.explain.stated_requirement import message_text, requirements
from errdex.explain.table_lookup import module_names
from errdex.explain.user_data import STATE_NAMES
from errdex.extract.shapes import BUILTIN_NAMES
from errdex.facts import ConditionKind, SiteKind

# "Expected two columns for definition list", "expected three components in {x!r}": what
# the value was to be, with no "got" after it (`stated_requirement` reads the others)
_EXPECTED = re.compile(r"^expected\s+\w", re.I)
# The kinds of check a value passed decides: a test, an exit, a loop over it.
_CHECKS = frozenset(
    {
        ConditionKind.IF,
        ConditionKind.ELIF,
        ConditionKind.ELSE,
        ConditionKind.EARLY_EXIT,
        ConditionKind.LOOP,
    }
)


def derived_form_solution(facts: Facts) -> Solution | None:
    """ "Change what you pass for `p` of `f` as the message says", where the path's checks
    read only locals made from `p`; else None."""
    site = facts.stored.site
    message = site.message
    if site.kind != SiteKind.RAISE or message is None or not facts.held:
        return None
    if facts.scripts:
        # a package driven by its command hands its functions what its own code computed
        # (a model's output, its configs' type hints): the user's values come in by the
        # command's flags, which the setting rules follow
        return None
    if not public_name(site.function) or not _states_rule(message.text):
        return None
    if any(c.kind not in _CHECKS for c in facts.conditions):
        return None  # under an `except`, a `with`...: what failed is not the value alone
    reads = [condition_reads(c.text) for c in facts.conditions]
    test = reads[facts.conditions.index(facts.held[-1])]
    if shallow_call(facts) is None:
        return None
    function = facts.site_function()
    tree = facts.source_tree() if function is not None else None
    if function is None or tree is None:
        return None
    # the module's names, but those that read the machine's or the program's state
    fixed = (BUILTIN_NAMES | module_names(tree) | _defined(tree)) - STATE_NAMES
    read = set().union(*reads)
    for param in _given(function):
        if _replaced(function, param):
            continue  # `size = default_size()` when none is given: not the user's value
        derived = derived_from(function, param, fixed)
        if not test & (derived - {param}) or not read <= derived | fixed:
            continue  # the test reads the argument itself (the input rules'), or more
        owner, _, method = site.function.rpartition(".")
        callable_ = owner if method == "__init__" else site.function
        text = (
            f"Change what you pass for {code(param)} of {code(callable_)} as the message "
            f"says: “{message_text(facts)}”"
        )
        documented = param_doc(function, param)
        if documented:
            text += f"; its docstring: “{documented}”"
        return Solution(text=text, condition=facts.held[-1].text, kind="input")
    return None


def _states_rule(message: str) -> bool:
    """Whether the message states what a value must be, not only what went wrong."""
    first = re.split(r"(?<=[.;])\s+", message.strip(), maxsplit=1)[0]
    return _EXPECTED.match(first) is not None or any(
        r.verb not in ("implement", "define") for r in requirements(message)
    )


def _defined(tree: ast.Module) -> set[str]:
    """The functions and classes the module defines, and the modules it imports: names a
    local computed from the argument may call without reading the program's state."""
    names: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Import):
            names |= {(a.asname or a.name).split(".")[0] for a in statement.names}
    return names


def _replaced(function: ast.FunctionDef, param: str) -> bool:
    """Whether the function binds `param` anew to a value not computed from it (`size =
    default_size()` under `if size is None`, a loop over it, a `with ... as`): the check
    may then see a value the user never passed. `rows = list(rows)` keeps it theirs."""
    kept = 0
    for node in walk(function):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and node.value:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            own = [t for t in targets if isinstance(t, ast.Name) and t.id == param]
            if own and (isinstance(node, ast.AugAssign) or param in names_read(node.value)):
                kept += len(own)
    stored = sum(
        isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Store)
        for n in walk(function)
    )
    return stored > kept


def _given(function: ast.FunctionDef) -> list[str]:
    """The parameters a caller gives one value each (not `self`, `cls`, `*args`,
    `**kwargs`), none named private."""
    args = function.args
    return [
        a.arg
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)
        if a.arg not in ("self", "cls") and not a.arg.startswith("_")
    ]
