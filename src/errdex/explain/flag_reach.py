"""Flags that do not decide the condition: matched by name only, or feeding one call.

The linker names a flag for an attribute by its name (`config.temperature` → `--temperature`).
When only an argparse parser declares that flag (no configuration field of the name says
the flag writes such an object), the flag's value lands in that parser's namespace
(`args.temperature`) and nowhere else: an attribute of another object (vllm's per-request
`SamplingParams`, read as `config.temperature`) is not it, and the flag may belong to
another program altogether (`vllm bench serve`'s `--temperature`, offered for a condition
of the server). Such a knob is no setting of the condition.

A flag that only feeds one argument of a call among the code's own values, whose result
is then matched with another value (`oracles_match(expected,
toolset.request_oracle(args.host, args.port, manifest))`), picks where a value is fetched:
it does not decide what the match finds, so "change the flag" is no way out. A call whose
result is the test itself (`os.path.exists(args.path)`, `wait_for(procs, timeout)`) is
decided by what it is given, and keeps its way out.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.page import Knob
from errdex.facts import KnobKind

__all__ = ["only_fed", "own_flags"]

# Names code gives the namespace `parse_args()` returns.
_NAMESPACES = frozenset(
    {"args", "arguments", "options", "opts", "parsed_args", "ns", "namespace", "cli_args"}
)
_DECLARED = "argparse declares"


def own_flags(knobs: list[Knob]) -> list[Knob]:
    """The knobs without the flags matched to another object by name only."""
    return [k for k in knobs if not _name_only(k)]


def _name_only(knob: Knob) -> bool:
    if knob.kind != KnobKind.FLAG or not (knob.via or "").startswith(_DECLARED):
        return False
    if "field" in (knob.via or "") or knob.behind is None:
        return False  # a configuration field of the name: the flag writes such objects
    parts = knob.behind.split(".")
    return len(parts) >= 2 and parts[-2] not in _NAMESPACES


def only_fed(node: ast.expr, knob: Knob, knobs: list[Knob]) -> bool:
    """Whether every read of the knob's name in `node` is one argument of a call that also
    takes a value no knob stands for, whose result in turn is one argument of another call
    beside other values (`matches(expected, request(args.host, manifest))`): the flag picks
    where a value is fetched, not what the outer test finds. A call whose result is itself
    the test (`wait_for(procs, timeout)`) is decided by what it is given, and is kept."""
    behind = knob.behind
    if behind is None:
        return False
    settings = {k.behind for k in knobs if k.behind}
    reads = sum(1 for n in walk(node) if ast.unparse(n) == behind)
    if not reads:
        return False
    fed = 0
    for outer in walk(node):
        if not isinstance(outer, ast.Call):
            continue
        outer_args = _arguments(outer)
        for inner in outer_args:
            if not isinstance(inner, ast.Call):
                continue
            inner_args = _arguments(inner)
            hits = sum(1 for a in inner_args if ast.unparse(a) == behind)
            if not hits:
                continue
            rest = [a for a in inner_args if ast.unparse(a) not in settings]
            beside = [a for a in outer_args if a is not inner]
            if _variable(rest) and _variable(beside):
                fed += hits
    return fed == reads


def _arguments(call: ast.Call) -> list[ast.expr]:
    return [*call.args, *(k.value for k in call.keywords)]


def _variable(values: list[ast.expr]) -> bool:
    return any(not isinstance(v, ast.Constant) for v in values)
