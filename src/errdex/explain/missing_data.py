"""Ways out of a lookup of something that is not there: a name the program was given.

An error class named for what was not found (SQLAlchemy's `NoSuchTableError`,
`NoSuchColumnError`, a `LoRAAdapterNotFoundError`, the builtin `FileNotFoundError`), raised
with a message that prints a parameter of the raising function (`{owner}.{viewname}`), is
the data the user named lacking that thing: the table is not in the database, the file is
not on disk. The conditions read what the lookup returned (`not view_def`), the program's
state by their own look; the class's name and the message tie it to the name given. The way
out is a name that exists where the program looks, with the name as the message prints it
(a lookup fills in the one from the user's paste).

A builtin lookup miss (`KeyError`, `LookupError`) says the same when its message names the
thing and prints what was asked for: "No layout with name {name!r}", "Tool parser '{name}'
not found." (`layout = self.get(name)` then `if layout is None`): the thing is the message's
word, the way out the same, unless every call of the function the index holds gives the
printed parameter a literal: then the package names the thing, no user does.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.input_nodes import free_names
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.link.expression_texts import parse_expression

# `NoSuchTableError` → `Table`; `LoRAAdapterNotFoundError`, `FileNotFoundError` → the
# words before `NotFound`.
_NOT_FOUND = re.compile(r"^(?:NoSuch(?P<a>[A-Z]\w*?)|(?P<b>[A-Z]\w*?)NotFound)(?:Error)?$")
# What is missing from the environment, not from the data: an install is the way out.
_ENVIRONMENT = frozenset({"Module", "Package", "Distribution"})
_WORD = re.compile(r"[A-Z][a-z]+")
# A predicate whose name says the thing is not there.
_ABSENCE = re.compile(r"(?i)missing|absent|not_?found|no_?such|empty|unknown")
# The builtin errors of a lookup that missed, which name no thing themselves.
_LOOKUP_MISSES = frozenset({"KeyError", "LookupError"})
# A message naming the thing not found, then what was asked for: "No layout with name {...}",
# "No tool named '{...}'", "Tool parser '{...}' not found." (one or two words: a longer
# phrase is a description, "Number of patches ..."). `{` opens the printed value.
_MISSED_THING = re.compile(
    r"^(?:No (?P<a>[a-z]+(?: [a-z]+)?) (?:with (?:the )?name|named|called) ['\"`]?\{"
    r"|(?P<b>[A-Z][a-z]+(?: [a-z]+)?) ['\"`]?\{[^{}]*\}['\"`]? not found(?:[.:]|$))"
)


def missing_data_solution(facts: Facts) -> Solution | None:
    """The way out of a "no such thing" error whose message prints what was asked for."""
    site = facts.stored.site
    exception = (site.exception or "").rsplit(".", 1)[-1]
    found = _NOT_FOUND.match(exception)
    thing = (found.group("a") or found.group("b")) if found else None
    if thing is None or thing in _ENVIRONMENT or site.message is None:
        thing = _message_thing(exception, site.message.text if site.message else None)
    if thing is None or site.message is None:
        return None
    if facts.held and _tests_a_kind(facts.held[-1].text):
        return None
    params = [p for p in facts.read.params if p not in ("self", "cls")]
    printed = []
    given: list[str] = []
    for placeholder in site.message.placeholders:
        if (tree := parse_expression(placeholder.expr)) is None:
            continue
        names = free_names(tree)
        read = [n for n in names if n in params] or _through_locals(names, params, facts)
        if read:
            printed.append(placeholder)
            given += [n for n in read if n not in given]
    if not given:
        return None
    if found is None and facts.literal_calls and all(facts.literal_calls(facts, n) for n in given):
        # every call of the function names the thing itself: the package's name, not one
        # a user gives (`get_items("image", ...)` in each model's processor)
        return None
    what = _words(thing)
    listed = ", ".join(code(n) for n in given)
    held = facts.held
    article = "an" if what[:1] in "aeiou" else "a"
    # the message as written when it prints the names alone (a lookup puts the user's in)
    plain = all(p.expr.isidentifier() for p in printed)
    shown = f"“{site.message.text}”, from " if plain else "from "
    return Solution(
        text=(
            f"{_ask(article, what)}: the message "
            f"prints the one it was given ({shown}{listed} of {code(site.function)}); check "
            f"its spelling, each part of it, and that the {what} is there for the program "
            f"to reach."
        ),
        condition=held[-1].text if held else None,
        kind="input",
    )


def _message_thing(exception: str, message: str | None) -> str | None:
    """What a builtin lookup miss says was not found, as its message names it
    ("No layout with name {name!r}" → `Layout`), else None."""
    if exception not in _LOOKUP_MISSES or message is None:
        return None
    found = _MISSED_THING.match(message)
    if found is None:
        return None
    words = (found.group("a") or found.group("b")).split()
    return "".join(w.capitalize() for w in words)  # as a class names it: `_words` reads it


def _tests_a_kind(text: str) -> bool:
    """Whether the check is a predicate that holds of what the lookup found (`sql.upper().
    startswith("CREATE TABLE")`: the name is a table, where a view was asked for): the
    thing exists and is of another kind, so "name one that exists" leads nowhere. A
    predicate named for absence (`is_missing(x)`) is still the lookup failing."""
    node = parse_expression(text)
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return _ABSENCE.search(name) is None


def _through_locals(names: list[str], params: list[str], facts: Facts) -> list[str]:
    """The parameters a printed local is computed from (`table_name = table.name`)."""
    found: list[str] = []
    for binding in facts.bindings:
        if binding.origin != "local" or binding.name not in names:
            continue
        if (tree := parse_expression(binding.value)) is None:
            continue
        read = free_names(tree)
        roots = {n.split(".")[0] for n in read}
        found += [p for p in params if p in roots and p not in found]
    return found


def _ask(article: str, what: str) -> str:
    if what == "file":
        return "Give a path at which the file exists"
    return f"Name {article} {what} that exists where the program looks for it"


def _words(thing: str) -> str:
    """`Table` → "table"; `ViewDefinition` → "view definition"; a name with capitals
    inside a word (`LoRAAdapter`) as written."""
    words = _WORD.findall(thing)
    if "".join(words) != thing:
        return code(thing)
    return " ".join(w.lower() for w in words)
