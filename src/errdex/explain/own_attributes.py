"""Whether a private attribute holds only what its own class puts there, with evidence.

A check such as `assert self._buffer_pool is not None` reads an attribute no user sets:
the package's own bookkeeping, when nothing a caller passes reaches it. The evidence is read
from the site's file: every mention of `._name` there is inside the class (no other object's
attribute of that name, no `setattr` by name, no base of the package's own in another file
that may set it), the class sets it itself, and each value it sets, and each test that
decides whether it is set, is computed from literals, constants and other such attributes,
never from a parameter of the method that sets it. A check that tests only whether the
attribute is None (or which class it holds) needs that of its bindings alone (a value that
is never None counts whatever its arguments); a check that reads what the attribute holds
needs it of every change of the contents too (`self._pending.append(x)` with `x` own), and
the attribute must not leave the class (handed to a call, assigned to a local). The file's
text is read first: an attribute bound from a bare name (`self._pool = pool`: a parameter,
a local, a function's call) is taken as no evidence before the class is parsed.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
from collections.abc import Callable

from errdex.ast_walk import walk
from errdex.explain.never_none import never_none
from errdex.explain.private_names import private_name

__all__ = ["AttributeReader", "binding_tests", "may_be_own"]

# Builtins a value may be handed to without being changed or kept.
_READERS = frozenset(
    {"len", "bool", "isinstance", "type", "id", "str", "repr", "int", "float", "sorted", "any"}
    | {"all", "min", "max", "sum", "list", "tuple", "set", "frozenset", "abs", "hash"}
)
# Bases a class may have whose code sets none of the package's private attributes.
_PLAIN_BASES = frozenset({"object", "ABC", "Generic", "Protocol", "NamedTuple", "Exception"})

# Attributes set by a name computed at run time: any private attribute may be one of them.
_DYNAMIC = re.compile(r"setattr\(\s*self\b|self\.__dict__|vars\(\s*self\s*\)")
_BUILTIN_NAMES = frozenset(dir(builtins))
# Where a use of an attribute only reads it: a test, a comparison, an operand.
_READ_IN = (
    ast.Compare,
    ast.BoolOp,
    ast.UnaryOp,
    ast.If,
    ast.While,
    ast.Assert,
    ast.BinOp,
    ast.IfExp,
)

# `(function, expressions)` → whether they are computed from the package's own state alone
OwnTest = Callable[[ast.FunctionDef | ast.AsyncFunctionDef, list[ast.AST]], bool]


def binding_tests(tests: list[ast.expr]) -> set[int]:
    """The ids of the attribute nodes `tests` compare with None by identity or check the
    class of (`self._x is None`, `isinstance(self._x, T)`): what they test is which value is
    bound, not what it holds."""
    out: set[int] = set()
    for test in tests:
        for node in walk(test):
            if (
                isinstance(node, ast.Compare)
                and len(node.ops) == 1
                and isinstance(node.ops[0], ast.Is | ast.IsNot)
            ):
                pair = (node.left, node.comparators[0])
                if any(isinstance(p, ast.Constant) and p.value is None for p in pair):
                    out.update(id(p) for p in pair if isinstance(p, ast.Attribute))
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance"
                and node.args
                and isinstance(node.args[0], ast.Attribute)
            ):
                out.add(id(node.args[0]))
    return out


class AttributeReader:
    """Decides, once per attribute, whether the class `cls` of the site's file alone sets
    it to its own values (`own_test` judges each value in the method that sets it)."""

    def __init__(
        self,
        cls: ast.ClassDef,
        text: str,
        package: str,
        own_test: OwnTest,
    ) -> None:
        self._cls = cls
        self._text = text
        self._package = package
        self._own_test = own_test
        self._memo: dict[tuple[str, bool], bool | None] = {}
        self.used: set[str] = set()  # the attributes found own, for the page to name

    def own(self, attr: str, binding_only: bool) -> bool:
        """Whether `self.<attr>` is only what the class sets from its own state (for
        `binding_only`, which value is bound; else what it holds too)."""
        if not attr.startswith("_") or attr.startswith("__"):
            return False  # a public attribute is anyone's to set
        key = (attr, binding_only)
        if key in self._memo:
            found = self._memo[key]
            return True if found is None else found  # None: being decided (a cycle)
        self._memo[key] = None
        found = self._decide(attr, binding_only)
        self._memo[key] = found
        if found:
            self.used.add(attr)
        return found

    def _decide(self, attr: str, binding_only: bool) -> bool:
        mentions = self._mentions(attr) if self._plain_bases else None
        if mentions is None:
            return False
        sets = 0
        for statement in self._cls.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                if statement.name == attr:
                    return False  # a method or property of that name
                first, last = _span(statement)
                lines = [line for line in mentions if first <= line <= last]
                if not lines:
                    continue  # (a method that does not name it: not walked)
                found = self._uses(statement, attr, binding_only, lines)
                if found is None:
                    return False
                sets += found
            elif any(isinstance(n, ast.Name) and n.id == attr for n in walk(statement)):
                return False  # a class attribute of that name: a default anyone may read
            elif any(isinstance(n, ast.Attribute) and n.attr == attr for n in walk(statement)):
                return False  # in a nested class or a class-level expression
        return sets > 0  # set nowhere in the class: a base or another module sets it

    @functools.cached_property
    def _plain_bases(self) -> bool:
        """Whether no base of the class is one of the package's own defined in another file
        (it may set the attribute): a base defined in this file is read with it (every
        mention must be inside the class), a base from outside the package (`nn.Module`) sets
        none of its private names."""
        for base in self._cls.bases:
            root = base
            while isinstance(root, ast.Attribute | ast.Subscript):
                root = root.value
            if not isinstance(root, ast.Name):
                return False
            if root.id in _PLAIN_BASES or re.search(rf"(?m)^class\s+{root.id}\b", self._text):
                continue
            if self._imported_from_package(root.id):
                return False
        return not self._cls.keywords or all(k.arg == "metaclass" for k in self._cls.keywords)

    def _imported_from_package(self, name: str) -> bool:
        """Whether the file imports `name` from its own package (relative, or by its top
        name), or may (a star import, or no import of it found at all)."""
        pattern = rf"(?m)^\s*from\s+([\w.]+)\s+import\s+(?:\(\s*)?(?:[^#\n]*[\s,(])?{name}\b"
        found = [m.group(1) for m in re.finditer(pattern, self._text)]
        if not found:
            return True  # not imported by name: from somewhere errdex cannot tell
        return any(f.startswith(".") or f.split(".")[0] == self._package for f in found)

    def _mentions(self, attr: str) -> list[int] | None:
        """The lines that mention `.attr`, when every one is inside the class, no string
        names it (`setattr(obj, "_x", ...)`) and no attribute of `self` is set by a
        computed name (`setattr(self, name, value)`, `self.__dict__`); else None."""
        if not may_be_own(self._text, attr):
            return None
        first, last = _span(self._cls)
        lines = []
        for match in re.finditer(rf"\.\s*{re.escape(attr)}\b", self._text):
            line = self._text.count("\n", 0, match.start()) + 1
            if not first <= line <= last:
                return None
            lines.append(line)
        return lines

    def _uses(
        self,
        method: ast.FunctionDef | ast.AsyncFunctionDef,
        attr: str,
        binding_only: bool,
        lines: list[int],
    ) -> int | None:
        """How many times `method` sets the attribute (mentioned on `lines`), or None when
        a use of it is no evidence (a value not its own, another object's attribute, a
        nested function)."""
        parents, near = _parents_near(method, lines)
        sets = 0
        for node in near:
            if not isinstance(node, ast.Attribute) or node.attr != attr:
                continue
            if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                return None
            if _nested(node, method, parents):
                return None
            statement, around = _statement(node, parents)
            parent = parents.get(id(node))
            if isinstance(node.ctx, ast.Store | ast.Del):
                sets += 1
                values = _assigned(statement, node)
                if values is None:
                    return None
                if binding_only and all(_never_none(v) for v in values):
                    values = []  # which value is bound does not matter: only whether
                if not self._own_test(method, [*values, *around]):
                    return None
            elif binding_only:
                continue  # what it holds, and what is done with it, change no binding
            elif not self._content_own(node, parent, parents, method, around):
                return None
        return sets

    def _content_own(
        self,
        node: ast.Attribute,
        parent: ast.AST | None,
        parents: dict[int, ast.AST],
        method: ast.FunctionDef | ast.AsyncFunctionDef,
        around: list[ast.AST],
    ) -> bool:
        """Whether a use of the attribute that is no binding leaves its contents its own:
        a read in a test, a change made with the class's own values, a pure builtin."""
        if isinstance(parent, ast.Subscript) and parent.value is node:
            if isinstance(parent.ctx, ast.Store | ast.Del):
                statement, _ = _statement(parent, parents)
                values = _assigned(statement, parent)
                return values is not None and self._own_test(
                    method, [parent.slice, *values, *around]
                )
            return True  # an item read
        if isinstance(parent, ast.Attribute) and parent.value is node:
            call = parents.get(id(parent))
            if isinstance(call, ast.Call) and call.func is parent:
                # a method of the contents: what it is handed may go in
                handed = [*call.args, *(k.value for k in call.keywords)]
                return self._own_test(method, [*handed, *around])
            if isinstance(parent.ctx, ast.Store | ast.Del):
                statement, _ = _statement(parent, parents)
                values = _assigned(statement, parent)
                return values is not None and self._own_test(method, [*values, *around])
            return True  # a field read
        if isinstance(parent, ast.Call) and node is not parent.func:
            return isinstance(parent.func, ast.Name) and parent.func.id in _READERS
        # held in a test, a comparison, an operand: read, not handed on
        return isinstance(parent, _READ_IN)


