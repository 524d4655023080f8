"""What a parse call takes, by the call's name: the form a value must have for it.

Two tables for the rules that name them: `failed_call` (a well-known parse of the `try`
failed: "Make sure `text` is valid JSON") and `tried_input` (the value the user gave a
parse: "Give `decode` another `data` that is valid URL-safe Base64 text (...)").
"""

from __future__ import annotations

import ast
import re

__all__ = [
    "BASE64",
    "JSON",
    "JSON_FILE",
    "LITERAL",
    "PARSES",
    "REGEX",
    "URLSAFE_BASE64",
    "format_named",
    "parse_form",
]

JSON = "valid JSON"
JSON_FILE = "a file of valid JSON"
BASE64 = "valid Base64 text (the standard alphabet, padded with `=` to a multiple of 4 characters)"
URLSAFE_BASE64 = (
    "valid URL-safe Base64 text (`-` and `_` in place of `+` and `/`, padded with `=` to "
    "a multiple of 4 characters)"
)
LITERAL = (
    "a valid Python literal (a number, a string, a tuple, list, dict or set of them, "
    "`True`, `False` or `None`)"
)
REGEX = "a valid regular expression (Python's `re` syntax)"
# By the function's name (or its module's, for `load`/`loads`: `json.loads`, `yaml.load`).
_FORMATS = (
    (re.compile(r"json", re.I), JSON),
    (re.compile(r"^literal_eval$"), LITERAL),
    (
        re.compile(r"^fromisoformat$"),
        "a valid ISO 8601 date or time (`2024-01-31`, `2024-01-31T12:00:00`)",
    ),
    (re.compile(r"yaml", re.I), "valid YAML"),
    (re.compile(r"toml", re.I), "valid TOML"),
    (re.compile(r"^urlsafe_b64decode$"), URLSAFE_BASE64),
    (re.compile(r"b64decode$"), BASE64),
)

# Calls that parse a text, with what the text must be and the errors a bad one raises.
PARSES = {
    "json.loads": (JSON, frozenset({"ValueError", "JSONDecodeError"})),
    "json.load": (JSON_FILE, frozenset({"ValueError", "JSONDecodeError"})),
    "int": ("a whole number written out (`int('12')`)", frozenset({"ValueError", "TypeError"})),
    "float": ("a number written out (`float('1.5')`)", frozenset({"ValueError", "TypeError"})),
    # the standard library's parsers of addresses, ids and encoded bytes: the form each takes
    "ipaddress.IPv4Address": (
        "a valid IPv4 address: four numbers from 0 to 255 joined by dots (`192.168.0.1`)",
        frozenset({"ValueError", "AddressValueError"}),
    ),
    "ipaddress.IPv6Address": (
        "a valid IPv6 address (`::1`, `2001:db8::1`)",
        frozenset({"ValueError", "AddressValueError"}),
    ),
    "ipaddress.ip_address": (
        "a valid IPv4 or IPv6 address (`192.168.0.1`, `::1`)",
        frozenset({"ValueError"}),
    ),
    **dict.fromkeys(
        ("ipaddress.ip_network", "ipaddress.IPv4Network", "ipaddress.IPv6Network"),
        (
            "a valid network: an address and a prefix length, with no host bits set "
            "(`192.168.0.0/24`)",
            frozenset({"ValueError", "AddressValueError", "NetmaskValueError"}),
        ),
    ),
    "uuid.UUID": (
        "a UUID: 32 hexadecimal digits, hyphens allowed (`12345678-1234-5678-1234-567812345678`)",
        frozenset({"ValueError"}),
    ),
    "base64.b64decode": (BASE64, frozenset({"ValueError", "Error"})),
    "base64.urlsafe_b64decode": (URLSAFE_BASE64, frozenset({"ValueError", "Error"})),
    # a pattern compiled, a literal read: what `re.error` (`PatternError` since 3.13) and
    # `literal_eval`'s errors say is wrong with the text
    "re.compile": (REGEX, frozenset({"error", "PatternError"})),
    **dict.fromkeys(
        ("ast.literal_eval", "literal_eval"),
        (LITERAL, frozenset({"ValueError", "SyntaxError", "TypeError", "RecursionError"})),
    ),
}
# what a clause catching everything catches
_BROAD = frozenset({"Exception", "BaseException", ""})


def parse_form(
    call: ast.Call, caught: set[str], imported: dict[str, str] | None = None
) -> str | None:
    """The form a well-known parse (`PARSES`) takes of its first argument ("a valid
    regular expression"), when the clause's classes (`caught_names`, "" for a bare
    `except`) hold what it raises on a bad one; else None. `imported` maps a bare name to
    what the file imports it as (`UUID` of `from uuid import UUID`: `uuid.UUID`)."""
    name = ast.unparse(call.func)
    name = (imported or {}).get(name, name)
    if name not in PARSES or not call.args:
        return None
    what, raises = PARSES[name]
    return what if caught & (raises | _BROAD) else None


def format_named(name: str, written: str) -> str | None:
    """The form the parse call `written` (`json.loads`), whose function is `name`
    (`loads`), takes; None when neither says one. `json.load` reads a file, not a text."""
    if written == "json.load":
        return JSON_FILE
    for pattern, form in _FORMATS:
        if pattern.search(name) or (name in ("load", "loads") and pattern.search(written)):
            return form
    return None
