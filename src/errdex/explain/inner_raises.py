"""A raise under `except` around a call of the package's own code: which of the callee's own
raises of the caught class this error passes on, and their way out.

pydantic's dataclass builder catches `PydanticUndefinedAnnotation` around a call of its own
schema code; the index holds the raises of that class inside the callee, and what their
messages say to do is the way out of this one too. Only a function of the version's own
code (imported by name into the site's file or defined there, `callee_advice.resolve_called`, or
a method of the site's own class called on `self`), only the callee's own raises of the
caught class (or of a class of the site's file built on it), read from the callee's file in
the index: one indexed read a call, no source parsed. Many raises, or raises that disagree
on what to do, are said without a way out.
"""

from __future__ import annotations

from errdex.explain.advice import message_advice
from errdex.explain.callee_advice import resolve_called
from errdex.explain.context import Facts, InnerRaise
from errdex.explain.outline import importing_or_defining
from errdex.explain.page import Solution
from errdex.explain.plain import caught_names, code
from errdex.facts import SiteKind
from errdex.store import Store

__all__ = ["InnerRaise", "call_target", "inner_raises", "inner_sentence", "inner_solution"]

_MAX_CALLS = 3  # calls of the `try` looked up
_MAX_SHOWN = 3
_MAX_DEPTH = 2  # calls down from the `try` to the raise (the linker's depth)
_MAX_CLASSES = 2  # caught classes looked up
_MAX_READ = 60  # raises of a class read  # raises named in the sentence; more are counted
# Too broad to say which raise failed: any raise of the callee's may be it.
_BROAD = frozenset({"", "Exception", "BaseException", "ValueError", "TypeError"})
_BROAD |= {"RuntimeError", "KeyError", "AttributeError", "OSError", "IndexError"}


def inner_raises(store: Store, facts: Facts) -> list[InnerRaise]:
    """The raises of the caught class inside the functions the `try` of the site's innermost
    `except` calls."""
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.RERAISE):
        return []
    clause = facts.innermost_except()
    if clause is None:
        return []
    tried = facts.read.tries.get(clause.line)
    caught = caught_names(clause.text)
    if tried is None or not tried.calls or not caught or caught & _BROAD:
        return []
    if facts.source_text is None:
        return []
    wanted = set(caught)
    for name in caught:
        wanted.update(facts.subclass_names(name))
    found = _linked(store, facts, wanted, tried.line, clause.line)
    seen = {(i.file, i.line) for i in found}
    for call in list(dict.fromkeys(c.partition("(")[0] for c in tried.calls))[:_MAX_CALLS]:
        target = call_target(call, facts)
        if target is None:
            continue
        path, functions = target
        for n in store.neighbours(facts.stored.version_id, path):
            if (
                n.function in functions
                and n.kind is SiteKind.RAISE
                and (n.exception or "").rpartition(".")[2] in wanted
                and not (path == facts.stored.file and n.line == site.line)
                and (path, n.line) not in seen
            ):
                exception = (n.exception or "").rpartition(".")[2]
                found.append(InnerRaise(call, n.line, path, exception, n.message))
    return found


def _linked(
    store: Store, facts: Facts, wanted: set[str], first: int, last: int
) -> list[InnerRaise]:
    """The raises of the caught classes the linker found called from the `try`'s lines
    (`first` to `last`, the `except`'s), at most `_MAX_DEPTH` calls down."""
    stored = facts.stored
    found: list[InnerRaise] = []
    for name in sorted(wanted)[:_MAX_CLASSES]:
        for inner in store.sites_raising(name, stored.project, stored.version, _MAX_READ):
            site = inner.site
            if (
                site.kind is not SiteKind.RAISE
                or (site.exception or "").rpartition(".")[2] not in wanted
            ):
                continue
            link = next(
                (
                    c
                    for c in inner.caller_links
                    if c.depth <= _MAX_DEPTH
                    and c.file == stored.file
                    and c.function == stored.site.function
                    and first <= c.line < last
                ),
                None,
            )
            if link is not None:
                called = _short_name(link.calls)
                message = site.message.text if site.message else None
                through = link.depth > 1
                found.append(InnerRaise(called, site.line, inner.file, name, message, through))
    return found


def _short_name(qualname: str) -> str:
    """`Class.method` of a method's dotted name, `function` of a module's function."""
    parts = qualname.split(".")
    if len(parts) >= 2 and parts[-2][:1].isupper():
        return ".".join(parts[-2:])
    return parts[-1]


def call_target(call: str, facts: Facts) -> tuple[str, tuple[str, ...]] | None:
    """The file and the qualnames of a called name: `self.method` of the site's class, or
    a function or class of the version's code (a class's `__init__`)."""
    stored = facts.stored
    root, _, attr = call.partition(".")
    if root == "self" and attr.isidentifier():
        owner = stored.site.function.rpartition(".")[0]
        return (stored.file, (f"{owner}.{attr}",)) if owner else None
    if not root.isidentifier():
        # a literal's method (`"SELECT ... {}".format`): no import or definition binds it,
        # and the statements kept for a name that is no word are every definition
        return None
    # the file's imports and definitions of `root` alone: a large file parsed whole costs
    # tens of milliseconds, a page's whole budget
    tree = facts.top_module(importing_or_defining(root))
    if tree is None:
        return None
    resolved = resolve_called(call, tree, stored.module)
    if resolved is None:
        return None
    module, name = resolved
    if module == stored.module:
        return stored.file, (name, f"{name}.__init__")
    root_package = stored.module.partition(".")[0]
    if module.partition(".")[0] != root_package:
        return None  # another package's code: not in this version's index
    path = module.replace(".", "/") + ".py"
    if stored.file.endswith("__init__.py") and stored.module == module:
        path = stored.file
    return path, (name, f"{name}.__init__")


def inner_sentence(facts: Facts) -> str | None:
    """What "What it means" says of the callee's raises this error passes on."""
    found = facts.inner_raises
    if not found:
        return None
    called = list(dict.fromkeys(i.called for i in found))
    who = " and ".join(code(c) for c in called[:2])
    places = list(dict.fromkeys((i.file, i.line) for i in found))
    shown = [f"line {line} of {code(file)}" for file, line in places[:_MAX_SHOWN]]
    more = f" and {len(places) - _MAX_SHOWN} more" if len(places) > _MAX_SHOWN else ""
    classes = " or ".join(code(c) for c in sorted({i.exception for i in found}))
    where = ", ".join(shown) + more
    told = all(i.message for i in found)
    if len(places) == 1:
        said = ": that raise's message says what failed" if told else ""
    else:
        said = ": the message of the one raised says what failed" if told else ""
    how = " (through a call it makes)" if any(i.through for i in found) else ""
    return (
        f"Of the package's own code the `try` runs, {who}{how} raises {classes} at {where}{said}."
    )


def inner_solution(facts: Facts) -> Solution | None:
    """The way out every one of the callee's raises says in its message, when they are
    few and say the same."""
    found = facts.inner_raises
    if not found or len({(i.file, i.line) for i in found}) > _MAX_SHOWN:
        return None
    advices = [message_advice(i.message) for i in found]
    if not all(advices):
        return None
    first = {a[0].text for a in advices}
    if len(first) != 1:
        return None  # they disagree: the one raised says which
    advice = advices[0][0]
    who = code(found[0].called)
    text = f"Do what {who}'s error says, the one this error passes on: “{advice.text}”"
    return Solution(text=text, kind=advice.kind, change=advice.change)