@functools.lru_cache(maxsize=256)  # asked before the class is parsed, and again as it is read
def may_be_own(text: str, attr: str) -> bool:
    """Whether the file's text leaves `attr` a private attribute only a class's own code
    sets by name: no string names it (`setattr(obj, "_x", ...)`), and no attribute of
    `self` is set by a name computed at run time (`setattr(self, name, v)`, `__dict__`)."""
    private = private_name(attr)
    named = re.search(rf"[\"']{re.escape(attr)}[\"']", text)
    if not private or named is not None or _DYNAMIC.search(text) is not None:
        return False
    # told from the text before the class is parsed: a value a name of a function gives
    # (a parameter, a local, a call of a function: `self._pool = pool`) is seldom the
    # class's own, and the walk would find it so
    written = rf"self\.{re.escape(attr)}\s*(?::[^=\n]*)?[-+*/|&]?=(?!=)\s*(\w+)"
    for match in re.finditer(written, text):
        first = match.group(1)
        bare = first.lstrip("_")
        if first in _BUILTIN_NAMES or first == "self" or bare[:1].isupper() or first[:1].isdigit():
            continue
        return False
    return True


def _span(node: ast.stmt) -> tuple[int, int]:
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
    return first, node.end_lineno or node.lineno


def _parents_near(root: ast.AST, lines: list[int]) -> tuple[dict[int, ast.AST], list[ast.AST]]:
    """Each node of `root` on a path to one of `lines` → its parent, and those nodes: the
    rest of a long method cannot hold a mention, and is not walked."""
    parents: dict[int, ast.AST] = {}
    near: list[ast.AST] = []
    stack = [root]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            first = getattr(child, "lineno", None)
            if first is not None:
                last = getattr(child, "end_lineno", None) or first
                if not any(first <= line <= last for line in lines):
                    continue
            parents[id(child)] = node
            near.append(child)
            stack.append(child)
    return parents, near


