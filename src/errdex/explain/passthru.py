"""A re-raise that passes the user's own failure through: no switch of the package is the fix.

click's `CliRunner.invoke` runs the command the user passed (`cli.main(...)`) in a `try`
and re-raises whatever it raised when `catch_exceptions` is off; httpx's `ASGITransport`
re-raises what the user's ASGI app raised (`self.app(...)`, set from the constructor's
`app`); rich's `Live.start` re-raises what `self.refresh()` raised, which calls the
`get_renderable` the user gave `Live`. The error there is the user's own: the frames
below this one in the traceback show it. Turning the re-raise off (`catch_exceptions=True`,
`raise_app_exceptions=False`) or postponing the call (`refresh=False`) hides or delays it,
and no setting of the package fixes it.

A site is such a pass-through when it is a bare `raise` (or a `raise` of the caught name,
or `raise X from` it) in a handler of every exception (`except Exception`,
`BaseException`, bare `except`) whose `try` calls what the caller supplied: a parameter of
the function (`fn(...)`, `cli.main(...)`), an attribute its class's `__init__` sets from a
parameter (`self.app(...)`), or a method of its own class that does so (followed a few
calls deep, properties included). The function and its class are public: a private
helper's parameter is the package's own to pass.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.outline import defining, holding, importing_any
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.private_names import private_name
from errdex.extract.shapes import self_attribute
from errdex.facts import ConditionKind, SiteKind

__all__ = ["PassThrough", "pass_through"]

_BROAD = frozenset({"Exception", "BaseException"})
_MAX_DEPTH = 4  # methods of the class followed from the `try`'s call
_SELF = frozenset({"self", "cls"})
_WORDS = re.compile(r"\w+")
_Def = ast.FunctionDef | ast.AsyncFunctionDef
# builtin classes, whose methods are the interpreter's
_BUILTIN_TYPES = frozenset(
    {"str", "bytes", "int", "float", "bool", "dict", "list", "tuple", "set", "bytearray"}
)
# where annotations' own words come from (`Callable`, `Optional`, `Awaitable`)
_TYPING = ("typing", "typing_extensions", "collections", "types")


@dataclass(frozen=True)
class PassThrough:
    """What the `try` ran of the caller's: the call, what it reaches, who supplied it."""

    call: str  # the `try`'s call, as written: `cli.main(args=args or (), ...)`
    try_line: int
    # the parameter the caller gave: `cli`, `app`; several comma-separated where the method
    # that calls one reads the others too (`get_renderable,renderable`)
    supplied: str
    owner: str  # the function or constructor it is a parameter of: `CliRunner.invoke`
    through: tuple[str, ...] = ()  # the class's methods on the way: `Live.refresh`, ...
    method: bool = False  # the call is of a method of what was supplied (`cli.main`)
    # `self.X` → the constructor's parameter set to it, of the site's class (`Owner`)
    init_params: tuple[tuple[str, str], ...] = ()
    class_name: str = ""

    def what_it_means(self, facts: Facts) -> str:
        """The first sentences of "What it means": whose failure this is."""
        stored = facts.stored
        site = stored.site
        where = f"{code(site.function)} ({stored.file}:{site.line})"
        sentences = [
            f"{where} re-raises what your own code raised: the `try` at line {self.try_line} "
            f"runs {self._reach()}, and any exception from it passes through here. The error "
            f"comes from your code, not from {stored.project}: the traceback's frames below "
            "this one show where it was raised, and that is what to fix.",
        ]
        gates = [self._gate(c.plain or code(c.text), c.text) for c in facts.held]
        if gates:
            sentences.append(
                f"It gets here only when {'; '.join(gates)}: that decides only whether "
                "your code runs now and how its failure is reported; changing it hides or "
                "postpones the failure, it does not fix it."
            )
        return " ".join(sentences)

    def solution(self) -> Solution:
        return Solution(
            text=(
                f"Fix the failure in {self._yours()} (the `try` at line {self.try_line} "
                "ran it and passed on what it raised): the frames below this one in the "
                "traceback point to the line of your code."
            ),
            kind="input",
        )

    def _gate(self, words: str, text: str) -> str:
        """A condition in words, with the constructor argument behind a `self.X` it reads."""
        given = [p for attribute, p in self.init_params if f"self.{attribute}" in text]
        if not given:
            return words
        names = ", ".join(code(p) for p in given)
        return f"{words} (the argument {names} of {code(self.class_name)})"

    def _yours(self) -> str:
        names = " or ".join(code(n) for n in self.supplied.split(","))
        return f"the {names} you gave {code(self.owner)}"

    def _reach(self) -> str:
        """How the `try`'s call reaches what the user supplied."""
        yours = self._yours()
        if self.through:
            chain = ", ".join(code(m) for m in self.through)
            return f"{code(self.call)}, which (through {chain}) reaches {yours}"
        if self.method:
            return f"{code(self.call)}, a method of {yours}"
        return f"{code(self.call)}: {yours}"


