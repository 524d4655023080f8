"""Ways out through the setting that picked the code: another backend, a kernel taken out.

A check on state no user sets (a kernel's shapes, a backend's invariants) runs only in the
code a setting picked. Picking other code avoids it, and is said with the real values the
registry holds: the members that stand in for the one that picked this code (listed with it
in the same candidate lists), the class to name in the variable that takes classes out, or,
for a plugin a flag names in a registry of names (`--reasoning-parser deepseek_r1`), the
flag left out or the name of the plugin made for the user's model, from the names the
registry holds (which one fits which model no list says, so none is picked for the user:
`explain.named_plugin`).
These come after the settings that decide the check itself: they change more than the
check, and the code picked instead may ask things of its own.
"""

from __future__ import annotations

import ast
import shlex

import msgspec

from errdex.ast_walk import walk
from errdex.explain.loaded_plugin import loaded_context
from errdex.explain.named_plugin import named_context, named_solution
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.picked_value import Taken, ValuePicked
from errdex.explain.plain import code, command_placeholders, listed, setting_noun
from errdex.explain.value_picked import value_picked_context
from errdex.facts import ConditionKind, KnobKind, SiteKind
from errdex.linked_facts import SelectionLink
from errdex.store.base import StoredSite


def selection_solutions(
    stored: StoredSite,
    *,
    others: dict[str, tuple[str, ...]] | None = None,
    fitting: dict[str, dict[str, tuple[Taken, ...]]] | None = None,
) -> list[Solution]:
    """One solution per setting that picks the site's code, best first, each with its fix.

    None for a warning or a log record: the program goes on after it, and other code
    (another backend) may not take what the user runs (a cache type only this one has).
    With `others` (a setting → members), only those stand in for a member chosen: the code
    runs for a value of another setting that few support (`explain/value_picked.py`), and
    the member named instead must support it as well; a setting with none is no way out.
    With `fitting` (a setting → members), those of a setting it holds are the only ones
    whose class runs where the chosen member's class runs and takes some of its values
    (`explain/stand_ins.py`): one refusing the user's device or all their values is no way
    out, and a setting with none left is none (leaving a member only the setting names out
    still is). A member taking only some of the values comes after those taking all, named
    with the values it takes."""
    out: list[Solution] = []
    if stored.site.kind in (SiteKind.LOG, SiteKind.WARN):
        return out
    invariant = _input_invariant(stored)
    for link in stored.selections:
        takes: dict[str, tuple[Taken, ...]] = {}
        if link.how == "exclude" and invariant:
            continue
        if link.how == "choose" and others is not None:
            kept = tuple(o for o in link.others if o in others.get(link.setting, ()))
            if not kept:
                continue
            link = msgspec.structs.replace(link, others=kept)
        if link.how == "choose" and fitting is not None and link.setting in fitting:
            members = fitting[link.setting]
            whole = tuple(o for o in link.others if o in members and not members[o])
            takes = {o: members[o] for o in link.others if members.get(o)}
            if not whole and not takes and not link.given:
                continue
            link = msgspec.structs.replace(link, others=whole + tuple(takes))
        if link.how == "load":
            continue  # after every other way out (`explain.loaded_plugin`)
        if link.how == "name":
            named = named_solution(link, stored)
            if named is not None and all(s.text != named.text for s in out):
                out.append(named)
            continue
        text = _exclude(link) if link.how == "exclude" else _choose(link, stored, takes)
        if text is not None and all(s.text != text for s in out):
            fix = _fix(link, takes)
            out.append(Solution(text=text, knob=link.setting, kind="setting", fix=fix))
    return out


