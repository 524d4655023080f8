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
import re
from collections.abc import Callable, Sequence

from errdex.ast_walk import walk
from errdex.explain.across_pages import AcrossPages
from errdex.explain.context import Facts, kept_module, top_block_at
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
# a config object's field (`self.vllm_config.compilation_config.compile_sizes`), or a
# setting read from the environment module (`envs.X`): a value the user sets
_CONFIG = re.compile(r"(?:^|_)config$", re.IGNORECASE)
# (revision, function's name, parameter, position) → whether a call of the version hands
# the parameter a value a setting gives
_HANDED: AcrossPages[bool] = AcrossPages(256)


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
    if _setting_handed(facts, function, roots):
        return False  # a call hands it a setting's value: the setting moves one side only
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


def _setting_handed(facts: Facts, function: ast.FunctionDef, roots: set[str]) -> bool:
    """Whether a call of the function anywhere in the version's kept files (the linker
    resolves no call through another object, `self.model_runner._dummy_run(size)`) hands
    one of `roots` a value taken from a setting: a config object's field, or a loop over
    one (`for size in compile_sizes: run(size)`), followed through the calling function's
    locals. The user who sets it reaches the check with a value of their own, and the
    setting the site compares it with is a way out. True when the files cannot be read."""
    file_text, version_paths = facts.file_text, facts.version_paths
    if file_text is None or version_paths is None:
        return True
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if positional[:1] in (["self"], ["cls"]):
        positional = positional[1:]
    revision = facts.stored.revision
    name = function.name

    def handed(root: str) -> bool:
        position = positional.index(root) if root in positional else None
        return _HANDED.kept(
            (revision, name, root),
            lambda: _calls_hand_setting(file_text, version_paths(), name, root, position),
        )

    return any(handed(root) for root in sorted(roots))


def _calls_hand_setting(
    file_text: Callable[[str], str | None],
    paths: Sequence[str],
    name: str,
    parameter: str,
    position: int | None,
) -> bool:
    """Whether a call `name(...)` / `x.name(...)` of the kept files hands `parameter` (by
    keyword, or at `position`) a value a setting gives (see `_setting_handed`)."""
    called = re.compile(rf"(?<![\w]){re.escape(name)}\(")
    opened = f"{name}("  # (a search opening with a lookbehind tries every character)
    for path in paths:
        text = file_text(path) if path.endswith(".py") else None
        if text is None or opened not in text or called.search(text) is None:
            continue
        seen: set[int] = set()
        for found in called.finditer(text):
            line = text.count("\n", 0, found.start()) + 1
            block = top_block_at(text, line)
            tree: ast.AST | None = block if block is not None else kept_module(text)
            if tree is None or id(tree) in seen or (block is not None and block.lineno in seen):
                continue
            seen.add(block.lineno if block is not None else id(tree))
            if _hands_setting(tree, name, parameter, position):
                return True
    return False


def _hands_setting(tree: ast.AST, name: str, parameter: str, position: int | None) -> bool:
    """`_calls_hand_setting` in one parsed block: each function's calls of `name`."""
    for caller in walk(tree):
        if not isinstance(caller, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        values: dict[str, list[ast.expr]] = {}
        for node in walk(caller):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        values.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
                if isinstance(node.target, ast.Name):
                    values.setdefault(node.target.id, []).append(node.value)
            elif isinstance(node, ast.For | ast.comprehension) and isinstance(
                node.target, ast.Name
            ):
                values.setdefault(node.target.id, []).append(node.iter)
        for call in walk(caller):
            if not isinstance(call, ast.Call):
                continue
            callee = call.func
            named = callee.attr if isinstance(callee, ast.Attribute) else None
            named = callee.id if isinstance(callee, ast.Name) else named
            if named != name:
                continue
            given = [k.value for k in call.keywords if k.arg == parameter]
            before = call.args[: position + 1] if position is not None else []
            if len(before) == (position or 0) + 1 and not any(
                isinstance(a, ast.Starred) for a in before
            ):
                given.append(before[-1])
            if any(_from_setting(g, values, 0) for g in given):
                return True
    return False


def _from_setting(node: ast.expr, values: dict[str, list[ast.expr]], depth: int) -> bool:
    """Whether the value reads a setting (a config object's field, `envs.X`), locals and
    loop variables followed to what they were given."""
    for dotted in dotted_names(node):
        parts = dotted.split(".")
        if parts[0] == "envs" and len(parts) > 1:
            return True
        if any(_CONFIG.search(p) for p in parts[:-1]):
            return True
        followed = values.get(parts[0], []) if depth < _DEPTH else []
        if any(_from_setting(v, values, depth + 1) for v in followed):
            return True
    return False


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
