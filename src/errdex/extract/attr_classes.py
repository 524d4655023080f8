"""The class each `self.X` of a class holds, where the code says it (`ClassFact.attr_classes`).

`self.runner.prepare(x)` reaches `GPUModelRunner.prepare` only if `self.runner` is one: the
linker reads what the class says of the attribute (`link.receivers`). The evidence, read
from the class's text (the skeleton may have blanked its methods' bodies):

- an annotation: a class-level one (`runner: GPUModelRunner`, a dataclass field) or
  `self.runner: GPUModelRunner = ...` in a method; every annotation of it must name the one
  class (`Optional` and `| None` aside);
- else every assignment of it one call's result, the same callee each time, `None` aside:
  `self.runner = GPUModelRunner(...)`, `self.runner = make_runner(...)` (a function whose
  return is annotated), `self.runner = self._make_runner()`; the call must be the whole
  value (`Runner(...).child` is not a `Runner`).

An attribute the class assigns any other way (`self.runner = runner`, a tuple, `+=`) is
kept as "" (unknown): a base class's word on it does not hold for this class.
"""

from __future__ import annotations

import ast
import re

from errdex.extract.field_defaults import call_arguments
from errdex.extract.init_attrs import ClassText
from errdex.extract.shapes import annotated_class, annotation_in
from errdex.lazy_re import lazy_compile

# Each line that starts with `self.X`, read from the `\n` before it (the text is read with
# one before its first line), in one pass: a search jumps from one `\n` to the next, where a
# `^` is tried at every character. What the line says of `X` is read by lookaheads, each
# tried at the line's start, so the match is the line's head alone and no line hides the
# next (none of them reads past its line's end):
# - `annotation`: `self.x: Foo = ...`, `self.x: "Foo"`;
# - `callee`: `self.x = name(` / `self.x: T = name(`, the callee, `(` right after it;
# - `none`: `self.x = None` / `self.x: T = None`, the whole line.
_LINE = lazy_compile(
    r"\n[ \t]*self\.(?P<attr>\w+)"
    r"(?=[ \t]*:[ \t]*(?P<annotation>[^=\n#]+?)[ \t]*(?:=(?!=)|#|\r?$))?"
    r"(?=[ \t]*(?::[^=\n]*)?=[ \t]*(?P<callee>(?:self\.)?[A-Za-z_][\w.]*)\()?"
    r"(?=[ \t]*(?::[^=\n]*)?=[ \t]*(?P<none>None)[ \t]*(?:#[^\n]*)?\r?$)?",
    re.MULTILINE,
)
_REST = lazy_compile(r"[ \t]*(?:#[^\n]*)?(?:\r?\n|$)")


def attribute_classes(whole: ClassText) -> dict[str, str]:
    """`attr` → the class it holds as written (`Foo`, `make_foo()`), or "" (see the module)."""
    annotated: dict[str, set[str | None]] = {}
    for item in whole.cls.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            annotated.setdefault(item.target.id, set()).add(annotated_class(item.annotation))
    if "self." not in whole.text:  # its fields alone: those annotated with a class
        return {a: c for a, found in annotated.items() if len(found) == 1 and (c := found.pop())}
    text = "\n" + whole.text  # each line read from the `\n` before it
    nones: dict[str, int] = {}
    called: dict[str, list[str | None]] = {}
    for match in _LINE.finditer(text):
        attr, annotation, callee = match["attr"], match["annotation"], match["callee"]
        if annotation is not None:
            node = annotation_in(annotation)
            annotated.setdefault(attr, set()).add(annotated_class(node) if node else None)
        if match["none"] is not None:
            nones[attr] = nones.get(attr, 0) + 1
        if callee is not None:
            closed = _closes_statement(text, match.end("callee") + 1)
            called.setdefault(attr, []).append(callee if closed else None)
    counts = whole.counts
    out: dict[str, str] = {}
    for attr in dict.fromkeys([*annotated, *counts]):
        if attr in annotated:
            found = annotated[attr]
            one = next(iter(found)) if len(found) == 1 else None
            if one or attr in counts:  # a field of no class, never assigned: nothing to say
                out[attr] = one or ""
            continue
        callees = set(called.get(attr, ()))
        every = len(called.get(attr, ())) + nones.get(attr, 0) == counts.get(attr, 0)
        only = next(iter(callees)) if len(callees) == 1 else None
        out[attr] = f"{only}()" if every and only else ""
    return out


def _closes_statement(text: str, start: int) -> bool:
    """Whether the call whose arguments start at `start` closes (within what
    `call_arguments` reads), and the statement ends there."""
    arguments = call_arguments(text, start)
    return arguments.endswith(")") and _REST.match(text, start + len(arguments)) is not None