def selection_context(
    stored: StoredSite, offered: list[Solution], picked: ValuePicked | None = None
) -> str | None:
    """What "What it means" says when the way out offered is other code: the check itself
    is on internal state, but a setting picked the code it is in."""
    if picked is not None and any(s.knob == picked.flag for s in offered):
        return value_picked_context(picked)
    for link in stored.selections:
        if not any(s.knob == link.setting and s.kind == "setting" for s in offered):
            continue
        if link.how == "name":
            return named_context(link, stored)
        if link.how == "load":
            said = loaded_context(link, stored, offered)
            if said is not None:
                return said
            continue
        if link.how == "choose":
            only, why, avoids = (
                ("only ", ", which no code picks by itself,", "leaving the setting out or another")
                if link.given
                else ("", " (given or picked by default),", "another")
            )
            return (
                f"But a setting picks the code it is in: it runs {only}when "
                f"{code(link.setting)} is {code(link.value)}{why} so {avoids} value avoids it."
            )
        return (
            f"But a setting picks the code it is in: {code(link.value)} is one of the "
            f"candidates a selection tries, and {code(link.setting)} takes it out."
        )
    return None


def _input_invariant(stored: StoredSite) -> bool:
    """Whether the check may be one every candidate of a selection shares, so that taking
    this one out only ends in "no kernel can implement": an `assert` (an invariant as the
    author states it), or a shape that must match another (`scale.shape != (N, K // 32)`),
    which is the input's consistency, not what this class supports. Nothing here says the
    next candidate accepts the same input, so no way out is better than a wrong one."""
    if stored.site.kind == SiteKind.ASSERT:
        return True
    for condition in stored.site.conditions:
        if condition.kind == ConditionKind.EARLY_EXIT:
            continue
        try:
            tree = ast.parse(condition.test, mode="eval")
        except SyntaxError:
            continue
        if any(_shape_match(node) for node in walk(tree)):
            return True
    return False


def _shape_match(node: ast.AST) -> bool:
    """`a.shape == b.shape`, `w.shape != (n, k)`: a shape compared with another shape."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return False
    if not isinstance(node.ops[0], ast.Eq | ast.NotEq):
        return False
    sides = (node.left, node.comparators[0])
    shapes = sum(_is_shape(side) for side in sides)
    return shapes == 2 or (shapes == 1 and any(isinstance(s, ast.Tuple | ast.List) for s in sides))


def _is_shape(node: ast.expr) -> bool:
    """`x.shape`, `x.shape[0]`, `x.size()`, `x.size(1)`."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Call):
        node = node.func
        return isinstance(node, ast.Attribute) and node.attr == "size"
    return isinstance(node, ast.Attribute) and node.attr == "shape"


def _choose(
    link: SelectionLink, stored: StoredSite, takes: dict[str, tuple[Taken, ...]]
) -> str | None:
    if link.given:
        return _given(link, stored, takes)
    other = _other_choice(link, takes)
    if other is None:
        return None
    named = code(link.registry) if link.registry else code(link.value)
    where = _where(link, stored)
    default = f" or picked by default from the list at {link.listed}" if link.listed else ""
    return (
        f"Choose {other}. This code runs for {code(link.value)} ({named} names a class of "
        f"{where}), set with {code(link.setting)}{default}."
    )


def _other_choice(link: SelectionLink, takes: dict[str, tuple[Taken, ...]]) -> str | None:
    """ "another attention backend: `--attention-backend FLASH_ATTN` (or ...)", each member
    that takes only some of the values after, with them: "`--attention-backend
    FLASHMLA_SPARSE` for `--dtype` `bfloat16` only", or None."""
    if not link.others:
        return None
    whole = [o for o in link.others if o not in takes]
    named = []
    if whole:
        first, *rest = whole
        also = f" (or {', '.join(code(o) for o in rest)})" if rest else ""
        named.append(f"{code(f'{link.setting} {first}')}{also}")
    for member, taken in takes.items():
        only = [_values(t) for t in taken if not t.refused]
        refused = [_values(t) for t in taken if t.refused]
        said = [f"for {listed(only)} only"] if only else []
        said += [f"not with {listed(refused)}"] if refused else []
        named.append(f"{code(f'{link.setting} {member}')} {', '.join(said)}")
    return f"another {setting_noun(link.setting)}: {', or '.join(named)}"


def _values(taken: Taken) -> str:
    """ "`--dtype` `float16` or `bfloat16`"."""
    return f"{code(taken.flag)} {listed([code(v) for v in taken.values], 'or')}"


