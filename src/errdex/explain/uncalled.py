"""A function nothing in the package calls: its check is reached only from outside it.

A page with no way out calls the check the program's own state, "worth reporting to the
project". That is wrong for a function that no code of the package calls: the caller
index found none, and its name occurs in the package's files only as the name of its
`def` (no call on an object no import resolves, no function handed on as a value, no
string for `getattr`, no name built at run time that could be it; `store/mentions.py`).
The program never runs the check by itself: it fails only when something outside the
package calls the function. Only where that is sure:
- a function at the top of its module, or a private method (`_m`) of a class with no base
  (a method a base class or Python calls by name, `_load_from_state_dict`, `_missing_`,
  is called by code outside the package), and neither decorated (a decorator may
  register it to be called);
- no dunder or sunder name (Python's protocols call those), no command of the package
  runs it, and pytest does not (a `test*` function, a file pytest collects).
A private function is one no user is meant to call: "your own code calling it directly,
or a plugin"; a public one is what the user's code calls: that call is the way in.
"""

from __future__ import annotations

from errdex.explain.context import Facts, class_around, function_span, lines_of
from errdex.explain.plain import code

__all__ = ["uncalled_sentence"]


def uncalled_sentence(facts: Facts) -> str | None:
    """What to say instead of "worth reporting" when nothing in the package calls the
    site's function (None when something may)."""
    if facts.callers or facts.mentions_of is None:
        return None
    site = facts.stored.site
    parts = site.function.split(".")
    name = parts[-1]
    if len(parts) > 2 or (name.startswith("__") and name.endswith("__")) or name.endswith("_"):
        return None
    if name.startswith("test") or _test_file(facts.stored.file):
        return None  # pytest runs it by its name: a test's own check
    private = name.startswith("_")
    text = facts.source_text
    if len(parts) == 2 and not (private and _plain_class(text, parts[0], site.line)):
        return None
    if text is None or _decorated(text, name, site.line):
        return None
    module = facts.stored.module
    if any(t.partition(":")[2].split(".")[0] == name for t in facts.entry_targets):
        return None  # a command of the package runs a function of that name
    mentions = facts.mentions_of()
    if mentions is None or not mentions.named_only_where_defined(name):
        return None
    called = code(site.function)
    project = facts.stored.project
    return (
        f"Nothing in {project} calls {called}: its name occurs in the package only where it "
        "is defined, so the program never runs this check by itself. It fails only when "
        f"something outside {project} calls {called}: "
        + (
            "your own code calling it directly (it is private to the package), or a plugin."
            if private
            else f"your own code calling `{module}.{site.function}` directly, or a plugin."
        )
    )


def _test_file(path: str) -> bool:
    """Whether pytest collects the file (`test_*.py`, `*_test.py`) or it configures pytest."""
    base = path.rpartition("/")[2]
    return base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py"


def _plain_class(text: str | None, name: str, line: int) -> bool:
    """Whether the class `name` around `line` has no base but `object` and no keyword
    (a metaclass may call its methods)."""
    found = class_around(text, name, line)
    if found is None or found.keywords:
        return False
    return all(getattr(b, "id", None) == "object" for b in found.bases)


def _decorated(text: str, name: str, line: int) -> bool:
    """Whether the `def name` holding `line` has a decorator (or cannot be told): the
    nearest line above it at its own indentation starts with `@` or closes a bracket."""
    span = function_span(text, name, line)
    if span is None:
        return True
    lines = lines_of(text)
    header = lines[span[0]]
    indent = len(header) - len(header.lstrip())
    for above in reversed(lines[max(0, span[0] - 40) : span[0]]):
        stripped = above.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(above) - len(above.lstrip()) == indent:
            return stripped.startswith(("@", ")", "]", "}"))
    return False
