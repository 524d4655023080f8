"""Connecting to PostgreSQL: the URLs errdex takes, failures as one-line `StoreError`s, and a
connection that takes the `?` placeholders the shared queries are written with."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import TupleRow

from errdex.errors import StoreError
from errdex.redact import HIDDEN, redact_passwords

CONNECT_SECONDS = 10  # an unreachable host fails in this time, unless the URL says otherwise
MIN_SERVER = 120000  # generated identity columns and nondeterministic collations: 12+
_RAW_PASSWORD = re.compile(r"://[^\s/@:]*:([^\s@]*)@")

RawConnection = psycopg.Connection[TupleRow]


def libpq_url(url: str) -> str:
    """The URL with the scheme libpq reads (`postgresql+psycopg://` → `postgresql://`)."""
    _, _, rest = url.partition("://")
    return "postgresql://" + rest


def redact(text: str, url: str) -> str:
    """`text` without the password `url` holds: in a URL's userinfo or a `password=` field,
    and where libpq quotes a value it cannot read (`invalid percent-encoded token: "..."`),
    unless that value is the user's name too (then it is the name)."""
    text = redact_passwords(text)
    try:
        fields = conninfo_to_dict(libpq_url(url))
    except psycopg.Error:
        fields = {}
    password = str(fields.get("password") or _raw_password(url) or "")
    if password and password != str(fields.get("user") or ""):
        text = text.replace(f'"{password}"', f'"{HIDDEN}"')
    return text


def _raw_password(url: str) -> str | None:
    """The password as written in the URL's userinfo, when libpq cannot read the URL."""
    match = _RAW_PASSWORD.search(url)
    return match.group(1) if match else None


def location(url: str) -> str:
    """Where the data lives, for messages: the URL without its password."""
    try:
        fields = conninfo_to_dict(libpq_url(url))
    except psycopg.Error:  # not a URL libpq reads: as given, its password blanked
        return redact_passwords(url)
    user = f"{fields['user']}@" if fields.get("user") else ""
    host = str(fields.get("host") or "")
    if host.startswith("/"):  # a unix socket folder
        host = f"[{host}]"
    port = f":{fields['port']}" if fields.get("port") else ""
    return f"postgresql://{user}{host}{port}/{fields.get('dbname') or ''}"


def one_line(error: BaseException, url: str) -> str:
    """A driver or server error as one line, without the password."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return redact("; ".join(lines) or type(error).__name__, url)


def connect(url: str) -> RawConnection:
    """An autocommit connection (writes open their own transactions), or a `StoreError`."""
    where = location(url)
    try:
        fields = conninfo_to_dict(libpq_url(url))
        fields.setdefault("connect_timeout", CONNECT_SECONDS)
        fields.setdefault("application_name", "errdex")
        conn = psycopg.connect(make_conninfo("", **fields), autocommit=True)
    except psycopg.Error as error:
        raise StoreError(f"cannot open the database {where}: {one_line(error, url)}") from error
    if conn.info.server_version < MIN_SERVER:
        version = conn.info.server_version
        conn.close()
        raise StoreError(
            f"the database {where} runs PostgreSQL {version // 10000}; errdex needs 12 or newer"
        )
    return conn


@functools.lru_cache(maxsize=512)
def _pyformat(sql: str) -> str:
    """`?` placeholders as psycopg's `%s` (a literal `%` doubled). The shared queries hold no
    `?` or `%` of their own (no string literal or jsonb operator has one)."""
    return sql.replace("%", "%%").replace("?", "%s")


def pg_text(value: Any) -> Any:
    """A value PostgreSQL takes as text: NUL (which SQLite keeps, and a message may hold)
    becomes U+FFFD; anything else is left as it is."""
    if isinstance(value, str) and "\x00" in value:
        return value.replace("\x00", "\ufffd")
    return value


def text_array(values: Iterable[str | None]) -> str:
    """A `text[]` literal of `values`, to pass as one parameter cast with `::text[]`.

    psycopg can pass a list, but checks each item in Python; one quoted literal is parsed
    by the server in C, several times faster for the tens of thousands of keys a version
    has. Every item is quoted (so `NULL` is a word, not a null), None is a null.
    """
    items = (
        "NULL" if v is None else '"' + pg_text(v).replace("\\", "\\\\").replace('"', '\\"') + '"'
        for v in values
    )
    return "{" + ",".join(items) + "}"


class QmarkConnection:
    """A psycopg connection that takes `?` placeholders, as the shared queries use."""

    def __init__(self, raw: RawConnection) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[TupleRow]:
        return self.raw.execute(_pyformat(sql), [pg_text(value) for value in parameters])
