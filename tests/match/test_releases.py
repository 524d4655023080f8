"""Several releases of a project in one catalog (`conftest.py`), pastes from public issues:
which release a paste came from, each piece of evidence on its own; then lookups, one
result per error, placed on the release the evidence points at, `confident` only when the
evidence decides, and the same text raised at several sites one result that says so."""
# ruff: noqa: E501  (pastes are kept as printed, long lines and all)

from __future__ import annotations

import pytest

from errdex.match import Frame, lookup_text, parse_paste
from errdex.match.installed import installed_versions
from errdex.match.lookup import rank
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


def test_an_egg_folder_in_a_frame_path_names_the_release(releases: Store) -> None:
    # Eggs (easy_install, `setup.py develop` dependencies) and wheels run in place keep the
    # release in the folder's name, as old pastes show (`requests-2.7.0-py2.7.egg/requests/`).
    frames = [
        Frame("/Users/me/.venv/lib/python2.7/site-packages/requests-2.28.1-py2.7.egg/"
              "requests/sessions.py", 9999, "send", None),
        Frame("./test.py", 12, "main", "requests.Session().send(prepared)"),
    ]  # fmt: skip
    choice = choose_release(releases, ca_bundle_sites(releases), frames)
    assert (choice.site.version, choice.decided) == ("2.28.1", True)
    assert choice.why == "version 2.28.1: a traceback path names requests-2.28.1-py2.7.egg"
    # Another project's folder says nothing of this one's release, nor does a pin of pip's.
    others = [
        Frame("/nix/store/0a1b-python3.11-urllib3-1.26.6/lib/python3.11/site-packages/"
              "requests/sessions.py", 9999, "send", None),
        Frame("/srv/requests==2.28.1/site/requests/api.py", 9999, "get", None),
    ]  # fmt: skip
    assert not choose_release(releases, ca_bundle_sites(releases), others).decided
    nix = [Frame("/nix/store/0a1b-python3.11-requests-2.30.0/lib/python3.11/site-packages/"
                 "requests/sessions.py", 9999, "send", None)]  # fmt: skip
    assert choose_release(releases, ca_bundle_sites(releases), nix).site.version == "2.30.0"


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


def test_a_message_found_in_every_release_is_one_result_that_is_not_sure(
    releases: Store,
) -> None:
    # smol-ai/developer#60's last line alone: each release raises it, each somewhere else.
    result = lookup_text(releases, CA_BUNDLE.splitlines()[-1])
    best = result.matches[0]
    assert (best.function, best.version, best.confident) == (
        "HTTPAdapter.cert_verify",
        "2.32.3",
        False,
    )
    assert [(v.first, v.last, v.line) for v in best.versions] == [
        ("2.32.3", "2.32.3", 328),
        ("2.30.0", "2.31.0", 261),
        ("2.28.1", "2.28.1", 263),
    ]
    assert "nothing in the paste tells which of 4 releases it came from" in best.why[-1]
    assert all(m.function != "HTTPAdapter.cert_verify" for m in result.matches[1:])


def test_the_traceback_picks_the_release(releases: Store) -> None:
    best = lookup_text(releases, CA_BUNDLE).matches[0]
    assert (best.version, best.line, best.confident) == ("2.30.0", 261, True)
    assert best.why[-1] == (
        "version 2.30.0: the innermost frame is at its line 261; "
        "3 traceback line(s) of requests read as printed there"
    )


def test_the_installed_release_picks_it_when_the_paste_cannot(releases: Store) -> None:
    evidence = parse_paste(CA_BUNDLE.splitlines()[-1])
    best = rank(releases, evidence, installed={"requests": "2.28.1"}).matches[0]
    assert (best.version, best.line, best.confident) == ("2.28.1", 263, True)
    assert best.why[-1] == "version 2.28.1: the installed release of requests"


def test_two_wordings_of_one_error_are_one_result(releases: Store) -> None:
    # requests said `http://` before 2.30 and `https://` after: a piece of the message both
    # wordings hold cannot tell them apart.
    result = lookup_text(releases, "No scheme supplied")
    best = result.matches[0]
    assert (best.function, best.version, best.confident) == (
        "PreparedRequest.prepare_url",
        "2.32.3",
        False,
    )
    assert len(best.merged) == 1  # the `http://` wording's id
    assert [v.first for v in best.versions] == ["2.32.3", "2.30.0", "2.28.1"]
    assert all(m.function != "PreparedRequest.prepare_url" for m in result.matches[1:])


def test_the_wording_picks_the_release(releases: Store) -> None:
    # PaddlePaddle/PaddleNLP#3250's last line: `http://`, the wording of 2.28.1 only.
    best = lookup_text(
        releases,
        "requests.exceptions.MissingSchema: Invalid URL 'None/initialized': No scheme supplied. Perhaps you meant http://None/initialized?",
    ).matches[0]
    assert (best.version, best.line, best.confident) == ("2.28.1", 439, True)