def _where(link: SelectionLink, stored: StoredSite) -> str:
    """The site's file, whose class the registry names: "this file" when the registry is
    in another file; when both are one file, its name (no page of the sample has one)."""
    return "this file" if link.file != stored.file else code(stored.file)


def _given(link: SelectionLink, stored: StoredSite, takes: dict[str, tuple[Taken, ...]]) -> str:
    """A member only the setting picks: leave it out, or pick one of its kind."""
    given = code(f"{link.setting} {link.value}")
    choice = _other_choice(link, takes)
    other = f", or choose {choice}" if choice is not None else ""
    named = code(link.registry) if link.registry else code(link.value)
    return (
        f"Leave {given} out{other}. This code runs for {code(link.value)} ({named} names a "
        f"class of {_where(link, stored)}), which no list or other code picks: it runs only "
        f"when {given} is given, and without it the platform's own list picks the "
        f"{setting_noun(link.setting)}."
    )


def _exclude(link: SelectionLink) -> str:
    if link.kind == KnobKind.ENV:
        how = f"set {code(f'{link.setting}={link.value}')}"
        if link.separator:
            how += f" (names already there stay, separated by {code(link.separator)})"
    else:
        how = f"pass {code(f'{link.setting} {link.value}')}"
    # the file, not the filter's line: a file may filter by name in several functions
    where = f" in {link.file}" if link.file else ""
    listed = f"lists it at {link.listed} and " if link.listed else ""
    then = (
        f", then tries the next candidate ({', '.join(code(o) for o in link.others)})"
        if link.others
        else ""
    )
    return (
        f"Take {code(link.value)} out of the selection: {how}. The selection{where} "
        f"{listed}skips the classes named there{then}."
    )


def _fix(link: SelectionLink, takes: dict[str, tuple[Taken, ...]]) -> ExampleFix | None:
    """Before and after: the command line with the other value (and, for a member taking
    only some values, the first of each it takes)."""
    if not link.command or (link.how == "choose" and not link.others and not link.given):
        return None
    if link.given:  # the command as the user typed it, with the value that runs the code
        after = link.command
        if link.others:
            first = _first_taking(link, takes)
            after += f" {link.setting} {shlex.quote(first)}"
            after += _values_taken(takes.get(first, ()))
        return ExampleFix(
            before=f"{link.command} {link.setting} {shlex.quote(link.value)}",
            after=after,
            note=f"{code(link.setting)} picks the code this check is in; only "
            f"{code(link.value)} runs it." + command_placeholders(link.command or ""),
        )
    value = _first_taking(link, takes) if link.how == "choose" else link.value
    note = f"{code(link.setting)} picks the code this check is in" + (
        f"; {code(link.value)} runs it." if link.how == "choose" else "."
    )
    if link.kind == KnobKind.ENV:
        after = f"{link.setting}={shlex.quote(value)} {link.command}"
    else:
        after = f"{link.command} {link.setting} {shlex.quote(value)}"
    if link.how == "choose":
        after += _values_taken(takes.get(value, ()))
    return ExampleFix(
        before=link.command, after=after, note=note + command_placeholders(link.command or "")
    )


def _first_taking(link: SelectionLink, takes: dict[str, tuple[Taken, ...]]) -> str:
    """The first member of the others known to take a value it can be given with: one
    refusing some of the values (its class decides the rest by calls) still takes those of
    the list it does not refuse, and is shown with the first of them (`_values_taken`); a
    member with nothing the fix can name is passed over where another is known."""
    known = [m for m in link.others if all(t.shared or not t.refused for t in takes.get(m, ()))]
    return known[0] if known else link.others[0]


def _values_taken(taken: tuple[Taken, ...]) -> str:
    """` --dtype bfloat16`: the first value of each setting a member takes only some of
    (of one it refuses some of, the first of those it does not refuse)."""
    firsts = [(t.flag, t.shared if t.refused else t.values) for t in taken]
    return "".join(f" {flag} {shlex.quote(values[0])}" for flag, values in firsts if values)
