"""What the page knows of the code Python runs at the user's `class` statement that a site
is in or under (`explain/class_hooks.py` finds it): kept apart so the facts can hold it."""

from __future__ import annotations

from dataclasses import dataclass

from errdex.explain.plain import code

__all__ = ["ATTRIBUTES", "BODY", "ClassHook", "ClassHooks"]

# What of the class a hook's name holds (`ClassHooks.roles`).
BODY = "the names its body assigns"
ATTRIBUTES = "its attributes, its own and those it inherits"


@dataclass(frozen=True)
class ClassHook:
    """One piece of code Python runs at the user's `class` statement, that the site is in
    or under."""

    function: str  # `ModelMetaclass.__new__`, `WeightSource.__init_subclass__`
    owner: str  # its class: the metaclass, or the base the user's class subclasses
    kind: str  # "metaclass" or "subclass"
    depth: int  # 0: the site's own function; 1: a direct caller; ...
    file: str
    line: int  # the call on the way to the site (the site's line at depth 0)

    def made(self) -> str:
        """The class it runs for, in words."""
        if self.kind == "metaclass":
            return (
                f"a class whose metaclass is {code(self.owner)} (a subclass of a class "
                f"declared with `metaclass={self.owner}`)"
            )
        return f"a subclass of {code(self.owner)}"


@dataclass(frozen=True)
class ClassHooks:
    """The hooks every chain of callers up from the site ends at (the site's own function
    alone when it is one), and what the site's names hold of the class they make."""

    hooks: tuple[ClassHook, ...]
    # the site function's names for what every hook is handed (passed down by name along
    # each chain of calls), each with what of the user's class it is
    roles: tuple[tuple[str, str], ...] = ()

    def body(self) -> str | None:
        """The site function's name for the namespace the class body filled, or None."""
        return next((name for name, role in self.roles if role == BODY), None)

    def own(self) -> ClassHook | None:
        """The hook the site is in itself, or None."""
        return next((h for h in self.hooks if h.depth == 0), None)