def pass_through(facts: Facts) -> PassThrough | None:
    """The caller's code the site's `try` runs, when the site re-raises its failure."""
    site = facts.stored.site
    if site.kind not in (SiteKind.RERAISE, SiteKind.RAISE):
        return None
    if not any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return None
    if any(private_name(part) for part in _parts(site.function)):
        return None
    function = _function(facts)
    if function is None:
        return None
    found = _handler_of(function, site.line)
    if found is None:
        return None
    statement, handler = found
    if not (_broad(handler) and _passes_on(statement, handler, site.kind)):
        return None
    params = _params(function) - _foreign_params(function, facts)
    owner_class = _class_of(facts, site.function)
    init_params = _init_params(owner_class) if owner_class is not None else {}
    methods = _methods(owner_class) if owner_class is not None else {}
    class_name = owner_class.name if owner_class is not None else ""
    # a parameter the package's own code passes (a caller of the function) is the
    # package's: only a function no code of the package calls runs what its user gave
    called_inside = any(c.depth == 1 for c in facts.callers)
    for call in _calls(statement.body):
        hit = _supplied(call.func, set() if called_inside else params, init_params)
        if hit is not None:
            name, from_init = hit
            method = not _is_supplied_itself(call.func, name, init_params)
            if from_init and method:
                continue  # a method of an object the class keeps (a client): its own code
            owner = class_name if from_init else _public_name(site.function)
            return PassThrough(
                ast.unparse(call),
                statement.lineno,
                name,
                owner,
                method=method,
                init_params=tuple(init_params.items()),
                class_name=class_name,
            )
        own = self_attribute(call.func)
        if own is not None and own in methods and not _raises(methods[own]):
            reached = _reached(own, methods, init_params)
            if reached is not None:
                name, chain = reached
                return PassThrough(
                    ast.unparse(call),
                    statement.lineno,
                    name,
                    class_name,
                    tuple(f"{class_name}.{m}" for m in chain),
                    init_params=tuple(init_params.items()),
                    class_name=class_name,
                )
    return None


def _function(facts: Facts) -> _Def | None:
    """The site's function: parsed alone, or (an `async def`) found in the file."""
    function = facts.site_function()
    if function is not None:
        return function
    line, name = facts.stored.site.line, facts.stored.site.function.rpartition(".")[2]
    tree = facts.top_module(holding(line))
    if tree is None:
        return None
    found = [
        n
        for n in walk(tree)
        if isinstance(n, ast.AsyncFunctionDef)
        and n.name == name
        and n.lineno <= line <= (n.end_lineno or n.lineno)
    ]
    return found[-1] if found else None


def _parts(qualname: str) -> list[str]:
    return [p for p in qualname.split(".") if p != "<locals>"]


def _public_name(qualname: str) -> str:
    return ".".join(_parts(qualname))


def _handler_of(function: _Def, line: int) -> tuple[ast.Try, ast.ExceptHandler] | None:
    """The innermost `try` with a handler holding `line`, and that handler."""
    best: tuple[ast.Try, ast.ExceptHandler] | None = None
    for node in walk(function):
        if not isinstance(node, ast.Try):
            continue
        for handler in node.handlers:
            inside = handler.lineno <= line <= (handler.end_lineno or handler.lineno)
            if inside and (best is None or handler.lineno > best[1].lineno):
                best = (node, handler)
    return best


def _broad(handler: ast.ExceptHandler) -> bool:
    kind = handler.type
    if kind is None:
        return True
    names = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    return any(isinstance(n, ast.Name) and n.id in _BROAD for n in names)


def _passes_on(statement: ast.Try, handler: ast.ExceptHandler, kind: SiteKind) -> bool:
    """Whether the handler's raise passes the caught exception on: bare, by its name, or
    as the cause of a new one (a RAISE site)."""
    del statement
    for node in walk(handler):
        if not isinstance(node, ast.Raise):
            continue
        if kind == SiteKind.RERAISE and (node.exc is None or _is_name(node.exc, handler.name)):
            return True
        if kind == SiteKind.RAISE and node.cause is not None and _is_name(node.cause, handler.name):
            return True
    return False


def _is_name(node: ast.expr, name: str | None) -> bool:
    return name is not None and isinstance(node, ast.Name) and node.id == name


def _params(function: _Def) -> set[str]:
    args = function.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    return {a.arg for a in every} - _SELF


def _foreign_params(function: _Def, facts: Facts) -> set[str]:
    """The parameters annotated with a class of another distribution or a builtin one
    (`save_path: Path`, `hf_processor: ... | ProcessorMixin`): that library's object, whose
    methods are its code, not the user's."""
    args = function.args
    annotations = {
        a.arg: a.annotation
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]
        if a.annotation is not None
    }
    if not annotations:
        return set()
    # only the statements that may import a name the annotations write: a class that
    # imports something inside one of its methods is not parsed for it
    names = {w for a in annotations.values() for w in _WORDS.findall(ast.unparse(a))}
    tree = facts.top_module(importing_any(names))
    if tree is None:
        return set()
    imported = _imports(tree)
    root = facts.stored.module.split(".")[0]
    return {arg for arg, a in annotations.items() if _foreign(a, imported, root)}


