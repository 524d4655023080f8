"""Which value of the user's a check tests, when no way out of it was found.

With no way out found, the page used to call the conditions the program's own state,
"worth reporting to the project", unless they read an argument of the function itself
(`arguments_read`). Two shapes read a value the user decides through something else:

- each item of an argument of a function the package hands its users (`users_call`: its
  class or function at most two modules deep, or exported from a private module, under a
  public name): `for entity in suppress:` in
  `Traceback.__init__`, then `assert entity.__file__ is not None`. The loop variable is
  bound by that loop only and the argument is not rebound, so the item is what the call
  was given;
- the operand of an operator a class defines (`__isub__(self, s)`, `__getitem__(self,
  key)`): `proxied_set -= [1, 2]` hands the list in; whoever applies the operator decides
  it, not the object's own state.

Either way the page says which value it is and that the check refuses it, not that the
project should hear of it.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.entry_input import names_read
from errdex.explain.plain import code
from errdex.explain.state_gated import users_call
from errdex.explain.user_data import callable_by_user, fixed_name, local_sources, module_constants
from errdex.facts import ConditionKind, SiteKind

__all__ = ["entry_point", "loop_header", "user_value_sentence"]

_MEMO = "user_values"
# An operator's method → how a statement applies it, `{}` where the operand goes.
_OPERATORS = {
    "__add__": "obj + {}",
    "__radd__": "{} + obj",
    "__iadd__": "obj += {}",
    "__sub__": "obj - {}",
    "__rsub__": "{} - obj",
    "__isub__": "obj -= {}",
    "__mul__": "obj * {}",
    "__rmul__": "{} * obj",
    "__imul__": "obj *= {}",
    "__truediv__": "obj / {}",
    "__floordiv__": "obj // {}",
    "__mod__": "obj % {}",
    "__pow__": "obj ** {}",
    "__matmul__": "obj @ {}",
    "__and__": "obj & {}",
    "__rand__": "{} & obj",
    "__iand__": "obj &= {}",
    "__or__": "obj | {}",
    "__ror__": "{} | obj",
    "__ior__": "obj |= {}",
    "__xor__": "obj ^ {}",
    "__rxor__": "{} ^ obj",
    "__ixor__": "obj ^= {}",
    "__lshift__": "obj << {}",
    "__rshift__": "obj >> {}",
    "__lt__": "obj < {}",
    "__le__": "obj <= {}",
    "__gt__": "obj > {}",
    "__ge__": "obj >= {}",
    "__contains__": "{} in obj",
    "__getitem__": "obj[{}]",
    "__delitem__": "del obj[{}]",
}


def user_value_sentence(facts: Facts) -> str | None:
    """ "So no solution is offered, but ...: it tests each item of ...", or None."""
    return facts.once(_MEMO, lambda: _sentence(facts))


def _sentence(facts: Facts) -> str | None:
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.ASSERT) or not facts.held:
        return None
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return None  # what failed is the `try`'s call, not the value tested
    return _operand(facts) or _items(facts)


def _tested(facts: Facts) -> set[str] | None:
    """The names every condition of the path reads, or None when one does not parse."""
    read: set[str] = set()
    for condition in facts.held:
        try:
            read |= names_read(ast.parse(condition.text, mode="eval").body)
        except (SyntaxError, ValueError, RecursionError):
            return None
    return read


def _operand(facts: Facts) -> str | None:
    """The sentence for a check of an operator method's operand, or None."""
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    form = _OPERATORS.get(method)
    if form is None or not owner or "<locals>" in owner:
        return None
    if any(p.startswith("_") for p in facts.stored.module.split(".")):
        return None  # a private module's class: the package's own code applies it
    params = [p for p in facts.read.params if p not in ("self", "cls")]
    tested = _tested(facts)
    if len(params) != 1 or tested is None or params[0] not in tested:
        return None
    operand = params[0]
    sources = local_sources_of(facts)
    if operand in sources or tested & set(sources) or _reads_own_state(facts):
        return None  # rebound or computed first, or beside the object's own fields
    statement = code(form.format(operand))
    return (
        f"So no solution is offered, but the check is of the value given, not of the "
        f"program's own state: it tests {code(operand)}, the operand of {statement}, which "
        "the statement applying the operator gives it (the traceback's frame above this "
        "one shows it)."
    )


def _items(facts: Facts) -> str | None:
    """The sentence for a check of each item of an argument, or None."""
    found = _iterated(facts)
    if found is None:
        return None
    item, argument, entry = found
    header = next(c.text for c in reversed(facts.conditions) if c.kind == ConditionKind.LOOP)
    said = ", and the message says which one it refused" if facts.stored.site.message else ""
    return (
        f"So no solution is offered, but the check is of the value given, not of the "
        f"program's own state: it tests each item of the argument {code(argument)} of "
        f"{code(entry)} ({code(item)} of {code(header)}), the values the call was "
        f"given{said}."
    )


def _iterated(facts: Facts) -> tuple[str, str, str] | None:
    """(the item, the argument, the call a user writes) when the path's conditions read
    only the item of the loop nearest the check over an argument of a function users call
    (and constants, builtins, classes); else None."""
    entry = entry_point(facts)
    if entry is None:
        return None
    loops = [c for c in facts.conditions if c.kind == ConditionKind.LOOP]
    if not loops:
        return None
    header = _loop_names(loops[-1].text)  # the loop nearest the check
    if header is None:
        return None
    item, argument = header
    function = facts.site_function()
    if function is None or argument not in facts.read.params or argument in ("self", "cls"):
        return None
    packed = {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}
    sources = local_sources(function)
    bound = sources.get(item, [])
    if argument in packed or argument in sources or len(bound) != 1:
        return None  # `*args`, a rebound argument, an item assigned again
    tested = _tested(facts)
    constants = module_constants(facts)
    if tested is None or item not in tested:
        return None
    if any(n != item and not fixed_name(n, constants) for n in tested):
        return None  # the check reads other state beside the item
    return item, argument, entry


def _reads_own_state(facts: Facts) -> bool:
    """Whether a condition reads a field of the object (`self.x`): its state, not the
    operand alone (`self` handed on whole, `check(self, other)`, is its class)."""
    for condition in facts.held:
        try:
            node = ast.parse(condition.text, mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            return True
        for n in walk(node):
            if (
                isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name)
                and n.value.id in ("self", "cls")
            ):
                return True
    return False


def local_sources_of(facts: Facts) -> dict[str, list[ast.AST]]:
    function = facts.site_function()
    return local_sources(function) if function is not None else {}


def loop_header(text: str) -> ast.For | None:
    """A loop condition's header (`for x in xs`) parsed, or None."""
    try:
        node = ast.parse(f"{text}:\n    pass").body[0]
    except (SyntaxError, ValueError, RecursionError, IndexError):
        return None
    return node if isinstance(node, ast.For) else None


def _loop_names(text: str) -> tuple[str, str] | None:
    """(the item, the iterated name) of a loop header `for x in xs`, or None."""
    node = loop_header(text)
    if node is None:
        return None
    if isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Name):
        return node.target.id, node.iter.id
    return None


def entry_point(facts: Facts) -> str | None:
    """The path a user calls the site's function by (`rich.traceback.Traceback`), when the
    package hands it to users (`users_call`) under a public name; else None."""
    path = facts.stored.public_path()
    if path is None or not callable_by_user(facts) or not users_call(facts):
        return None
    return path.removesuffix(".__init__")
