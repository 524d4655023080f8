"""A raise under `except` of a standard parser's failure (an IP address, a UUID, Base64): the
way out is a value of the form that parser takes. In an internal function whose message
prints the value, the value is named as the one the message shows, not as the internal
function's argument."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

NET = {
    "net/__init__.py": """
        from net.urls import parse
        """,
    "net/urls.py": """
        import ipaddress
        import uuid


        class InvalidURL(Exception):
            pass


        def _encode_host(host):
            try:
                ipaddress.IPv4Address(host)
            except ipaddress.AddressValueError:
                raise InvalidURL(f"Invalid IPv4 address: {host!r}")
            return host


        def _encode_other(host):
            try:
                ipaddress.IPv4Address(host)
            except ipaddress.AddressValueError:
                raise InvalidURL("Invalid address")
            return host


        def parse(url):
            return _encode_host(url) + _encode_other(url)


        def session_id(text):
            try:
                return uuid.UUID(text)
            except ValueError:
                raise InvalidURL("not a session id") from None
        """,
}


@pytest.fixture(scope="module")
def net(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("net"), "net", NET)


def test_an_address_parser_failing_asks_for_an_address(net: Store) -> None:
    page = page_with_message(net, "net", "Invalid IPv4 address")
    assert page.solutions[0].text.startswith(
        "Make sure `host` (the value the message shows) is a valid IPv4 address: four "
        "numbers from 0 to 255 joined by dots (`192.168.0.1`): `ipaddress.IPv4Address(host)` "
        "failed on it"
    ), page.solutions


def test_an_internal_argument_the_message_does_not_show_keeps_its_name(net: Store) -> None:
    page = page_with_message(net, "net", "Invalid address")
    assert page.solutions[0].text.startswith(
        "Make sure `host` (the argument `host` of `_encode_other`) is a valid IPv4 address"
    ), page.solutions


def test_a_uuid_parser_failing_asks_for_a_uuid(net: Store) -> None:
    page = page_with_message(net, "net", "not a session id")
    assert any("is a UUID: 32 hexadecimal digits" in s.text for s in page.solutions), page.solutions