def _imports(tree: ast.Module) -> dict[str, str]:
    """Each name a module imports → the module it comes from."""
    out: dict[str, str] = {}
    for node in walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                out[alias.asname or alias.name] = node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                out[alias.asname or alias.name.split(".")[0]] = alias.name
    return out


def _foreign(annotation: ast.expr, imported: dict[str, str], root: str) -> bool:
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    if isinstance(annotation, ast.BinOp):  # `A | B`: either may be the other library's
        return _foreign(annotation.left, imported, root) or _foreign(
            annotation.right, imported, root
        )
    if isinstance(annotation, ast.Subscript):
        head = ast.unparse(annotation.value).rpartition(".")[2]
        if head in ("Optional", "Union"):
            inner = annotation.slice
            members = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            return any(_foreign(m, imported, root) for m in members)
        annotation = annotation.value
    name = ast.unparse(annotation).split(".")[0]
    if name in _BUILTIN_TYPES:
        return True
    module = imported.get(name)
    if module is None:
        return False  # defined here, or not known: not said to be another library's
    return module.split(".")[0] not in (root, *_TYPING)


def _class_of(facts: Facts, qualname: str) -> ast.ClassDef | None:
    """The site's class, when its function is a method of a module-level class."""
    parts = qualname.split(".")
    if len(parts) != 2:
        return None
    tree = facts.top_module(defining(parts[0]))
    if tree is None:
        return None
    return next(
        (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == parts[0]),
        None,
    )


def _methods(cls: ast.ClassDef) -> dict[str, _Def]:
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _init_params(cls: ast.ClassDef) -> dict[str, str]:
    """`self.X` → the `__init__` parameter assigned to it as it is (`self.app = app`)."""
    init = _methods(cls).get("__init__")
    if init is None:
        return {}
    params = _params(init)
    out: dict[str, str] = {}
    for node in walk(init):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            if not (isinstance(value, ast.Name) and value.id in params):
                continue
            for target in targets:
                attribute = self_attribute(target)
                if attribute is not None:
                    out[attribute] = value.id
    return out


def _calls(body: list[ast.stmt]) -> list[ast.Call]:
    """The calls of statements, in order, not those of functions defined there."""
    out: list[ast.Call] = []
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        if isinstance(node, ast.Call):
            out.append(node)
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def _supplied(
    func: ast.expr, params: set[str], init_params: dict[str, str]
) -> tuple[str, bool] | None:
    """The caller's parameter a call runs (itself, or a method of it), and whether it
    came through the constructor."""
    target = func.value if isinstance(func, ast.Attribute) else func
    if isinstance(target, ast.Name) and target.id in params:
        return target.id, False
    attribute = self_attribute(target)
    if attribute is not None and attribute in init_params:
        return init_params[attribute], True
    if isinstance(func, ast.Attribute):
        attribute = self_attribute(func)
        if attribute is not None and attribute in init_params:
            return init_params[attribute], True
    return None


def _is_supplied_itself(func: ast.expr, name: str, init_params: dict[str, str]) -> bool:
    """Whether the call calls what was supplied (`fn(...)`, `self.app(...)`), not one
    of its methods."""
    if isinstance(func, ast.Name):
        return func.id == name
    attribute = self_attribute(func)
    return attribute is not None and init_params.get(attribute) == name


def _reached(
    start: str, methods: dict[str, _Def], init_params: dict[str, str]
) -> tuple[str, list[str]] | None:
    """The constructor's parameter a method of the class calls, followed through the
    class's own methods and properties (`self.refresh()` → `self.renderable` →
    `self.get_renderable()` → `self._get_renderable()`), with the methods passed."""
    queue: list[tuple[str, list[str]]] = [(start, [start])]
    seen = {start}
    while queue:
        name, chain = queue.pop(0)
        if _raises(methods[name]):
            continue  # the class's own error may be what passes through
        body = methods[name].body
        for node in _nodes(body):
            if isinstance(node, ast.Call):
                hit = _supplied(node.func, set(), init_params)
                if hit is not None and self_attribute(node.func) is not None:
                    return ",".join(_read_here(body, hit[0], init_params)), chain
            attribute = self_attribute(node) if isinstance(node, ast.expr) else None
            if attribute in methods and attribute not in seen and len(chain) < _MAX_DEPTH:
                seen.add(attribute)
                queue.append((attribute, [*chain, attribute]))
    return None


def _raises(function: _Def) -> bool:
    return any(isinstance(n, ast.Raise) for n in walk(function))


def _read_here(body: list[ast.stmt], called: str, init_params: dict[str, str]) -> list[str]:
    """The constructor's parameter called, then the others the same method reads (what it
    falls back to: `self._renderable` when no `get_renderable` was given)."""
    out = [called]
    for node in _nodes(body):
        attribute = self_attribute(node) if isinstance(node, ast.expr) else None
        given = init_params.get(attribute or "")
        if given is not None and given not in out:
            out.append(given)
    return out


def _nodes(body: list[ast.stmt]) -> list[ast.AST]:
    out: list[ast.AST] = []
    for statement in body:
        out.extend(walk(statement))
    return out
