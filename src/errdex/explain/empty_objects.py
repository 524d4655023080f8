"""Whether "an empty value" makes sense for an argument: not for an object of a class.

"Pass an empty (false) value for the argument `config`" of a function declared
`def f(config: VllmConfig)` asks for None where the code wants an object: the call fails
on the first use of it, another error. An empty value is a way out only where the
declared type has one (a number, a string, a container, a flag) or admits None
(`X | None`, `Optional[X]`); a parameter with no annotation stays as it was.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.extract.conditions import dotted_name

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


def empty_is_nonsense(name: str | None, facts: Facts) -> bool:
    """Whether the parameter `name` of the site's function is declared as an object of a
    class, with no None among its types: an empty value of it is no value the code takes."""
    if name is None or "." in name:
        return False
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
