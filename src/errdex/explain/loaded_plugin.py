"""The way out of code a setting's registered names alone load: another name, or none.

vllm registers each KV connector with the module it lives in, as text
(`KVConnectorFactory.register_connector("NixlConnector", "vllm...v1.nixl", ...)`), and imports
that module only when `kv_connector` of `--kv-transfer-config` names it; nothing else imports
the NIXL package (`link.loaded_registry`). A check anywhere in it (a platform NIXL does not
support, a peer's block size) runs only for those names: another registered name, or the
flag left out, avoids it, and turns that code off, which the page says plainly: so it
comes after every other way out. No name is
picked for the user (which one fits their setup no list says): the page lists those the
registry holds, without the ones that load this code.
"""

from __future__ import annotations

from errdex.explain.page import Solution
from errdex.explain.plain import code, listed
from errdex.facts import KnobKind, SiteKind
from errdex.linked_facts import SelectionLink
from errdex.store.base import StoredSite


def loaded_solutions(stored: StoredSite) -> list[Solution]:
    """The way out of each registry whose names alone load the site's code (none for a
    warning or a log record: the program goes on)."""
    if stored.site.kind in (SiteKind.LOG, SiteKind.WARN):
        return []
    out = []
    for link in stored.selections:
        if link.how == "load" and (solution := loaded_solution(link, stored)) is not None:
            out.append(solution)
    return out


def loaded_texts(stored: StoredSite) -> set[str]:
    """The texts of `loaded_solutions`: ways out that turn the code off, not a setting
    whose doc or log says why the check is there."""
    return {s.text for s in loaded_solutions(stored)} if stored.selections else set()


def loaded_solution(link: SelectionLink, stored: StoredSite) -> Solution | None:
    """Another value of the setting (or none), with the names that load this code and
    where the registry says so; None for an assertion (the code's own invariant, which
    another setting does not make right)."""
    if stored.site.kind == SiteKind.ASSERT:
        return None
    picked = (link.value, *link.aliases)
    own = set(picked)
    others = [n for n in link.registered if n not in own]
    left = (
        f"{code(link.setting)} unset"
        if link.kind == KnobKind.ENV
        else f"{code(link.setting)} left out"
    )
    names = f" The other names it registers: {_names(others)}." if others else ""
    which = "that name" if len(picked) == 1 else "those names"
    text = (
        f"Give {_setting(link)} a value other than {_names(picked, 'or')}, or run with "
        f"{left}: this module is loaded only by the entries {code(link.registry or '')} "
        f"makes for {which} ({link.listed or f'{link.file}:{link.line}'}), looked up by that "
        f"value, and only code they load imports it. This turns off what {which} "
        f"{'loads' if len(picked) == 1 else 'load'}.{names}"
    )
    return Solution(text=text, knob=link.setting, kind="setting", drops=True)


def loaded_context(link: SelectionLink, stored: StoredSite, offered: list[Solution]) -> str | None:
    """What "What it means" says when the way out is offered: the setting's names load
    this code."""
    solution = loaded_solution(link, stored)
    if solution is None or all(s.text != solution.text for s in offered):
        return None
    return (
        f"But a setting picks the code it is in: it is loaded only when {_setting(link)} is "
        f"{_names((link.value, *link.aliases), 'or')}, so another value avoids it."
    )


def _setting(link: SelectionLink) -> str:
    """ "`kv_connector` of `--kv-transfer-config`", or the setting itself."""
    if link.key:
        return f"{code(link.key)} of {code(link.setting)}"
    return code(link.setting)


def _names(names: tuple[str, ...] | list[str], last: str = "and") -> str:
    """`a`, `b` or `c`."""
    return listed([code(n) for n in names], last)
