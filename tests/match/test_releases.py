"""Which release a paste came from: each piece of evidence on its own, against real
releases of requests (`conftest.py`) and pastes from public issues."""
# ruff: noqa: E501  (pastes are kept as printed, long lines and all)

from __future__ import annotations

import pytest

from errdex.match import parse_paste
from errdex.match.installed import installed_versions
from errdex.match.releases import choose_release, version_spans
from errdex.store.base import Store, StoredSite

pytestmark = pytest.mark.network

# smol-ai/developer#60: requests 2.30.0's traceback (each of its lines is where 2.30.0 has
# it), indentation lost in the paste. 2.31.0 raises at the same line 261.
CA_BUNDLE = """\
File "/usr/local/lib/python3.11/site-packages/requests/sessions.py", line 701, in send
r = adapter.send(request, **kwargs)
^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
File "/usr/local/lib/python3.11/site-packages/requests/adapters.py", line 458, in send
self.cert_verify(conn, request.url, verify, cert)
File "/usr/local/lib/python3.11/site-packages/requests/adapters.py", line 261, in cert_verify
raise OSError(
OSError: Could not find a suitable TLS CA certificate bundle, invalid path: /root/certifi/cacert.pem"""


def ca_bundle_sites(store: Store) -> list[StoredSite]:
    """The error's rows, newest release first (`get_error`'s order)."""
    hits = store.search_candidates(["certificate", "bundle", "suitable"], "requests")
    (error_id,) = {s.id for s in hits if s.site.function == "HTTPAdapter.cert_verify"
                   and "bundle" in (s.site.message.text if s.site.message else "")}  # fmt: skip
    return store.get_error(error_id)


def test_the_error_sits_elsewhere_in_each_release(releases: Store) -> None:
    sites = ca_bundle_sites(releases)
    spans = version_spans(sites, ["2.28.1", "2.30.0", "2.31.0", "2.32.3"])
    assert [(s.first, s.last, s.line) for s in spans] == [
        ("2.32.3", "2.32.3", 328),
        ("2.30.0", "2.31.0", 261),
        ("2.28.1", "2.28.1", 263),
    ]


def test_the_innermost_frame_then_the_others_decide(releases: Store) -> None:
    (error,) = parse_paste(CA_BUNDLE).errors
    choice = choose_release(releases, ca_bundle_sites(releases), error.frames[::-1])
    assert (choice.site.version, choice.decided) == ("2.30.0", True)
    assert choice.why == (
        "version 2.30.0: the innermost frame is at its line 261; "
        "3 traceback line(s) of requests read as printed there"
    )


def test_the_other_frames_code_decides(releases: Store) -> None:
    # The same paste without its innermost frame: the lines of `send` that it printed
    # (`r = adapter.send(...)` at sessions.py:701, `self.cert_verify(...)` at
    # adapters.py:458) are where 2.30.0 has them, and nowhere else.
    (error,) = parse_paste(CA_BUNDLE).errors
    outer = error.frames[:-1][::-1]
    choice = choose_release(releases, ca_bundle_sites(releases), outer)
    assert (choice.site.version, choice.decided) == ("2.30.0", True)
    assert "traceback line(s) of requests read as printed there" in choice.why


def test_nothing_decides_without_evidence(releases: Store) -> None:
    choice = choose_release(releases, ca_bundle_sites(releases), [])
    assert (choice.site.version, choice.decided) == ("2.32.3", False)
    assert "nothing in the paste tells which of 4 releases" in choice.why


def test_the_installed_release_decides_when_the_paste_does_not(releases: Store) -> None:
    choice = choose_release(
        releases, ca_bundle_sites(releases), [], installed={"requests": "2.28.1"}
    )
    assert (choice.site.version, choice.decided) == ("2.28.1", True)
    assert "the installed release of requests" in choice.why
    # The paste's own evidence comes first.
    (error,) = parse_paste(CA_BUNDLE).errors
    pinned = choose_release(
        releases, ca_bundle_sites(releases), error.frames[::-1], installed={"requests": "2.28.1"}
    )
    assert pinned.site.version == "2.30.0"


def test_installed_versions_read_metadata_only() -> None:
    # pytest is installed where the tests run; a name no distribution has is left out.
    import importlib.metadata

    found = installed_versions(["pytest", "no-such-distribution-errdex-test"])
    assert found == {"pytest": importlib.metadata.version("pytest")}
