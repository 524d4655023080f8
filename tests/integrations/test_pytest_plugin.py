"""The pytest plugin, driven by pytest itself (pytester, in a subprocess that loads the
plugin through its `pytest11` entry point, as a user's pytest would)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from integration_samples import RAISE_IN_CLICK, isolated_env

TEST_FILE = (
    "def test_colour():\n"
    + textwrap.indent(RAISE_IN_CLICK, "    ")
    + "\n\ndef test_own_code():\n    raise ValueError('raised by the test itself')\n"
)


@pytest.fixture
def project(pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in isolated_env(tmp_path).items():
        monkeypatch.setenv(key, value)
    pytester.makepyfile(test_sample=TEST_FILE)


def test_off_by_default(pytester: pytest.Pytester, project: None) -> None:
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=2)
    assert "errdex: raised at" not in result.stdout.str()


def test_with_the_flag_a_failure_in_an_installed_package_ends_with_the_summary(
    pytester: pytest.Pytester, project: None
) -> None:
    result = pytester.runpytest_subprocess("--errdex")
    result.assert_outcomes(failed=2)
    result.stdout.re_match_lines([r".*- errdex -.*", r"errdex: raised at click/types\.py:\d+ .*"])
    out = result.stdout.str()
    assert "more: errdex show " in out
    # The test's own error is not an installed package's: no summary for it.
    assert out.count("errdex: raised at") == 1


def test_the_ini_option_turns_it_on(pytester: pytest.Pytester, project: None) -> None:
    pytester.makeini("[pytest]\nerrdex = true\n")
    result = pytester.runpytest_subprocess()
    assert "errdex: raised at click/types.py" in result.stdout.str()
