"""A raise in a method of a stand-in the package makes only while unpickling an object.

httpx's `UnattachedStream.__iter__` raises `StreamClosed` whatever it is handed; the version
makes an `UnattachedStream` nowhere but in `Request.__setstate__` and `Response.__setstate__`
(`self.stream = UnattachedStream()`), which pickle calls on the object it loads in place of
the stream `__getstate__` left out. So the raise says the object came through pickle, and no
argument of the call decides it. The way out is what the object's class fills from that
attribute before it is pickled: its public methods that store, in an attribute pickling
keeps, a value read from it (`read()`: `self._content = b"".join(self.stream)`), and the
properties that hand that attribute back (`content`).

The version's stand-ins are worked out once a version (its kept files holding a
`__setstate__` read, parsed, and every file's text searched for another call of the class).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.across_pages import AcrossPages
from errdex.explain.context import Facts, parse_module, top_block_at
from errdex.explain.page import Solution
from errdex.explain.plain import code, listed
from errdex.extract.shapes import self_attribute

__all__ = ["unpickled_solution"]

_SETSTATE = re.compile(r"def __setstate__\s*\(")


@dataclass(frozen=True)
class _Made:
    """One `self.<attribute> = <Class>()` of a `__setstate__`, with what its class fills from
    that attribute."""

    owner: str  # the class whose `__setstate__` it is
    attribute: str
    file: str
    line: int
    fillers: tuple[str, ...]  # its public methods storing a value read from the attribute
    readers: tuple[str, ...]  # its properties handing that value back


# a version's revision → each class made only in `__setstate__` → where it is made
_STAND_INS: AcrossPages[dict[str, tuple[_Made, ...]]] = AcrossPages(4)
# (revision, class, its makings in `__setstate__`) → whether the version makes it nowhere else
_ONLY_THERE: AcrossPages[bool] = AcrossPages(64)


def unpickled_solution(facts: Facts) -> Solution | None:
    """ "Call `read()` on the `Response` before you pickle it, then use its `content` …"
    for a raise in a method of a class the version makes only in `__setstate__`; else
    None."""
    site = facts.stored.site
    owner, _, member = site.function.partition(".<locals>.")[0].rpartition(".")
    if not owner or "." in owner or not member or facts.held:
        return None  # (a test of the method's own: not the raise the stand-in always makes)
    file_text, version_paths = facts.file_text, facts.version_paths
    if file_text is None or version_paths is None:
        return None
    cls = facts.own_class()
    if cls is None or not _stand_in_shaped(cls):
        return None  # only a class with nothing to do but raise can stand in for a stream
    paths = version_paths()
    found = _STAND_INS.kept(facts.stored.revision, lambda: _stand_ins(file_text, paths))
    made = [m for m in found.get(owner, ()) if m.fillers]
    if not made:
        return None
    count = len(found[owner])
    key = (facts.stored.revision, owner, count)
    if not _ONLY_THERE.kept(key, lambda: _made_only_there(owner, count, file_text, paths)):
        return None
    groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for m in made:  # the classes whose methods fill and hand back alike, said once
        groups.setdefault((m.fillers, m.readers), []).append(m.owner)
    ways = []
    for (fillers, readers), owners in groups.items():
        calls = listed([code(f"{f}()") for f in fillers], "or")
        then = f", then use its {listed([code(r) for r in readers], 'or')}" if readers else ""
        named = listed([code(o) for o in dict.fromkeys(owners)], "or")
        ways.append(f"call {calls} on the {named} before you pickle it{then}")
    where = "; ".join(
        f"{code(m.owner + '.__setstate__')} at {m.file}:{m.line} sets "
        f"{code('self.' + m.attribute + ' = ' + owner + '()')}"
        for m in made
    )
    said = "; ".join(ways)
    text = (
        f"{said[0].upper()}{said[1:]}: an object loaded from pickle has no "
        f"{code(made[0].attribute)} left to read (to stream or send one again, make a new "
        f"{listed([code(m.owner) for m in made], 'or')} in place of the unpickled one). The "
        f"package makes {code(owner)} objects, whose {code(member)} always raises, nowhere but "
        f"while unpickling ({where})."
    )
    return Solution(text=text, kind="input")


def _stand_in_shaped(cls: ast.ClassDef) -> bool:
    """A class with no constructor of its own whose every method raises at once (after its
    docstring): the shape of what a `__setstate__` puts in place of what pickling drops.
    Checked before the version-wide scan, which reads every file of the version, so that
    the scan runs only for such a class."""
    methods = [n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    if not methods or any(m.name == "__init__" for m in methods):
        return False
    for method in methods:
        body = method.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body = body[1:]
        if not body or not isinstance(body[0], ast.Raise):
            return False
    return True


def _stand_ins(
    file_text: Callable[[str], str | None], paths: Sequence[str]
) -> dict[str, tuple[_Made, ...]]:
    """Each class a `__setstate__` of the version assigns a new one of to an attribute of
    `self` → where it is made (whether other code makes it too is asked of the one class a
    page needs, `_made_only_there`: counting every name here cost most of the scan)."""
    texts = {p: file_text(p) for p in paths if p.endswith(".py")}
    found: dict[str, list[_Made]] = {}
    for path, text in texts.items():
        if text is None or _SETSTATE.search(text) is None:
            continue
        for cls in _setstate_classes(text):
            for name, one in _made_in(cls, path):
                found.setdefault(name, []).append(one)
    return {name: tuple(made) for name, made in found.items()}


def _setstate_classes(text: str) -> list[ast.ClassDef]:
    """The classes of a file that may define `__setstate__`, in the order a walk of the
    whole file meets them: those of the top-level blocks holding a `def __setstate__`, each
    block parsed alone (a file of SQLAlchemy's is 5,000 lines for one 10-line method); the
    whole file's when a block cannot be cut from the text (none when it does not parse)."""
    blocks: dict[int, ast.stmt] = {}
    for found in _SETSTATE.finditer(text):
        # (not kept across pages: a scan once a version, which would push out what pages
        # parse again)
        block = top_block_at(text, text.count("\n", 0, found.start()) + 1, keep=False)
        if block is None:
            tree = parse_module(text)
            return [n for n in walk(tree) if isinstance(n, ast.ClassDef)] if tree else []
        blocks.setdefault(block.lineno, block)
    # a walk of the file is breadth first: each depth's nodes in the order of the file
    ordered: list[tuple[int, int, int, ast.ClassDef]] = []
    for order, block in enumerate(blocks.values()):
        depth = {id(block): 0}
        for seen, node in enumerate(walk(block)):
            for child in ast.iter_child_nodes(node):
                depth[id(child)] = depth[id(node)] + 1
            if isinstance(node, ast.ClassDef):
                ordered.append((depth[id(node)], order, seen, node))
    return [node for *_, node in sorted(ordered, key=lambda o: o[:3])]


def _made_only_there(
    name: str, made: int, file_text: Callable[[str], str | None], paths: Sequence[str]
) -> bool:
    """Whether the version calls `name` nowhere but in the `made` assignments of its
    `__setstate__` methods."""
    call = re.compile(rf"(?<![\w.]){re.escape(name)}\s*\(")
    defined = re.compile(rf"\bclass\s+{re.escape(name)}\s*\(")
    calls = 0
    for path in paths:
        text = file_text(path) if path.endswith(".py") else None
        if text is not None and name in text:
            calls += len(call.findall(text)) - len(defined.findall(text))
    return calls == made


def _made_in(cls: ast.ClassDef, path: str) -> list[tuple[str, _Made]]:
    """(the class made, where) of each `self.<attr> = <Name>()` of the class's
    `__setstate__`."""
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    setstate = methods.get("__setstate__")
    if setstate is None:
        return []
    dropped = _dropped(methods.get("__getstate__"))
    found = []
    for node in walk(setstate):
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and (attribute := self_attribute(node.targets[0])) is not None
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
        ):
            continue
        fills = _fillers(methods, attribute, dropped)
        readers = tuple(
            name
            for name, method in methods.items()
            if _is_property(method) and any(_returns_self(method, kept) for kept in fills.values())
        )
        made = _Made(cls.name, attribute, path, node.lineno, tuple(fills), readers)
        found.append((node.value.func.id, made))
    return found


