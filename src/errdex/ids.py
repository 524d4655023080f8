"""Stable error ids: 16 hex digits from what an error is, not where it sits."""

from __future__ import annotations

import hashlib


def error_id(
    project: str,
    exception: str | None,
    template: str | None,
    module: str,
    function: str,
    ordinal: int = 0,
) -> str:
    """Hash (project, exception, message template, module, function) into 16 hex digits.

    Line numbers are left out on purpose so that an id survives code moving around;
    `ordinal` tells apart identical sites in one function (0 for the first).
    """
    key = "\x1f".join(
        [project.lower(), exception or "", template or "", module, function, str(ordinal)]
    )
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
