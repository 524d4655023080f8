"""The way out of a default that subclasses replace: define the method in your subclass, or
use a class of the package that defines it.

A base class's method that only raises (`raise NotImplementedError`) is reached by a
subclass that does not define the method. When every subclass of the package has it, the
subclass that lacks it is the user's: the way out is to define it there. When some of the
package's own classes lack it too (a dialect without a feature), the classes that define it
are the ones that support what was asked for; when they live in the folders of what a user
picks by name (`dialects/postgresql/`), that name is the way out, not the class.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from errdex.explain.context import Facts, top_class_in
from errdex.explain.entry_args import short_export
from errdex.explain.imported_class import module_kept_text
from errdex.explain.plain import code, listed
from errdex.linked_facts import Overrides
from errdex.store.base import StoredSite

_SHOWN = 4  # subclasses named in the sentence
# A message that says the method is the subclasses' to write ("must be implemented in
# subclasses", "Subclasses should implement this method").
_ABSTRACT = re.compile(
    r"\b(?:implement(?:ed)?\s+(?:it\s+)?(?:in|by)\s+subclass|subclass(?:es)?\s+(?:must|should)\s+(?:implement|override|define)|abstract\s+method)",
    re.I,
)
# Folders whose subpackages are what a user picks by name (`sqlalchemy.dialects.postgresql`:
# the database in the engine's URL; `django.db.backends.mysql`): a class defined there comes
# with that choice, no user names it.
_CHOICE_FOLDERS = {"dialects": "dialect", "backends": "backend"}
# A reST directive with its argument that starts a docstring's sentence.
_DIRECTIVE = re.compile(r"^(?:\.\.\s*)?[a-z]+::\s*\S+\s+")
# A docstring that says the class, or what implements it, is internal ("internal
# implementation for instrumented attributes"; "the public-facing interface for the
# internal :class:`._ConnectionFairy` implementation object"; "for internal use").
_INTERNAL = re.compile(
    r"\binternal\s+(?:\S+\s+){0,2}?(?:class|implementation|object|use)\b"
    r"|\bfor\s+internal\s+use\b",
    re.I,
)


@dataclass(frozen=True)
class _Replaced:
    """A site's method that subclasses replace, as a user reaches its base class."""

    found: Overrides
    base: str  # the base class's name
    module: str  # the module a user imports it from
    users: bool  # the page would say to define the method in the user's subclass
    package_made: str | None  # with `users`: why only the package makes its objects


def _replaced(facts: Facts) -> _Replaced | None:
    """What both the solution and "What it means" read of the site, once a page."""
    return facts.once("overrides.replaced", lambda: _read(facts))


def _read(facts: Facts) -> _Replaced | None:
    stored = facts.stored
    found = stored.overrides
    if found is None:
        return None
    defined_in, _, base = found.base.rpartition(".")
    module = _public_home(stored, defined_in, base)
    if module is None:
        return None
    users = _users_to_define(stored)
    made = _package_made(stored, found.by, _base_doc(facts, defined_in, base)) if users else None
    return _Replaced(found, base, module, users, made)


def _base_doc(facts: Facts, module: str, base: str) -> str | None:
    """The docstring of the class whose method subclasses replace, when the site's file
    defines it (None otherwise)."""
    cls = facts.top_class(base) if module == facts.stored.module else None
    return ast.get_docstring(cls) if cls is not None else None


def override_solution(facts: Facts) -> str | None:
    """The sentence for a site whose method is a default subclasses replace, or None."""
    replaced = _replaced(facts)
    if replaced is None:
        return None
    stored, found, base = facts.stored, replaced.found, replaced.base
    subclasses = _subclasses_named(found, stored.module)
    method = code(found.method)
    if replaced.users:
        if replaced.package_made is not None:
            return None  # said in "What it means" (`package_made_sentence`)
        each = "each define" if found.count > 1 else "defines"
        return (
            f"Define {method} in your subclass of {code(base)} ({code(replaced.module)}): the "
            f"base class leaves it to its subclasses and raises here; the package's own "
            f"{subclasses} {each} it."
        )
    if found.method.startswith("_"):
        return None  # an internal path the package does not support
    # a choice whose own class defines the method only to raise in its turn (cx_Oracle's
    # `do_recover_twophase`) supports it no better than the base: never a way out
    supporting = tuple(q for q in found.by if not _refuses(facts, q, found.method))
    chosen = _choices(supporting)
    if len(supporting) < len(found.by) and chosen is None:
        return None  # what defines it refuses too: no subclass to name
    if stored.site.message is None and (chosen is None or not _all_chosen(found)):
        # A bare `raise NotImplementedError` some of the package's own classes reach is an
        # internal path it does not support, unless what defines the method is only what a
        # user picks by name (the `oracle` and `postgresql` dialects alone define
        # `get_materialized_view_names`): then the choice is what lacks it, as a message of
        # its own ("... dialect does not support ...") would say.
        return None
    if chosen is not None:
        kind, names = chosen
        choices = listed([code(n) for n in names], "or")
        among = " (among others)" if found.count > len(found.by) else ""
        # "each", not "its", where several are named: each choice has a subclass of its own
        each = "it defines" if len(names) == 1 else "each defines"
        return (
            f"Use the {choices} {kind}{among}: {each} {method} in its {code(base)} subclass, "
            f"and the base class raises this for every {kind} without it. Writing a {kind} "
            f"of your own, define {method} in its subclass of {code(base)}."
        )
    return (
        f"Use a subclass of {code(base)} that defines {method}: {subclasses} (the base class "
        f"raises this for every subclass without it), or define it in your own subclass."
    )


