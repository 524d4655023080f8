"""What a printed paste says of the site that printed it, besides its text: the code line
a warning shows under its place, and the rich panel a program draws its errors in."""

from __future__ import annotations

from collections.abc import Iterator

from errdex.lazy_re import lazy_compile
from errdex.linked_facts import IN_PANEL
from errdex.match.evidence import ErrorEvidence
from errdex.match.weights import WEIGHTS as W
from errdex.store.base import StoredSite

__all__ = ["printed_call", "printed_clues"]


def printed_clues(
    evidence: ErrorEvidence, stored: StoredSite, pinned: bool
) -> Iterator[tuple[float, str]]:
    """(bonus, reason) of each clue that points at this site."""
    function = stored.site.function
    if not pinned and (call := printed_call(evidence.hint_code, function, stored.file)) > 0:
        yield W.printed_call * call, f"the line printed under the warning calls {function}"
    elif not pinned and evidence.hint_code and (caller := _calling(evidence.hint_code, stored)):
        yield (
            W.printed_caller,
            (f"the line printed under the warning calls {caller}, which reaches {function}"),
        )
    if evidence.boxed and any(shown.how.endswith(IN_PANEL) for shown in stored.shown):
        yield W.rich_panel, "printed in a rich panel, as this release draws its errors"


def _calling(code: str, stored: StoredSite) -> str | None:
    """The caller of the site's function (at any depth the linker followed) that the printed
    code line calls: a `stacklevel` past the warning's own caller points further up, at the
    line that called the function a user called (`jws.decode(` reaches `_verify_signature`
    through `decode_complete`)."""
    for link in stored.caller_links:
        if printed_call(code, link.function, link.file) > 0:
            return link.function
    return None


# `name(` or `receiver.name(` in a printed code line; bounded, as every pattern on a paste.
_CALL = lazy_compile(
    r"(?:(?P<receiver>[A-Za-z_]\w{0,80})\s{0,4}\.\s{0,4})?(?P<name>[A-Za-z_]\w{0,80})\s{0,4}\("
)


def printed_call(code: str | None, function: str, file: str) -> int:
    """How the code line a printed warning shows under its place calls the site's function:
    2 when the call's receiver also names its class or module (`jws.encode(` for
    `PyJWS.encode`), 1 by the function's name alone, 0 not at all.

    A warning's `stacklevel` points past the function that warns, at the line that called
    it: a line calling `encode(` came through an `encode` (the one a user called).
    """
    parts = [p for p in function.split(".") if p != "<locals>"]
    if not code or not parts or parts[-1].startswith("<"):
        return 0
    best = 0
    for found in _CALL.finditer(code[:2000]):
        if found["name"] != parts[-1]:
            continue
        best = max(best, 1)
        receiver = (found["receiver"] or "").strip("_").lower()
        owners = [p.lower() for p in parts[:-1]]
        owners.append(file.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".py").lower())
        if len(receiver) >= 3 and any(
            owner == receiver or owner.endswith(receiver) for owner in owners
        ):
            return 2
    return best
