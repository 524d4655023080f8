"""An invariant between a setting and what the function is handed: no setting is the way out.

An `assert` (or a `raise AssertionError`) in a method that runs on the program's own data
(a batch, a layer's tensors) that compares a value a setting decides with a value only the
function's arguments give is the code checking itself: vllm's
`RoutedExpertsCapturer._restore_local_topk_ids` compares `topk_ids.shape[0]` with
`(num_local_tokens + self.tp_size - 1) // self.tp_size`; `NgramProposerGPU.propose` asserts
`num_speculative_tokens == self.k`, where both come from `--speculative-config`, one through
the runner that calls it. The argument is made by the package's own caller from the same
settings (or is the shape of a tensor it made), so "change `--tensor-parallel-size`" moves
both sides or neither: a user who changes it meets the check again. Only the vague way out
("change the flag, which X follows") is left out: a setting with an exact value of its
own (`--enforce-eager`) is another road, and a constructor's arguments are the model's
shape (`assert total_num_kv_heads % tp_size == 0`), for which a setting is the way out.
"""

from __future__ import annotations

import ast
import builtins

from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.state_gated import users_call
from errdex.extract.conditions import dotted_names
from errdex.facts import SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = ["handed_invariant", "invariant_sentence"]

_SAID = "handed_invariants:said"

_ORDERS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_DEPTH = 4  # bindings followed through at most this many locals
_BUILTINS = frozenset(dir(builtins))  # `int(...)`, `len(...)`: no value of their own


def handed_invariant(solution: Solution, facts: Facts) -> bool:
    """Whether the solution changes a setting only so that a value it decides meets one the
    site's function is handed, in an assertion of the function's own (see the module)."""
    if solution.kind != "setting" or solution.knob is None or solution.condition is None:
        return False
    if not solution.text.startswith("Change "):
        return False  # an exact value of the setting's own: another road
    knob = next((k for k in facts.knobs if k.name == solution.knob), None)
    behind = knob.behind if knob is not None else None
    site = facts.stored.site
    asserted = site.kind is SiteKind.ASSERT or (
        site.kind is SiteKind.RAISE and (site.exception or "").endswith("AssertionError")
    )
    if behind is None or not asserted:
        return False
    function = facts.site_function()
    if function is None or function.name == "__init__":
        return False  # a constructor's arguments are the model's shape: the setting fits it
    if users_call(facts):
        return False  # a function the package hands users: what it is handed may be theirs
    test = parse_expression(solution.condition)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    if not isinstance(test.ops[0], _ORDERS):
        return False
    sides = [test.left, test.comparators[0]]
    if any(isinstance(s, ast.Constant) for s in sides):
        return False
    values = {b.name: b.value for b in facts.bindings if b.origin == "local"}
    read = [_read(side, values) for side in sides]
    decided = [behind in names for names in read]
    if decided.count(True) != 1:
        return False
    handed = read[decided.index(False)]
    settings = {k.behind for k in facts.knobs if k.behind is not None}
    if any(n == b or n.startswith(b + ".") for n in handed for b in settings):
        return False  # a setting decides the other side too: the user's command line
    params = {a.arg for a in (*function.args.posonlyargs, *function.args.args)}
    params |= {a.arg for a in function.args.kwonlyargs}
    params -= {"self", "cls"}
    roots = {name.partition(".")[0] for name in handed} - _BUILTINS
    if not roots or not roots <= params:
        return False
    facts.memo.setdefault(_SAID, (solution.knob, behind, sorted(roots)))
    return True


def invariant_sentence(facts: Facts) -> str | None:
    """What "What it means" says of a setting left out by `handed_invariant`, or None."""
    said: tuple[str, str, list[str]] | None = facts.memo.get(_SAID)
    if said is None:
        return None
    knob, behind, roots = said
    given = ", ".join(code(r) for r in roots)
    function = facts.stored.site.function.rpartition(".")[2]
    return (
        f"Changing {code(knob)} is no way out: the check ties {code(behind)}, which follows "
        f"it, to what {code(function)} is handed ({given}), which the package's own caller "
        "makes: the assertion is the code's own invariant."
    )


def _read(node: ast.expr, values: dict[str, str], depth: int = 0) -> set[str]:
    """The names (dotted) a side reads, locals replaced by what they were assigned."""
    found: set[str] = set()
    for name in dotted_names(node):
        value = values.get(name)
        parsed = parse_expression(value) if value is not None and depth < _DEPTH else None
        if parsed is None:
            found.add(name)
        else:
            found |= _read(parsed, values, depth + 1)
    return found
