"""Scoring a raise whose text a user of the class may set (`errdex.settable`): matched by
its class, as one whose text is computed, and the words its default shares with the paste
(a reworded default names the same thing) tell the raises of one class apart.
"""

from __future__ import annotations

from errdex.facts import ErrorSite
from errdex.match.words import stems

__all__ = ["shared_with_default"]


def shared_with_default(site: ErrorSite, message: str) -> list[str]:
    """Stems of the paste's words that the default text also has (`date` of `Enter a date
    as YYYY-MM-DD.` and `Not a valid date value.`)."""
    default = site.message.literal_text if site.message is not None else ""
    return sorted(set(stems(message)) & set(stems(default)))
