"""Upgrade solutions: a later release of the same project where the check is gone or changed.

The page's version history (`history.timeline.lineage`, paired across the indexed releases)
says what became of the error after the version the user has: no longer raised from its
place ("removed"), or raised with other words under other conditions ("reworded"). Either
is a way out of the environment kind: upgrade to that release. A release where only the
words changed, under the same conditions, is no way out, and neither is one that merely
moved the check.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import InvalidVersion, Version

from errdex.explain.fix_forms import change_fix
from errdex.explain.page import Change, ConditionView, Solution, VersionEntry
from errdex.explain.plain import code

_MAX_SAID = 4  # conditions of the changed check said in the solution
# The conditions of another version's site of a reworded error, read when needed.
ConditionsOf = Callable[[str, str], list[ConditionView] | None]
# Whether a version still raises the same error from the same function: the pairing of
# releases may lose an error whose id changed (its ordinal among same-text sites), and an
# upgrade that keeps the check is no way out.
StillRaised = Callable[[str], bool]


def upgrade_solutions(
    project: str,
    version: str,
    versions: list[VersionEntry],
    conditions: list[ConditionView],
    conditions_of: ConditionsOf,
    still_raised: StillRaised,
    installable: bool = False,
) -> list[Solution]:
    """At most one solution: the first release after `version` where the check is gone
    or holds under other conditions. `versions` is newest first, as the page lists them;
    `installable` says they are releases of a distribution pip installs by the project's
    name (not tags of a git repository or labels of a folder)."""
    mine = next((i for i, e in enumerate(versions) if e.version == version), None)
    if mine is None:
        return []
    later = list(reversed(versions[:mine]))  # oldest first, after the user's version
    own = {c.text for c in conditions}
    for entry in later:
        if entry.status == "removed":
            if still_raised(entry.version):
                return []
            return [
                _upgrade(
                    project if installable else None,
                    entry.version,
                    f"Upgrade {project} to {entry.version} or later: errdex's index of "
                    f"{entry.version} has no such check at {code(entry.file)}.",
                )
            ]
        if entry.status != "reworded":
            continue
        theirs = conditions_of(entry.id, entry.version)
        if theirs is None or {c.text for c in theirs} == own:
            continue  # only the words changed: the same check stands
        when = " and ".join(code(t.text) for t in theirs[:_MAX_SAID]) or "nothing guards it"
        return [
            _upgrade(
                project if installable else None,
                entry.version,
                f"Upgrade {project} to {entry.version} or later, where the check changed: "
                f"it is raised only when {when} ({code(entry.file)}:{entry.line}).",
            )
        ]
    return []


def _upgrade(project: str | None, version: str, text: str) -> Solution:
    """The solution, with the pip line that upgrades `project` (the distribution, when the
    versions are its releases) to the release."""
    if project is None:
        return Solution(text=text, kind="environment")
    try:
        Version(version)
        requirement = str(Requirement(f"{project}>={version}"))
    except (InvalidVersion, InvalidRequirement):
        return Solution(text=text, kind="environment")
    change = Change(form="install", target=shlex.join(["pip", "install", "--upgrade", requirement]))
    return Solution(text=text, kind="environment", change=change, fix=change_fix(change))