def package_made_sentence(facts: Facts) -> str | None:
    """Why no subclass of the user's lacks the method, for a base whose instances only
    the package makes (None for any other site)."""
    replaced = _replaced(facts)
    if replaced is None or replaced.package_made is None:
        return None
    found = replaced.found
    subclasses = _subclasses_named(found, facts.stored.module)
    each = "each define" if found.count > 1 else "defines"
    return (
        f"{code(replaced.base)} is an interface whose objects only {facts.stored.project} "
        f"makes: {replaced.package_made}. The package's own {subclasses} {each} "
        f"{code(found.method)}; no subclass of yours is what lacks it, so no way out is offered."
    )


def _subclasses_named(found: Overrides, home: str) -> str:
    """The package's subclasses that define the method, a few by name: "`A`, `B` and 2
    more"."""
    named = [_named(q, home) for q in found.by[:_SHOWN]]
    more = found.count - len(named)
    if more > 0:
        named.append(f"{more} more")
    return listed(named)


def _users_to_define(stored: StoredSite) -> bool:
    """Whether the page would say to define the method in the user's subclass: every
    subclass of the package has it, or the message says subclasses must."""
    found = stored.overrides
    message = stored.site.message.text if stored.site.message is not None else ""
    return found is not None and (found.every or bool(_ABSTRACT.search(message)))


def _package_made(stored: StoredSite, subclasses: tuple[str, ...], doc: str | None) -> str | None:
    """Why the base is an interface whose instances only the package makes, so that no
    user's subclass is what lacks the method, or None: its docstring calls it (or what
    implements it) internal, or every subclass of the package has a private name and the
    package does not export the base by a shorter path."""
    said = _INTERNAL.search(" ".join(doc.split())) if doc is not None else None
    if said is not None and doc is not None:
        quoted = _sentence_at(" ".join(doc.split()), said.start()).rstrip(".")
        quoted = _DIRECTIVE.sub("", quoted)  # `.. versionadded:: 2.0` before the words
        return f"its docstring says “{quoted}”"
    if not subclasses or not all(q.rpartition(".")[2].startswith("_") for q in subclasses):
        return None
    if short_export(stored, stored.site.function) is not None:
        return None
    return "every subclass of it in the package has a private name, and none is exported"


def _sentence_at(text: str, at: int) -> str:
    """The sentence of `text` holding offset `at`."""
    start = max(text.rfind(". ", 0, at) + 2, 0) if text.rfind(". ", 0, at) >= 0 else 0
    end = text.find(". ", at)
    return text[start : end + 1 if end >= 0 else len(text)]


def _choices(qualnames: tuple[str, ...]) -> tuple[str, list[str]] | None:
    """("dialect", [`mysql`, `postgresql`]) when the classes that define the method live in
    the subpackages of one folder of choices; classes elsewhere (a compiler for `str()`) are
    no choice a user makes and are left out."""
    found: dict[str, list[str]] = {}
    for qualname in qualnames:
        parts = qualname.split(".")[:-1]
        for index, part in enumerate(parts[:-1]):
            if part in _CHOICE_FOLDERS and not parts[index + 1].startswith("_"):
                found.setdefault(_CHOICE_FOLDERS[part], []).append(parts[index + 1])
                break
    if len(found) != 1:
        return None
    kind, names = next(iter(found.items()))
    return kind, sorted(set(names))


def _refuses(facts: Facts, qualname: str, method: str) -> bool:
    """Whether the class `qualname` defines `method` as a body that only raises (after its
    docstring): `raise NotImplementedError(...)` again, in the subclass a user would pick."""
    module, _, name = qualname.rpartition(".")
    kept = module_kept_text(facts, module)
    cls = top_class_in(kept[1], name) if kept is not None else None
    for node in cls.body if cls is not None else ():
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == method:
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            return len(body) == 1 and isinstance(body[0], ast.Raise)
    return False


def _all_chosen(found: Overrides) -> bool:
    """Whether every class that defines the method is named (none left out of `by`) and is
    a class of a subpackage of a folder of choices (`dialects/postgresql/base.py`): a class
    elsewhere that defines it (a default base every dialect inherits) would make the choice
    no way out, and a module of such a folder (`backends/flash_attn.py`) is no name a user
    writes."""
    return found.count == len(found.by) and all(_chosen_package(q) for q in found.by)


def _chosen_package(qualname: str) -> bool:
    """Whether the class's module lies in a subpackage of a folder of choices."""
    parts = qualname.split(".")[:-1]
    return any(
        part in _CHOICE_FOLDERS
        and index + 1 < len(parts) - 1
        and not parts[index + 1].startswith("_")
        for index, part in enumerate(parts)
    )


def _named(qualname: str, home: str) -> str:
    """`PGCompiler` (`sqlalchemy.dialects.postgresql.base`), or the name alone in the site's
    own module."""
    module, _, name = qualname.rpartition(".")
    return code(name) if module == home else f"{code(name)} ({code(module)})"


def _public_home(stored: StoredSite, module: str, base: str) -> str | None:
    """The module a user imports the base class from: its own when public, else the public
    one that re-exports it (`httpx.AsyncByteStream`, defined in `httpx._types`), as the
    site's public import path says; None for a class no user reaches."""
    if _public(f"{module}.{base}"):
        return module
    public = stored.public_path()
    suffix = f".{stored.site.function}"
    if public is None or not public.endswith(suffix) or "." not in stored.site.function:
        return None
    if stored.site.function.rpartition(".")[0] != base:
        return None  # the site is not the base's own method
    home = public[: -len(suffix)]
    return home if home and _public(home) else None


def _public(qualname: str) -> bool:
    """A class a user can subclass: no part of its module or name is private."""
    return not any(part.startswith("_") for part in qualname.split("."))
