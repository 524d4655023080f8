"""Whether "an empty value" makes sense for an argument: not for an object of a class.

"Pass an empty (false) value for the argument `config`" of a function declared
`def f(config: VllmConfig)` asks for None where the code wants an object: the call fails
on the first use of it, another error. An empty value is a way out only where the
declared type has one (a number, a string, a container, a flag) or admits None
(`X | None`, `Optional[X]`); a parameter with no annotation stays as it was.

Nor is it for a constructor's argument that holds what the user hands the object to work
on: one the class keeps as it is and a method of it iterates, indexes, or calls or reads an
attribute of, outside a test of it, while the check is on another attribute the keyword
decides. An empty value of such an argument gives up the content the object was made for
(httpx's `AsyncIteratorByteStream(stream)` iterates `self._stream`), and None fails on that
use. (A function's own argument tested as it is, `if content and json: raise`, may well be
left empty: the check is on it.)
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts, class_in_file
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import own_attributes_set

# Types whose empty value (0, "", [], False) is a value of the type.
_HAS_EMPTY = frozenset(
    {
        "bool", "int", "float", "complex", "str", "bytes", "bytearray", "list", "dict",
        "set", "frozenset", "tuple", "Sequence", "MutableSequence", "Mapping",
        "MutableMapping", "Iterable", "Collection", "Container", "List", "Dict", "Set",
        "FrozenSet", "Tuple", "Any", "object", "Optional", "None", "Literal", "AbstractSet",
        "Sized", "Iterator", "Callable", "type", "Type", "TypeVar",
    }
)  # fmt: skip


def empty_is_nonsense(name: str | None, facts: Facts, owner: str | None = None) -> bool:
    """Whether the parameter `name` of the site's function is declared as an object of a
    class, with no None among its types, or is the content the code works on (above): an
    empty value of it is no value the code takes. With `owner`, `name` is a keyword of the
    class's constructor, and the uses are those of the attributes it is kept in."""
    if name is None or "." in name:
        return False
    if owner is not None:
        return _kept_and_used(facts, owner, name)
    function = facts.site_function()
    if function is None:
        return False
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    found = next((a for a in every if a.arg == name), None)
    if found is None or found.annotation is None:
        return False
    if _none_default(arguments, found):
        return False  # `x: Config = None`: None is what the call gives when it leaves it out
    return _object_type(found.annotation)


def _object_type(node: ast.expr) -> bool:
    """A class name (`VllmConfig`, `torch.Tensor`), not a union with None nor a type whose
    empty value is one of it."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body  # a string annotation
        except (SyntaxError, ValueError, RecursionError):
            return False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _object_type(node.left) and _object_type(node.right)
    if isinstance(node, ast.Subscript):
        return False  # a generic (`list[int]`, `Optional[X]`, `Union[...]`): not read here
    if isinstance(node, ast.Constant):
        return False  # `None`
    dotted = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    if dotted is None:
        return False
    last = dotted.rsplit(".", 1)[-1]
    return last not in _HAS_EMPTY and last[:1].isupper()


def _none_default(arguments: ast.arguments, found: ast.arg) -> bool:
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: dict[str, ast.expr | None] = dict(
        zip([a.arg for a in positional][::-1], arguments.defaults[::-1], strict=False)
    )
    defaults.update(zip([a.arg for a in arguments.kwonlyargs], arguments.kw_defaults, strict=True))
    default = defaults.get(found.arg)
    return isinstance(default, ast.Constant) and default.value is None


def _kept_and_used(facts: Facts, owner: str, param: str) -> bool:
    """Whether a method of `owner` uses an attribute its `__init__` sets to `param` as it is."""
    cls = class_in_file(facts, owner.rpartition(".")[2])
    if cls is None:
        return False
    methods = [m for m in cls.body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)]
    init = next((m for m in methods if m.name == "__init__"), None)
    if init is None:
        return False
    kept = {
        attribute
        for node in walk(init)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for attribute, value in own_attributes_set(node)
        if isinstance(value, ast.Name) and value.id == param
    }
    if not kept:
        return False
    # a method that never names `self.a` does not use it: walked once, not once an
    # attribute; one whose lines hold none of the attributes is not walked
    named = [
        (m, {dotted_name(n) for n in walk(m) if isinstance(n, ast.Attribute)})
        for m in methods
        if any(facts.lines_may_name(m, a) for a in kept)
    ]
    return any(_used(m, f"self.{a}") for m, names in named for a in kept if f"self.{a}" in names)


def _used(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether the function iterates `name`, indexes it, or calls or reads an attribute of
    it where no test of it guards the use (`if x:`, `x and x.y`, `x.y if x else z`, an
    earlier `if not x: return`). A `*args` or `**kwargs` is never empty nonsense: it is
    what the call gave beyond its named arguments."""
    if name in {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}:
        return False
    if not any(_uses(node, name) for node in walk(function)):
        return False  # no use of it anywhere (the visit below finds a subset of these)

    def block(statements: list[ast.stmt], guarded: bool) -> bool:
        for statement in statements:
            if visit(statement, guarded):
                return True
            if isinstance(statement, ast.If) and _reads(statement.test, name):
                # an exit on a test of it: what follows runs only when that test failed
                guarded = guarded or _exits(statement.body) or _exits(statement.orelse)
        return False

    def visit(node: ast.AST, guarded: bool) -> bool:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            return False  # another function's body runs at another time
        if isinstance(node, ast.If | ast.While | ast.IfExp):
            guarded = guarded or _reads(node.test, name)
        if isinstance(node, ast.Try | ast.ExceptHandler):
            guarded = True  # a failed use is caught
        if not guarded and _uses(node, name):
            return True
        if isinstance(node, ast.BoolOp):
            for index, value in enumerate(node.values):
                # `x and x.y`: the parts after a test of it run only when it passed
                tested = guarded or any(_reads(v, name) for v in node.values[:index])
                if visit(value, tested):
                    return True
            return False
        for field in ("body", "orelse", "finalbody"):
            statements = getattr(node, field, None)
            if not (isinstance(statements, list) and statements):
                continue
            if isinstance(statements[0], ast.stmt) and block(statements, guarded):
                return True
        return any(
            visit(child, guarded)
            for child in ast.iter_child_nodes(node)
            if not isinstance(child, ast.stmt)
        ) or any(visit(h, guarded) for h in getattr(node, "handlers", []))

    return block(function.body, False)


def _exits(statements: list[ast.stmt]) -> bool:
    """Whether a block ends the function's run or the loop's pass without an error (a
    `raise` there, as an `assert`, fails on the empty value all the same)."""
    return bool(statements) and isinstance(statements[-1], ast.Return | ast.Continue | ast.Break)


def _uses(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
        return _is(node.iter, name)
    if isinstance(node, ast.Attribute | ast.Subscript):
        return _is(node.value, name)
    if isinstance(node, ast.Await):
        return _is(node.value, name)
    return False


def _is(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name | ast.Attribute) and dotted_name(node) == name


def _reads(node: ast.expr, name: str) -> bool:
    return any(
        isinstance(n, ast.Name | ast.Attribute) and dotted_name(n) == name for n in walk(node)
    )
