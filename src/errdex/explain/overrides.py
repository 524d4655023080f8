"""The way out of a default that subclasses replace: define the method in your subclass, or
use a class of the package that defines it.

A base class's method that only raises (`raise NotImplementedError`) is reached by a
subclass that does not define the method. When every subclass of the package has it, the
subclass that lacks it is the user's: the way out is to define it there. When some of the
package's own classes lack it too (a dialect without a feature), the classes that define it
are the ones that support what was asked for.
"""

from __future__ import annotations

import re

from errdex.explain.plain import code
from errdex.store.base import StoredSite

_SHOWN = 4  # subclasses named in the sentence
# A message that says the method is the subclasses' to write ("must be implemented in
# subclasses", "Subclasses should implement this method").
_ABSTRACT = re.compile(
    r"\b(?:implement(?:ed)?\s+(?:it\s+)?(?:in|by)\s+subclass|subclass(?:es)?\s+(?:must|should)\s+(?:implement|override|define)|abstract\s+method)",
    re.I,
)


def override_solution(stored: StoredSite) -> str | None:
    """The sentence for a site whose method is a default subclasses replace, or None."""
    found = stored.overrides
    if found is None or not _public(found.base):
        return None
    module, _, base = found.base.rpartition(".")
    home = stored.module
    named = [_named(q, home) for q in found.by[:_SHOWN]]
    more = found.count - len(named)
    if more > 0:
        named.append(f"{more} more")
    listed = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
    method = code(found.method)
    message = stored.site.message.text if stored.site.message is not None else ""
    if found.every or _ABSTRACT.search(message):
        each = "each define" if found.count > 1 else "defines"
        return (
            f"Define {method} in your subclass of {code(base)} ({code(module)}): the base "
            f"class leaves it to its subclasses and raises here; the package's own "
            f"{listed} {each} it."
        )
    if stored.site.message is None or found.method.startswith("_"):
        # a bare `raise NotImplementedError` some of the package's own classes reach is an
        # internal path it does not support; a message of its own ("... dialect does not
        # support ...") on a public method says what a user asked for that this class lacks
        return None
    return (
        f"Use a subclass of {code(base)} that defines {method}: {listed} (the base class "
        f"raises this for every subclass without it), or define it in your own subclass."
    )


def _named(qualname: str, home: str) -> str:
    """`PGCompiler` (`sqlalchemy.dialects.postgresql.base`), or the name alone in the site's
    own module."""
    module, _, name = qualname.rpartition(".")
    return code(name) if module == home else f"{code(name)} ({code(module)})"


def _public(qualname: str) -> bool:
    """A class a user can subclass: no part of its module or name is private."""
    return not any(part.startswith("_") for part in qualname.split("."))
