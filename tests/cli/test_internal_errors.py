"""errdex's own bugs met by the real command in a subprocess: a file or a version it fails
on is given up in one line, the rest is indexed, nothing is half-written, no traceback.

No input is known that still makes extraction or linking raise (the last one, a backslash
in an f-string's expression, is fixed), so the fault is injected at the edge: a
`sitecustomize` on the child's path (a test-only plugin, loaded by every process of the
run, extraction workers included) replaces one function of the pipeline with one that
raises when it meets the marker `FAULT` in a file or a project name.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_process import run_errdex

from samples import write_package

Run = Callable[..., tuple[int, str, str]]

# Each fault raises a ValueError whose message holds an ESC sequence and a newline, as a
# message quoting hostile code would: the line shown must keep neither.
_PLUGIN = """
import os

_MESSAGE = "injected \\x1b[31mfault\\nsecond line"
_WHERE = os.environ.get("ERRDEX_TEST_FAULT")

if _WHERE == "extract":
    import errdex.extract as extract

    _real = extract.collect_constants

    def collect_constants(tree, text=""):
        if "FAULT" in text:
            raise ValueError(_MESSAGE)
        return _real(tree, text)

    extract.collect_constants = collect_constants
elif _WHERE == "link":
    import errdex.link as link

    _real = link.helper_sites

    def helper_sites(facts, *args):
        if "FAULT" in facts.path:
            raise ValueError(_MESSAGE)
        return _real(facts, *args)

    link.helper_sites = helper_sites
elif _WHERE == "version":
    import errdex.link as link

    _real = link.CaughtTexts.add

    def add(self, linked):
        if any("FAULT" in site.file for site in linked):
            raise ValueError(_MESSAGE)
        return _real(self, linked)

    link.CaughtTexts.add = add
"""


@pytest.fixture
def errdex(tmp_path: Path) -> Run:
    """Run `python -m errdex ARGS` with the fault plugin; (exit code, stdout, stderr)."""
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    (plugin / "sitecustomize.py").write_text(_PLUGIN)

    def run(*args: str, fault: str = "", debug: bool = False) -> tuple[int, str, str]:
        more = {"ERRDEX_DEBUG": "1"} if debug else {}
        return run_errdex(*args, data=tmp_path, path=(plugin,), ERRDEX_TEST_FAULT=fault, **more)

    return run


FILES = {
    "demo/__init__.py": "",
    "demo/good.py": "def f(x):\n    if x < 0:\n        raise ValueError('x must be >= 0')\n",
    "demo/FAULT.py": "# FAULT\ndef g(y):\n    raise KeyError('no such y')\n",
}


def _messages(errdex: Run, project: str) -> list[str]:
    code, out, err = errdex("list", "--project", project, "--json")
    assert code == 0, err
    return sorted(site["message"] for site in json.loads(out))


def _clean(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text
        assert "\x1b" not in text


@pytest.mark.parametrize("stage", ["extract", "link"])
def test_a_file_errdex_fails_on_is_skipped_and_the_rest_indexed(
    errdex: Run, tmp_path: Path, stage: str
) -> None:
    pkg = write_package(tmp_path / "demo", FILES)
    code, out, err = errdex("index", str(pkg), "--project", "demo", "--json", fault=stage)
    assert code == 0, err
    _clean(out, err)
    (report,) = json.loads(out)
    (skipped,) = report["skipped"]
    assert skipped["path"].endswith("FAULT.py")
    reason = skipped["reason"]
    assert reason.startswith("internal error of errdex while")
    assert "ValueError: injected \\x1b[31mfault second line" in reason
    assert _messages(errdex, "demo") == ["x must be >= 0"]


def test_a_file_errdex_failed_on_is_read_again_next_run(errdex: Run, tmp_path: Path) -> None:
    pkg = write_package(tmp_path / "demo", FILES)
    assert errdex("index", str(pkg), "--project", "demo", fault="extract")[0] == 0
    # the failure was not cached: without the fault, the file is extracted and indexed
    code, _, err = errdex("index", str(pkg), "--project", "demo", "--force")
    assert code == 0, err
    assert _messages(errdex, "demo") == ["no such y", "x must be >= 0"]


def test_a_version_errdex_fails_on_is_not_written_and_the_others_are(
    errdex: Run, tmp_path: Path
) -> None:
    bad = write_package(tmp_path / "bad", FILES)
    good = write_package(tmp_path / "good", {"good/m.py": "raise RuntimeError('always')\n"})
    assert errdex("index", str(bad), "--project", "bad", "--version", "1")[0] == 0
    before = _messages(errdex, "bad")

    code, out, err = errdex(
        "index", str(bad), str(good), "--version", "1", "--force", fault="version"
    )
    assert code == 2
    _clean(out, err)
    failed = [line for line in err.splitlines() if "internal error" in line]
    assert len(failed) == 1
    assert failed[0].startswith("errdex: indexing bad 1 failed with an internal error")
    assert "ValueError: injected \\x1b[31mfault second line" in failed[0]
    assert "this is a bug in errdex" in failed[0] and "ERRDEX_DEBUG=1" in failed[0]
    assert "good 1" in err  # indexed after the failed one
    assert _messages(errdex, "good") == ["always"]
    assert _messages(errdex, "bad") == before  # the failed write rolled back


def test_the_failure_is_in_the_json_report_too(errdex: Run, tmp_path: Path) -> None:
    bad = write_package(tmp_path / "bad", FILES)
    code, out, err = errdex("index", str(bad), "--json", fault="version")
    assert code == 2
    _clean(out, err)
    (report,) = json.loads(out)
    assert "this is a bug in errdex" in report["error"]
    assert err.count("\n") == 1 and err.startswith("errdex: indexing bad")


def test_errdex_debug_shows_the_traceback(errdex: Run, tmp_path: Path) -> None:
    bad = write_package(tmp_path / "bad", FILES)
    code, _, err = errdex("index", str(bad), fault="version", debug=True)
    assert code == 2
    assert "Traceback (most recent call last)" in err
    assert "ValueError: injected" in err


def test_the_summary_names_the_error_of_a_file_errdex_failed_on(
    errdex: Run, tmp_path: Path
) -> None:
    pkg = write_package(tmp_path / "demo", FILES)
    code, out, err = errdex("index", str(pkg), "--project", "demo", fault="link")
    assert code == 0, err
    _clean(out, err)
    assert "1 × internal error of errdex while linking: demo/FAULT.py" in err
    assert (
        "demo/FAULT.py: internal error of errdex while linking: ValueError: injected"
        " \\x1b[31mfault second line: a bug, please report it"
    ) in " ".join(err.split())