def _nested(node: ast.AST, method: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether `node` sits in a function, lambda or class defined inside `method`."""
    at = parents.get(id(node))
    while at is not None and at is not method:
        if isinstance(at, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            return True
        at = parents.get(id(at))
    return False


def _statement(node: ast.AST, parents: dict[int, ast.AST]) -> tuple[ast.AST, list[ast.AST]]:
    """The statement holding `node`, and the tests of the `if`s, `while`s, loops, `with`s
    and `match`es around it (what decides whether it runs); a `try`'s handler is the
    `try`'s doing, said by a marker no value is computed from."""
    statement: ast.AST = node
    while not isinstance(statement, ast.stmt) and id(statement) in parents:
        statement = parents[id(statement)]
    around: list[ast.AST] = []
    at = parents.get(id(statement))
    while at is not None:
        if isinstance(at, ast.If | ast.While):
            around.append(at.test)
        elif isinstance(at, ast.For | ast.AsyncFor):
            around.append(at.iter)
        elif isinstance(at, ast.With | ast.AsyncWith):
            around.extend(i.context_expr for i in at.items)
        elif isinstance(at, ast.match_case):
            match = parents.get(id(at))
            if isinstance(match, ast.Match):
                around.append(match.subject)
        elif isinstance(at, ast.ExceptHandler):
            around.append(_CAUGHT)
        elif isinstance(at, ast.IfExp | ast.BoolOp | ast.comprehension):
            around.append(at)
        at = parents.get(id(at))
    return statement, around


# What a `try` caught decides a value set in its handler: no value of the package's own.
_CAUGHT = ast.Name(id="__caught__", ctx=ast.Load())


def _assigned(statement: ast.AST, target: ast.AST) -> list[ast.AST] | None:
    """The values a statement gives `target` (and the others it assigns with it), or None
    when the statement is no plain assignment of it."""
    if isinstance(statement, ast.Assign):
        return [statement.value]
    if isinstance(statement, ast.AugAssign | ast.AnnAssign):
        return [statement.value] if statement.value is not None else []
    if isinstance(statement, ast.Delete):
        return []
    if isinstance(statement, ast.For | ast.AsyncFor) and target in walk(statement.target):
        return [statement.iter]
    if isinstance(statement, ast.With | ast.AsyncWith):
        return [i.context_expr for i in statement.items]
    return None


def _never_none(value: ast.AST) -> bool:
    """Whether a value bound is never None: a literal, a display, a class called by its
    capitalised name (`Pool(size)`)."""
    if not isinstance(value, ast.expr):
        return False
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name | ast.Attribute):
        name = value.func.id if isinstance(value.func, ast.Name) else value.func.attr
        bare = name.lstrip("_")
        if bare[:1].isupper() and not bare.isupper():
            return True
    return never_none(value) is not None
