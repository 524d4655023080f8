"""Ways out through a method of the user's object: a public method of the site's class
that sets the attribute its condition tests (`set_alt_screen()` before `update_screen`).

The setters are read at extraction (`SourceRead.setters`): the public methods that assign
`self.X` (or the attribute the property `X` returns) a parameter or a literal. One is a way
out when calling it gives the attribute a value that makes the condition false, and when
setting it is the method's job: it takes the value, or it is named for the attribute. A
reset (to None or False) that ending the object the attribute holds calls (`Live.stop`
calling `clear_live()`) is offered as that ending method (`ending_methods`).
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.ending_methods import ending_method
from errdex.explain.inputs import Given, public_name
from errdex.explain.page import Change, ConditionView
from errdex.explain.plain import code
from errdex.explain.user_call import user_call
from errdex.extract.shapes import self_attribute
from errdex.reading_facts import Setter


def setter_action(condition: ConditionView, facts: Facts) -> Given | None:
    """A public method of the site's public class that sets the attribute the condition
    tests to a value that makes it false: "Call `set_alt_screen()` on your `Console`"."""
    class_name = facts.stored.site.class_name
    if not facts.read.setters or class_name is None or not public_name(facts.stored.site.function):
        return None  # a method the user calls, of a class the user makes
    try:
        node = ast.parse(condition.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    shape = _attribute_test(node)
    if shape is None:
        return None
    attr, wanted = shape
    own = facts.stored.site.function.rpartition(".")[2]
    for setter in facts.read.setters:
        if setter.attr != attr or setter.method == own or not _sets_for_itself(setter):
            continue
        call = _setter_call(setter, wanted)
        if call is None:
            continue
        if setter.default is not None:
            value = f"from its argument {code(setter.value)} ({code(setter.default)} by default)"
        else:
            value = f"to {code(setter.value)}"
        only = f", when {code(setter.guard)}" if setter.guard else ""
        ended = _ended(setter, wanted, value, only, facts)
        if ended is not None:
            return ended
        text = (
            f"Call {code(call)} on your {code(class_name.rpartition('.')[2])} first: it "
            f"sets {code('self.' + setter.target)} {value}{only}."
        )
        return Given(text, _first_call(call, setter, facts))
    return None


def _ended(setter: Setter, wanted: str, value: str, only: str, facts: Facts) -> Given | None:
    """A reset (`clear_live()` setting `self._live` to None) that a public method ending an
    object calls (`Live.stop`): that method, since the bare reset empties the slot while
    what filled it still runs (`ending_methods`)."""
    if wanted not in ("none", "false") or setter.default is not None:
        return None  # a method that fills the attribute, or one given the value
    found = ending_method(setter.method, setter.target, facts)
    if found is None:
        return None
    owner, method = found
    sets = f"sets {code('self.' + setter.target)} {value}{only}"
    reset = f"{code(setter.method + '()')}, which {sets}"
    if method in ("__exit__", "__aexit__"):
        return Given(f"End the `with` block of the {code(owner)} first: leaving it calls {reset}.")
    text = (
        f"Call {code(method + '()')} on the {code(owner)} that is still running first: "
        f"ending it calls {reset}."
    )
    return Given(text)


def _first_call(call: str, setter: Setter, facts: Facts) -> Change | None:
    """The setter's call as data: made on the user's object before the method that
    raises, when the package's public modules reach the class."""
    reached = user_call(facts)
    if reached is None or reached[1] is None:
        return None
    return Change(
        form="first",
        target=reached[0],
        method=setter.method,
        after=call[len(setter.method) + 1 : -1],
        keyword=reached[1],
    )


def _sets_for_itself(setter: Setter) -> bool:
    """A method whose job is to set the attribute: it takes the value as an argument
    (`set_alt_screen(enable)`), or it is named for it (`clear_live` for `_live`). One that
    sets it on the way to something else (`shutdown` dropping `speculator`) is no fix."""
    if setter.value.isidentifier() and setter.value not in ("None", "True", "False"):
        return True
    words = {w for w in setter.target.lower().split("_") if len(w) > 2} - _SETTER_WORDS
    return bool(words & set(setter.method.lower().split("_")))


# words of an attribute's name that say nothing of what it is
_SETTER_WORDS = frozenset({"is", "has", "set", "get", "the", "use", "enable", "enabled"})


def _attribute_test(node: ast.expr) -> tuple[str, str] | None:
    """(`X`, the value `self.X` needs to avoid the check: "true", "false", "none" or
    "some") for `not self.X`, `self.X`, `self.X is None`, `self.X is not None`."""
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    inner = node.operand if isinstance(node, ast.UnaryOp) and negative else node
    attr = self_attribute(inner)
    if attr is not None:
        return attr, "true" if negative else "false"
    if negative or not (isinstance(inner, ast.Compare) and len(inner.ops) == 1):
        return None
    attr = self_attribute(inner.left)
    right = inner.comparators[0]
    if attr is None or not (isinstance(right, ast.Constant) and right.value is None):
        return None
    if isinstance(inner.ops[0], ast.Is):
        return attr, "some"
    return (attr, "none") if isinstance(inner.ops[0], ast.IsNot) else None


def _setter_call(setter: Setter, wanted: str) -> str | None:
    """How to call the setter so the attribute gets the wanted kind of value, or None."""
    try:
        value = ast.literal_eval(setter.value)
    except (ValueError, SyntaxError, RecursionError, MemoryError, TypeError):
        # a parameter: its default does it, or the value to pass it
        if wanted not in ("true", "some"):
            # a method that takes the value turns something on; passing it None or False
            # to undo what the check wants done (`mark_published(None)`) is no fix
            return None
        if setter.default is not None and _gives(_kind_of(setter.default), wanted):
            return f"{setter.method}()"
        return f"{setter.method}({setter.value}=True)" if wanted == "true" else None
    return f"{setter.method}()" if _gives(_kind_of(repr(value)), wanted) else None


def _gives(kind: str | None, wanted: str) -> bool:
    return kind == wanted or (wanted == "some" and kind in ("true", "false"))


def _kind_of(source: str) -> str | None:
    """Whether a literal's source is None, true or false."""
    try:
        value = ast.literal_eval(source)
    except (ValueError, SyntaxError, RecursionError, MemoryError, TypeError):
        return None
    if value is None:
        return "none"
    return "true" if value else "false"
