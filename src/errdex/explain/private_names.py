"""What a leading underscore says of a name, in the two senses the page rules read it.

`private_name`: one leading underscore (`_adapt`, `_utils`) is the package's own. Two
(`__callback`) are not counted: in a parameter, the old spelling of a positional-only one
(click's `Context.invoke(__self, __callback)`); in an attribute or a qualname, a name Python
mangles, or a dunder, which the rules reading this sense treat apart.

`private_member`: any leading underscore but a dunder's (`__init__`, `__call__`: a class's
public entry points). A mangled `__name` counts: a method no code outside its class calls.
"""

from __future__ import annotations

__all__ = ["private_member", "private_name"]


def private_name(name: str) -> bool:
    """One leading underscore (`_adapt`), not two (`__callback`, `__init__`)."""
    return name.startswith("_") and not name.startswith("__")


def private_member(name: str) -> bool:
    """A leading underscore, not a dunder's (`_split`, `__split`; not `__init__`)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