def test_the_same_text_at_two_sites_is_one_result(releases: Store) -> None:
    # nlmatics/llmsherpa#84: the message alone. urllib3 raises it in ConnectionPool's
    # constructor and in PoolManager.connection_from_host, each behind `if not host`: the
    # message tells them apart no more than their own code does, so file order says which
    # comes first (the same traceback, nlmatics/nlm-ingestor#61, shows the second: the
    # callers elsewhere in the package would have told, but a first answer indexes too few
    # files to count them, and its order must be the whole release's).
    result = lookup_text(releases, "urllib3.exceptions.LocationValueError: No host specified.")
    best = result.matches[0]
    assert (best.function, best.raised_at, best.confident) == ("ConnectionPool.__init__", 2, False)
    assert [(o.file, o.function) for o in best.others] == [
        ("urllib3/poolmanager.py", "PoolManager.connection_from_host")
    ]
    assert best.why[-1] == (
        "raised at 2 sites with this text; nothing tells them apart: "
        "the first in file order is shown"
    )
    # The other site stays a candidate of its own, next: the order is a preference.
    second = result.matches[1]
    assert (second.function, second.raised_at, second.same_text_as, second.confident) == (
        "PoolManager.connection_from_host",
        2,
        best.id,
        False,
    )
    assert second.why[-1] == (
        "raised at 2 sites with this text; ConnectionPool.__init__ "
        f"(urllib3/connectionpool.py:{best.line}) is the likelier and comes first"
    )
    assert all(m.message != "No host specified." for m in result.matches[2:])


def test_a_frame_tells_the_same_text_apart(releases: Store) -> None:
    # nlmatics/nlm-ingestor#61, urllib3 1.26.6.
    paste = """\
  File "\\venv\\lib\\site-packages\\urllib3\\poolmanager.py", line 236, in connection_from_host
    raise LocationValueError("No host specified.")
urllib3.exceptions.LocationValueError: No host specified."""
    best = lookup_text(releases, paste).matches[0]
    assert (best.version, best.function, best.raised_at, best.confident) == (
        "1.26.6",
        "PoolManager.connection_from_host",
        1,
        True,
    )


def test_a_class_that_re_raises_a_dependency_message_names_its_own_site(
    releases: Store,
) -> None:
    # Sam-Max/plugin.video.jacktorr#1: requests' ConnectionError around urllib3's text.
    best = lookup_text(
        releases,
        "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=5665): Max retries exceeded with url: /settings (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0xcea0a008>: Failed to establish a new connection: [Errno 111] Connection refused'))",
    ).matches[0]
    assert (best.project, best.file, best.function) == (
        "requests",
        "requests/adapters.py",
        "HTTPAdapter.send",
    )


def test_a_printed_warning_place_picks_the_release(releases: Store) -> None:
    # The shape of requests' own issues: the warning printed at its `warnings.warn` line,
    # 109 in 2.28.1 to 2.31.0, 113 in 2.32.3.
    paste = (
        ".\\site-packages\\requests\\__init__.py:109: RequestsDependencyWarning: urllib3 (1.26.13)"
        " or chardet (None)/charset_normalizer (3.0.1) doesn't match a supported version!\n"
        "  warnings.warn("
    )
    best = lookup_text(releases, paste).matches[0]
    assert (best.file, best.line, best.confident) == ("requests/__init__.py", 109, True)
    assert best.version in ("2.28.1", "2.30.0", "2.31.0")
    assert "the innermost frame is at its line 109" in best.why[-1]


def test_a_warning_printed_at_its_caller_agrees_by_its_code_line(releases: Store) -> None:
    # A `stacklevel` names the caller's place, and Python prints the caller's line under it
    # (here with the closing quote of the paste's markup): the release whose file has that
    # line there is the one.
    (error,) = parse_paste(
        "/usr/local/lib/python3.11/site-packages/requests/sessions.py:701: UserWarning: x y z\n"
        "  r = adapter.send(request, **kwargs)'"
    ).errors
    choice = choose_release(releases, ca_bundle_sites(releases), error.places())
    # 2.31.0 and 2.32.3 have another line there; 2.28.1 has this one, its error elsewhere.
    assert (choice.site.version, choice.decided) == ("2.30.0", False)
    assert "1 traceback line(s) of requests read as printed there" in choice.why


def test_a_log_prefix_naming_the_file_alone_is_a_place(releases: Store) -> None:
    # vllm-style `[adapters.py:261]`: the file's name, not its path.
    (error,) = parse_paste(
        "ERROR 10-26 16:13:52 [adapters.py:261] Could not find a suitable TLS CA certificate "
        "bundle, invalid path: x"
    ).errors
    choice = choose_release(releases, ca_bundle_sites(releases), error.places())
    assert (choice.site.site.line, choice.decided) == (261, True)
    assert choice.site.version in ("2.30.0", "2.31.0")


def test_a_traceback_cut_before_its_exception_line_still_picks_the_release(
    releases: Store,
) -> None:
    # The shape of vllm-project/vllm's multi-process logs: the error's line printed by one
    # process, the traceback of another cut off before its last line.
    frames = CA_BUNDLE.splitlines()[:-1]
    paste = "\n".join(
        [
            "[worker.py:492] " + CA_BUNDLE.splitlines()[-1],
            "Traceback (most recent call last):",
            *(("    " if i % 2 else "  ") + line for i, line in enumerate(frames[:2] + frames[3:])),
        ]
    )
    evidence = parse_paste(paste)
    assert [f.line for f in evidence.stray_frames] == [261, 458, 701]
    best = lookup_text(releases, paste).matches[0]
    assert (best.version, best.line, best.confident) == ("2.30.0", 261, True)
