"""Passwords out of messages: in a URL's userinfo or a `password=` field, and nowhere else."""

from __future__ import annotations

import pytest

from errdex.redact import redact_passwords
from errdex.store.postgres.connect import location, redact


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("cannot reach http://u:pw@h:8/v1: refused", "cannot reach http://u:***@h:8/v1: refused"),
        ("postgresql://me:a/b#c@db/x failed", "postgresql://me:***@db/x failed"),  # not encoded
        ("host=db password=hunter2 user=me", "host=db password=*** user=me"),
        ("?host=db&password=hunter2&port=5", "?host=db&password=***&port=5"),
        ("http://h:8000/v1 and a@b", "http://h:8000/v1 and a@b"),  # no userinfo: as it was
        ("plain words, no URL", "plain words, no URL"),
    ],
)
def test_passwords_are_hidden_where_they_stand(text: str, shown: str) -> None:
    assert redact_passwords(text) == shown


def test_the_password_text_elsewhere_in_a_message_is_left_alone(pg_driver: None) -> None:
    """A password that is also a word of the message (here: `postgres`, the user's name and
    the database's) is hidden in the URL only; the message stays readable."""
    url = "postgresql://postgres:postgres@127.0.0.1:5/postgres"
    message = f'connection to {url} failed: password authentication failed for user "postgres"'
    assert redact(message, url) == (
        "connection to postgresql://postgres:***@127.0.0.1:5/postgres failed:"
        ' password authentication failed for user "postgres"'
    )
    assert "postgres:postgres" not in location(url)


def test_a_value_libpq_quotes_back_is_hidden_when_it_is_the_password(pg_driver: None) -> None:
    url = "postgresql://me:s3cr%zz@127.0.0.1/db"  # bad percent-encoding: libpq quotes it
    assert redact('invalid percent-encoded token: "s3cr%zz"', url) == (
        'invalid percent-encoded token: "***"'
    )
