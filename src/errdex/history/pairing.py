"""The pairing rules: which error of one version became which error of the next."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import msgspec

from errdex.store.base import StoredSite

SIMILAR = 0.6  # the least difflib ratio of two templates for a rewording
WEAK = 8  # a template with fewer literal characters is too bland to follow across functions
_TOP_LEVEL = "<module>"


class Link(msgspec.Struct, frozen=True, kw_only=True):
    """An error of the old version and what it is in the new one."""

    status: str  # "unchanged", "moved" or "reworded"
    old: StoredSite
    new: StoredSite
    similarity: float = 1.0  # the templates' difflib ratio (1.0 unless reworded)


class Pairing(msgspec.Struct, kw_only=True):
    """Every site of two versions, each in one place."""

    unchanged: list[Link] = []  # the same id, in the same file
    moved: list[Link] = []  # the same id in another file, or the same template elsewhere
    reworded: list[Link] = []
    removed: list[StoredSite] = []
    added: list[StoredSite] = []

    def link_of_old(self, error_id: str) -> Link | None:
        """The link whose old side is `error_id`, if it has one."""
        return next((x for x in self._links() if x.old.id == error_id), None)

    def link_of_new(self, error_id: str) -> Link | None:
        """The link whose new side is `error_id`, if it has one."""
        return next((x for x in self._links() if x.new.id == error_id), None)

    def _links(self) -> Iterable[Link]:
        yield from self.moved
        yield from self.reworded
        yield from self.unchanged


def template_text(site: StoredSite) -> str | None:
    message = site.site.message
    return message.text if message is not None else None


def exception_name(site: StoredSite) -> str | None:
    """The class's short name (resolution may move its module between versions)."""
    if site.exception is not None:
        return site.exception.name
    written = site.site.exception
    return written.rsplit(".", 1)[-1] if written else None


def similarity(old: str, new: str) -> float:
    """difflib's ratio of two templates, skipping the full count when the bounds rule it out."""
    import difflib  # here: a lookup imports this module, and pairs versions only when asked

    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    if matcher.real_quick_ratio() < SIMILAR or matcher.quick_ratio() < SIMILAR:
        return 0.0
    return matcher.ratio()


def pair_sites(olds: Sequence[StoredSite], news: Sequence[StoredSite]) -> Pairing:
    """Pair the sites of an old and a new version (or the same slice of both).

    Two versions' sites are paired in three passes, each over what the previous left:

    1. **same id**: the error is unchanged (its line may differ; its file too, then it moved);
    2. **moved**: the same kind, exception and message template in another function or file;
    3. **reworded**: the same function (qualname) in the same module, or the same qualname in
       another module with the same exception, and a similar template (difflib ratio ≥ 0.6).

    Two sites under contradictory guards (one needs `X`, the other `not X`) are never paired;
    in another function or file, two sites whose guards share no test are not either (the
    same boilerplate message under another guard is another error).

    Within a pass, candidate pairs are taken greedily, best first. What is left of the old
    version was removed; what is left of the new one was added. The same rules serve a whole
    diff and the cheap per-error questions of a page (over the sites of a few files only).
    """
    old_by_id = _by_id(olds)
    new_by_id = _by_id(news)
    pairing = Pairing()
    for error_id, old in old_by_id.items():
        new = new_by_id.get(error_id)
        if new is not None:
            status = "unchanged" if new.file == old.file else "moved"
            target = pairing.unchanged if status == "unchanged" else pairing.moved
            target.append(Link(status=status, old=old, new=new))
    gone = [s for i, s in old_by_id.items() if i not in new_by_id]
    came = [s for i, s in new_by_id.items() if i not in old_by_id]
    moved = _greedy(_move_candidates(gone, came))
    pairing.moved.extend(Link(status="moved", old=c.old, new=c.new) for c in moved)
    gone, came = _rest(gone, came, moved)
    reworded = _greedy(_reword_candidates(gone, came))
    pairing.reworded.extend(
        Link(status="reworded", old=c.old, new=c.new, similarity=round(c.ratio, 4))
        for c in reworded
    )
    gone, came = _rest(gone, came, reworded)
    pairing.removed = gone
    pairing.added = came
    return pairing


def focus(
    function: str, olds: Sequence[StoredSite], news: Sequence[StoredSite]
) -> tuple[list[StoredSite], list[StoredSite]]:
    """The sites that can change how a site of `function` (a qualname) pairs: those of a
    function of that qualname, and those sharing a move key (kind, exception, template)
    with one of them. Pairing them alone places that site as pairing everything would."""
    keys = {_key(s) for s in [*olds, *news] if s.site.function == function}

    def keep(site: StoredSite) -> bool:
        return site.site.function == function or _key(site) in keys

    return [s for s in olds if keep(s)], [s for s in news if keep(s)]


