"""Passwords kept out of what errdex prints: the password of a URL's userinfo
(`scheme://user:PASSWORD@host`) and of a `password=` field, wherever they appear in a
message. Only those positions are touched: the same letters elsewhere in a message (a user
named as their password, a word of an error) are left as they are."""

from __future__ import annotations

import re

HIDDEN = "***"
# The password runs to the `@` that ends the userinfo; it may hold `/`, `#` or `?` when a
# user did not percent-encode it, but never whitespace or `@`.
_URL_PASSWORD = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s/@:]*:)[^\s@]*(?=@)")
_FIELD_PASSWORD = re.compile(r"(?P<head>\bpassword\s*=\s*)(?:'[^']*'|[^&\s]+)", re.IGNORECASE)


def redact_passwords(text: str) -> str:
    """`text` with the password of every URL and `password=` field in it as `***`."""
    if "://" in text:
        text = _URL_PASSWORD.sub(rf"\g<head>{HIDDEN}", text)
    if "=" in text:
        text = _FIELD_PASSWORD.sub(rf"\g<head>{HIDDEN}", text)
    return text
