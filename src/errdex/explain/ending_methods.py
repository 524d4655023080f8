"""The method that ends what holds the state a reset clears: `Live.stop`, not
`Console.clear_live`.

A public method that resets the attribute a check reads (`clear_live()` setting
`self._live` to None) empties the slot while whatever filled it still runs: the first
`Live` keeps drawing, its hooks and redirected output stay. Where a public method that ends
an object (`stop`, `close`, `__exit__`) calls that reset as part of ending, ending that
object is the way out: the reset then comes with everything else the end undoes. The
classes looked at are the reset's own and the one the attribute holds, as annotated (the
`Live` of `self._live: Optional["Live"]`, of `set_live(self, live: "Live")`).
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts, top_class_in
from errdex.extract.shapes import annotated_classes

# Names of the methods that end what an object started.
_ENDINGS = frozenset(
    {"stop", "close", "aclose", "shutdown", "finish", "end", "release", "terminate"}
    | {"__exit__", "__aexit__"}
)


def ending_method(reset: str, target: str, facts: Facts) -> tuple[str, str] | None:
    """(the class, its ending method) that calls the reset method `reset` as part of
    ending: the reset's own class, or the class of what the attribute `self.<target>` holds
    (its annotation, or that of the parameter a method assigns it from: `set_live(live:
    "Live")`); None when no such method is found."""
    own = facts.own_class()
    owners = [own] if own is not None else []
    for name in _held_classes(own, target) if own is not None else []:
        if name.startswith("_") or name == own.name:  # type: ignore[union-attr]
            continue
        held = top_class_in(facts.source_text, name)
        if held is None and facts.imported_class is not None:
            held = facts.imported_class(name)
        if held is not None:
            owners.append(held)
    for cls in owners:
        found = _ending_of(cls, reset)
        if found is not None:
            return cls.name, found
    return None


def _held_classes(cls: ast.ClassDef, target: str) -> list[str]:
    """The classes the annotations say `self.<target>` holds: `self._live: Optional["Live"]`,
    or the parameter assigned to it (`def set_live(self, live: "Live"): self._live = live`)."""
    found: list[str] = []
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        annotations = {a.arg: a.annotation for a in method.args.args + method.args.kwonlyargs}
        for node in walk(method):
            if isinstance(node, ast.AnnAssign) and _is_own(node.target, target):
                found.extend(annotated_classes(node.annotation))
            elif isinstance(node, ast.Assign) and any(_is_own(t, target) for t in node.targets):
                value = node.value
                if isinstance(value, ast.Name) and value.id in annotations:
                    found.extend(annotated_classes(annotations[value.id]))
    return list(dict.fromkeys(found))


def _is_own(node: ast.expr, target: str) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == target
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _ending_of(cls: ast.ClassDef, reset: str) -> str | None:
    """The class's ending method whose body calls `reset` (`x.reset()`, `self.reset()`);
    a plain ending name (`stop`) before `__exit__`, which a `with` block calls."""
    found = [
        m.name
        for m in cls.body
        if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)
        and m.name in _ENDINGS
        and any(_calls(n, reset) for n in walk(m))
    ]
    found.sort(key=lambda name: name.startswith("__"))
    return found[0] if found else None


def _calls(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
    )
