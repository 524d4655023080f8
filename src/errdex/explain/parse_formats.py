"""What a parse call takes, by the call's name: the form a value must have for it.

One table for the rules that name it: `failed_call` (a well-known parse of the `try`
failed: "Make sure `text` is valid JSON") and `tried_input` (the value the user gave a
parse: "Give `decode` another `data` that is valid URL-safe Base64 text (...)").
"""

from __future__ import annotations

import re

__all__ = ["BASE64", "JSON", "JSON_FILE", "URLSAFE_BASE64", "format_named"]

JSON = "valid JSON"
JSON_FILE = "a file of valid JSON"
BASE64 = "valid Base64 text (the standard alphabet, padded with `=` to a multiple of 4 characters)"
URLSAFE_BASE64 = (
    "valid URL-safe Base64 text (`-` and `_` in place of `+` and `/`, padded with `=` to "
    "a multiple of 4 characters)"
)
# By the function's name (or its module's, for `load`/`loads`: `json.loads`, `yaml.load`).
_FORMATS = (
    (re.compile(r"json", re.I), JSON),
    (
        re.compile(r"^literal_eval$"),
        "a valid Python literal (a number, a string, a tuple, list, dict or set of them, "
        "`True`, `False` or `None`)",
    ),
    (
        re.compile(r"^fromisoformat$"),
        "a valid ISO 8601 date or time (`2024-01-31`, `2024-01-31T12:00:00`)",
    ),
    (re.compile(r"yaml", re.I), "valid YAML"),
    (re.compile(r"toml", re.I), "valid TOML"),
    (re.compile(r"^urlsafe_b64decode$"), URLSAFE_BASE64),
    (re.compile(r"b64decode$"), BASE64),
)


def format_named(name: str, written: str) -> str | None:
    """The form the parse call `written` (`json.loads`), whose function is `name`
    (`loads`), takes; None when neither says one. `json.load` reads a file, not a text."""
    if written == "json.load":
        return JSON_FILE
    for pattern, form in _FORMATS:
        if pattern.search(name) or (name in ("load", "loads") and pattern.search(written)):
            return form
    return None
