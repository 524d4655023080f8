"""An attribute left None by the one object that makes its class: that maker's own setting.

click's `Result.stderr` raises "stderr not separately captured" when `self.stderr_bytes is
None`. A user never makes a `Result`: the one call of `Result(...)` in its file is
`CliRunner.invoke`'s, which passes `stderr_bytes=stderr` after `if self.mix_stderr: stderr
= None` (else the captured text), and `CliRunner.__init__` keeps its own `mix_stderr`
argument as `self.mix_stderr`. "Give `stderr_bytes` of `Result` a value" is no call a user
writes; the way out is the maker's setting, `CliRunner(mix_stderr=False)`. Taken when the
path's one condition is `self.X is None` in a method of a public class `C` whose constructor
keeps its argument `X` as `self.X`, the file calls `C(...)` once, in a method of another
public class `M`, with `X=v`, that method assigns `v` None only in the branch of one `if
self.Y:` (or `if not self.Y:`) whose other branch gives it another value, and `M`'s
constructor alone sets `self.Y`, from its own argument `Y`.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts, class_in_file
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.plain import code
from errdex.explain.user_call import user_call
from errdex.extract.shapes import is_none, self_attribute

__all__ = ["maker_setting_solution"]

_Def = ast.FunctionDef | ast.AsyncFunctionDef


def maker_setting_solution(facts: Facts) -> Solution | None:
    """ "Make the `CliRunner` with `mix_stderr=False` ..." for a `self.X is None` check of
    a class one method of another class makes with `X` None under its own switch; else
    None."""
    owner = facts.stored.site.function.rpartition(".")[0]
    if not owner or "." in owner or owner.startswith("_") or len(facts.conditions) != 1:
        return None
    condition = facts.conditions[0]
    attribute = _none_test(condition.text)
    if attribute is None:
        return None  # most pages end here: the file is not parsed
    tree = facts.source_tree()
    made = class_in_file(facts, owner)
    if tree is None or made is None or not _keeps(made, attribute):
        return None
    calls = [
        (c, n)
        for c in tree.body
        if isinstance(c, ast.ClassDef) and c.name != owner
        for n in walk(c)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == owner
    ]
    if len(calls) != 1 or calls[0][0].name.startswith("_"):
        return None
    maker, call = calls[0]
    given = [k.value for k in call.keywords if k.arg == attribute]
    if len(given) != 1 or not isinstance(local := given[0], ast.Name):
        return None
    method = next((f for f in maker.body if isinstance(f, _Def) and call in set(walk(f))), None)
    switch = _switch(method, local.id) if method is not None else None
    if method is None or switch is None:
        return None
    test, flag, wanted = switch
    if not _keeps(maker, flag) or _set_elsewhere(maker, flag):
        return None
    found = user_call(facts, constructor=True)
    module = found[0].rpartition(".")[0] if found is not None else ""
    path = f"{module}.{maker.name}" if module else maker.name
    held = "is not set" if wanted == "True" else "is set"
    text = (
        f"Make the {code(path)} with {code(f'{flag}={wanted}')}: "
        f"{code(f'{maker.name}.{method.name}')} makes the {code(owner)} (line {call.lineno}) "
        f"with {code(attribute)} None when {code(f'self.{flag}')} {held} (line "
        f"{test.lineno}), which its constructor's {code(flag)} sets; "
        f"{code(f'{owner}.{attribute}')} is None only then."
    )
    head = f"from {module} import {maker.name}\n" if module else ""
    fix = ExampleFix(
        before=f"{head}{maker.name}()",
        after=f"{head}{maker.name}({flag}={wanted})",
        note=f"Keep the other arguments you give {code(maker.name)}.",
    )
    return Solution(text=text, condition=condition.text, kind="setting", fix=fix)


def _none_test(text: str) -> str | None:
    """`X` of the condition `self.X is None`; else None."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is)
        and is_none(node.comparators[0])
    ):
        return None
    return self_attribute(node.left)


def _keeps(cls: ast.ClassDef, attribute: str) -> bool:
    """Whether `__init__` takes an argument of that name and keeps it as
    `self.<attribute>` as it is."""
    init = next((f for f in cls.body if isinstance(f, _Def) and f.name == "__init__"), None)
    if init is None or attribute not in {a.arg for a in (*init.args.args, *init.args.kwonlyargs)}:
        return False
    return any(
        isinstance(node, ast.Assign)
        and any(self_attribute(t) == attribute for t in node.targets)
        and isinstance(node.value, ast.Name)
        and node.value.id == attribute
        for node in walk(init)
    )


def _set_elsewhere(cls: ast.ClassDef, attribute: str) -> bool:
    """Whether a method other than the constructor assigns `self.<attribute>`."""
    for method in cls.body:
        if not isinstance(method, _Def) or method.name == "__init__":
            continue
        for node in walk(method):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            if any(self_attribute(t) == attribute for t in targets):
                return True
    return False


def _switch(method: _Def, local: str) -> tuple[ast.expr, str, str] | None:
    """(the test, the attribute it reads, the value that keeps `local` off None) when
    the method assigns `local` None only in one branch of `if self.Y:` / `if not self.Y:`
    whose other branch assigns it another value; else None."""
    nones = [
        n
        for n in walk(method)
        if isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == local for t in n.targets)
        and is_none(n.value)
    ]
    if len(nones) != 1:
        return None
    for node in walk(method):
        if not isinstance(node, ast.If) or not node.orelse:
            continue
        test = node.test
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        read = test.operand if isinstance(test, ast.UnaryOp) and negated else test
        flag = self_attribute(read)
        if flag is None:
            continue
        if nones[0] in node.body and _assigns(node.orelse, local):
            return test, flag, "True" if negated else "False"
        if nones[0] in node.orelse and _assigns(node.body, local):
            return test, flag, "False" if negated else "True"
    return None


def _assigns(body: list[ast.stmt], local: str) -> bool:
    """Whether the branch assigns `local` a value other than None."""
    return any(
        isinstance(s, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == local for t in s.targets)
        and not is_none(s.value)
        for s in body
    )