def _key(site: StoredSite) -> tuple[str, str | None, str | None]:
    """What a moved error keeps: its kind, exception and template."""
    return (str(site.site.kind), exception_name(site), template_text(site))


class Candidate(NamedTuple):
    score: float  # higher first
    ratio: float  # the templates' similarity
    old: StoredSite
    new: StoredSite


def _by_id(sites: Iterable[StoredSite]) -> dict[str, StoredSite]:
    found: dict[str, StoredSite] = {}
    for site in sites:
        found.setdefault(site.id, site)
    return found


def _place(old: StoredSite, new: StoredSite) -> float:
    """How near two sites sit: same function, same name, same module, same class."""
    score = 0.0
    if old.site.function == new.site.function:
        score += 4
    elif old.site.function.rsplit(".", 1)[-1] == new.site.function.rsplit(".", 1)[-1]:
        score += 2
    if old.module == new.module:
        score += 1
    if old.site.class_name is not None and old.site.class_name == new.site.class_name:
        score += 0.5
    return score


def _same_guard(old: StoredSite, new: StoredSite) -> bool:
    """False when both sites have conditions and share none: the same boilerplate message
    (`module {__name__!r} has no attribute {name!r}`) under another guard is another error."""
    before = {c.test for c in old.site.conditions}
    after = {c.test for c in new.site.conditions}
    return not before or not after or bool(before & after)


def _contradicts(old: StoredSite, new: StoredSite) -> bool:
    """True when one site needs a test to hold and the other needs it not to: they sit on
    different paths (`if qv is not None:` ... `else:`), so they are different errors."""
    before = {(c.test, c.holds) for c in old.site.conditions}
    return any((c.test, not c.holds) in before for c in new.site.conditions)


def _move_candidates(gone: Sequence[StoredSite], came: Sequence[StoredSite]) -> list[Candidate]:
    by_key: dict[tuple[str, str | None, str | None], list[StoredSite]] = defaultdict(list)
    for new in came:
        by_key[_key(new)].append(new)
    candidates: list[Candidate] = []
    for old in gone:
        message = old.site.message
        weak = message is None or message.literal_length < WEAK
        for new in by_key.get(_key(old), ()):
            if weak and old.site.function != new.site.function:
                continue  # `raise` or `{e}`: only the same function in a moved file
            if (not weak and not _same_guard(old, new)) or _contradicts(old, new):
                continue
            candidates.append(Candidate(_place(old, new), 1.0, old, new))
    return candidates


def _reword_candidates(gone: Sequence[StoredSite], came: Sequence[StoredSite]) -> list[Candidate]:
    by_function: dict[str, list[StoredSite]] = defaultdict(list)
    for new in came:
        if new.site.message is not None and new.site.message.literal_length:
            by_function[new.site.function].append(new)
    candidates: list[Candidate] = []
    for old in gone:
        before = template_text(old)
        if before is None or old.site.message is None or not old.site.message.literal_length:
            continue
        for new in by_function.get(old.site.function, ()):
            if new.site.kind != old.site.kind:
                continue
            same_module = new.module == old.module
            same_exception = exception_name(new) == exception_name(old)
            if not same_module and (
                old.site.function == _TOP_LEVEL or not same_exception or not _same_guard(old, new)
            ):
                continue
            if _contradicts(old, new):
                continue
            after = template_text(new)
            assert after is not None
            ratio = similarity(before, after)
            if ratio >= SIMILAR:
                # The ratio decides; the same module, then the same class, break ties.
                score = ratio + 0.002 * same_module + 0.001 * same_exception
                candidates.append(Candidate(score, ratio, old, new))
    return candidates


def _greedy(candidates: list[Candidate]) -> list[Candidate]:
    """The best pairs first, each site in one pair at most; ties by place in the files."""
    candidates.sort(
        key=lambda c: (
            -c.score,
            abs(c.old.site.line - c.new.site.line),
            c.old.file,
            c.old.site.line,
            c.new.file,
            c.new.site.line,
        )
    )
    taken_old: set[str] = set()
    taken_new: set[str] = set()
    chosen: list[Candidate] = []
    for candidate in candidates:
        old, new = candidate.old, candidate.new
        if old.id in taken_old or new.id in taken_new:
            continue
        taken_old.add(old.id)
        taken_new.add(new.id)
        chosen.append(candidate)
    return chosen


def _rest(
    gone: list[StoredSite], came: list[StoredSite], paired: list[Candidate]
) -> tuple[list[StoredSite], list[StoredSite]]:
    olds = {c.old.id for c in paired}
    news = {c.new.id for c in paired}
    return [s for s in gone if s.id not in olds], [s for s in came if s.id not in news]
