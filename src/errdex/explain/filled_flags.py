"""A flag whose absence the code fills with a default object: leaving it out is no way out.

vllm's `DeepseekV4Model.__init__` calls `can_share_engram_tables` only when `engram_config
is not None`, and `engram_config` is the field `--engram-config` sets. "Do not pass
`--engram-config` in any form" reads as a way out, but `VllmConfig` makes a default one when
the flag is left out (`if self.engram_config is None: ... self.engram_config =
EngramConfig()`), and the check runs as before. Read where a settings class fills its
fields: the file that declares the flag and the files of the class the flag's field is
handed to there (`VllmConfig(..., engram_config=self.engram_config)`). A fill counts when
its function reaches the `if ... is None:` with no return before it (a method that returns
first for another setting fills only then) and the block assigns the field an object of the
flag's own declared class (`EngramConfig | None`); an exit inside the block (no Engram
layers in the model) is the code choosing the feature applies at all.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from errdex.explain.context import Facts, parse_module
from errdex.explain.page import Knob, Solution
from errdex.explain.parse_cache import kept_parse
from errdex.explain.plain import code
from errdex.extract.request_models import callee_at
from errdex.facts import KnobKind

__all__ = ["filled_flag", "filled_knob", "filled_sentence"]

_MAX_FILES = 3  # files of the receiving class read
_TYPE = re.compile(r"^\s*(?:Optional\[\s*([A-Za-z_]\w*)\s*\]|([A-Za-z_]\w*)\s*\|\s*None)\s*$")
_FOUND = "filled_flags.found"  # the flags "What it means" speaks of
_READ = "filled_flags.read"  # every flag read, filled or not


def filled_flag(solution: Solution, facts: Facts) -> bool:
    """Whether `solution` leaves out a flag whose field the code fills with a default object
    of its own class when it is left out (kept for "What it means": `filled_sentence`)."""
    knob = _left_out(solution, facts)
    return knob is not None and _filled(knob, facts, said=True)


def filled_knob(name: str, facts: Facts) -> bool:
    """Whether leaving out the flag `name` is no way out, the code filling its field with a
    default object (the example fix drawn from a setting on the path leaves it in)."""
    knob = next((k for k in facts.knobs if k.name == name and k.kind is KnobKind.FLAG), None)
    return knob is not None and _filled(knob, facts, said=False)


def _filled(knob: Knob, facts: Facts, said: bool) -> bool:
    """Whether the code fills `knob`'s field when it is left out, read once a page; `said`
    keeps it for "What it means"."""
    found: dict[str, tuple[str, str, int]] = facts.memo.setdefault(_FOUND, {})
    read: dict[str, tuple[str, str, int] | None] = facts.memo.setdefault(_READ, {})
    if knob.name not in read:
        read[knob.name] = _fill(knob, facts)
    fill = read[knob.name]
    if fill is not None and said:
        found[knob.name] = fill
    return fill is not None


def filled_sentence(facts: Facts) -> str | None:
    """What "What it means" says of a left-out flag the code fills in, or None."""
    found: dict[str, tuple[str, str, int]] = facts.memo.get(_FOUND, {})
    if not found:
        return None
    flag, (function, file, line) = next(iter(found.items()))
    return (
        f"Leaving out {code(flag)} is no way out: when it is left out, {code(function)} "
        f"makes a default one in its place ({file}:{line})."
    )


def _left_out(solution: Solution, facts: Facts) -> Knob | None:
    """The flag of "Do not pass `--x` in any form" (its field left as None), or None."""
    flag = solution.knob
    if solution.kind != "setting" or not solution.drops or flag is None:
        return None
    if not solution.text.startswith(f"Do not pass `{flag}` in any form"):
        return None
    return next((k for k in facts.knobs if k.name == flag and k.kind is KnobKind.FLAG), None)


def _fill(knob: Knob, facts: Facts) -> tuple[str, str, int] | None:
    """(the function, the file, the line) of the default object assigned to the flag's field
    where it is None, or None."""
    made = _TYPE.match(knob.value_type or "")
    if made is None or knob.file is None or facts.file_text is None or facts.class_files is None:
        return None
    cls = made.group(1) or made.group(2)
    field = knob.name.lstrip("-").replace("-", "_")
    if not field.isidentifier():
        return None
    declared = facts.file_text(knob.file)
    if declared is None:
        return None
    files = [knob.file]
    for receiver in _receivers(declared, field):
        files.extend(f for f in facts.class_files(receiver)[:_MAX_FILES] if f not in files)
    for file in files:
        text = declared if file == knob.file else facts.file_text(file)
        tree = _parsed(text) if text else None
        if tree is None:
            continue
        for function, line in _fills(tree, field, cls):
            return function, file, line
    return None


def _parsed(text: str) -> ast.Module | None:
    """The file parsed, kept for the other rules reading it (`parse_cache`)."""
    return kept_parse(text, "module", lambda: (parse_module(text), len(text)))


def _receivers(text: str, field: str) -> list[str]:
    """The classes (or functions) whose calls the file hands the field to as it is:
    `VllmConfig(` of `engram_config=self.engram_config`."""
    found: list[str] = []
    for given in re.finditer(rf"\b{field}\s*=\s*self\.{field}\b", text):
        called = callee_at(text, given.start())
        name = called.rpartition(".")[2] if called is not None else None
        if name and name not in found:
            found.append(name)
    return found


def _fills(tree: ast.Module, field: str, cls: str) -> Iterator[tuple[str, int]]:
    """(the function's qualname, the line) of each `X.field = cls(...)` under a top-level
    `if X.field is None:` of a function that returns nothing before it."""
    for name, function in _functions(tree):
        for statement in function.body:
            if _returns(statement):
                break  # what follows runs only where an earlier test let it
            if not (isinstance(statement, ast.If) and _none_test(statement.test, field)):
                continue
            for inner in statement.body:
                if _assigns(inner, field, cls):
                    yield name, inner.lineno


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The module's functions and its classes' methods, with their qualnames."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield f"{node.name}.{item.name}", item


def _returns(statement: ast.stmt) -> bool:
    """A `return`, or an `if` whose body returns: an exit before what follows."""
    if isinstance(statement, ast.Return):
        return True
    return isinstance(statement, ast.If) and any(isinstance(s, ast.Return) for s in statement.body)


def _none_test(test: ast.expr, field: str) -> bool:
    """`X.field is None`."""
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.left, ast.Attribute)
        and test.left.attr == field
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    )


def _assigns(statement: ast.stmt, field: str, cls: str) -> bool:
    """`X.field = cls(...)`."""
    if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return False
    target, value = statement.targets[0], statement.value
    if not (isinstance(target, ast.Attribute) and target.attr == field):
        return False
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    name = (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else None
    )
    return name == cls