def _dropped(getstate: ast.FunctionDef | ast.AsyncFunctionDef | None) -> set[str]:
    """The names a `__getstate__` writes as strings: the attributes it leaves out."""
    if getstate is None:
        return set()
    return {
        n.value for n in walk(getstate) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _fillers(
    methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef], attribute: str, dropped: set[str]
) -> dict[str, str]:
    """Each public method storing, in an attribute of `self` that pickling keeps, a value
    read from `self.<attribute>` (or from a method of the class that reads it) → that
    attribute."""
    reading: set[str] = set()
    changed = True
    while changed:  # the methods that read the attribute, directly or through another one
        changed = False
        for name, method in methods.items():
            if name not in reading and _reads(method, attribute, reading):
                reading.add(name)
                changed = True
    found: dict[str, str] = {}
    for name, method in methods.items():
        if name.startswith("_") or _is_property(method):
            continue
        for node in walk(method):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            kept = self_attribute(node.targets[0])
            if kept is None or kept == attribute or kept in dropped:
                continue
            if _reads(node.value, attribute, reading):
                found[name] = kept
                break
    return found


def _reads(node: ast.AST, attribute: str, reading: set[str]) -> bool:
    """Whether `node` reads `self.<attribute>` or calls `self.<m>()` for a method `m` in
    `reading`."""
    for sub in walk(node):
        if (
            isinstance(sub, ast.Attribute)
            and self_attribute(sub) == attribute
            and isinstance(sub.ctx, ast.Load)
        ):
            return True
        if isinstance(sub, ast.Call) and self_attribute(sub.func) in reading:
            return True
    return False


def _is_property(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "property" for d in method.decorator_list)


def _returns_self(method: ast.FunctionDef | ast.AsyncFunctionDef, attribute: str) -> bool:
    return any(
        isinstance(n, ast.Return) and n.value is not None and self_attribute(n.value) == attribute
        for n in walk(method)
    )
