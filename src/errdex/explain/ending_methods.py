"""The method that ends what holds the state a reset clears: `Live.stop`, not
`Console.clear_live`.

A public method that resets the attribute a check reads (`clear_live()` setting
`self._live` to None) empties the slot while whatever filled it still runs: the first
`Live` keeps drawing, its hooks and redirected output stay. Where a public method that ends
an object (`stop`, `close`, `__exit__`) calls that reset as part of ending, ending that
object is the way out: the reset then comes with everything else the end undoes. The class
looked at is the one the attribute holds, as annotated (the `Live` of `self._live:
Optional["Live"]`, of `set_live(self, live: "Live")`), never the reset's own: the user is
about to call that object, and ending it first leaves them a closed one.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.extract.shapes import OWN_OBJECT, SUPER, annotated_classes, receiver, self_attribute

# Names of the methods that end what an object started.
_ENDINGS = frozenset(
    {"stop", "close", "aclose", "shutdown", "finish", "end", "release", "terminate"}
    | {"__exit__", "__aexit__"}
)


def ending_method(reset: str, target: str, facts: Facts) -> tuple[str, str] | None:
    """(the class, its ending method) that calls the reset method `reset` as part of
    ending: the class of what the attribute `self.<target>` holds (its annotation, or that
    of the parameter a method assigns it from: `set_live(live: "Live")`); None when no such
    method is found. The reset's own class is never it: ending the object the user is about
    to call would leave them a closed one (`close()` calling `detach_reader()` before
    `attach()`)."""
    own = facts.own_class()
    if own is None:
        return None
    for name in _held_classes(own, target):
        if name.startswith("_") or name == own.name:
            continue
        held = facts.top_class(name)
        if held is None and facts.imported_class is not None:
            held = facts.imported_class(name)
        if held is None:
            continue
        found = _ending_of(held, reset)
        if found is not None:
            return held.name, found
    return None


def _held_classes(cls: ast.ClassDef, target: str) -> list[str]:
    """The classes the annotations say `self.<target>` holds: `self._live: Optional["Live"]`,
    or the parameter assigned to it (`def set_live(self, live: "Live"): self._live = live`)."""
    found: list[str] = []
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = method.args
        annotations = {
            a.arg: a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)
        }
        for node in walk(method):
            if isinstance(node, ast.AnnAssign) and self_attribute(node.target) == target:
                found.extend(annotated_classes(node.annotation))
            elif isinstance(node, ast.Assign) and any(
                self_attribute(t) == target for t in node.targets
            ):
                value = node.value
                if isinstance(value, ast.Name) and value.id in annotations:
                    found.extend(annotated_classes(annotations[value.id]))
    return list(dict.fromkeys(found))


def _ending_of(cls: ast.ClassDef, reset: str) -> str | None:
    """The class's ending method whose body calls `reset` on another object (the one it
    was handed: `self.console.clear_live()`); a plain ending name (`stop`) before
    `__exit__`, which a `with` block calls. A `self.reset()` there is the held class's own
    method of that name, not the reset of the object the user calls."""
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
        and receiver(node.func) not in (*OWN_OBJECT, SUPER)
    )
