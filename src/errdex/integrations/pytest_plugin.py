"""The pytest plugin: a failing test whose exception was raised inside an installed package
gets the matched error's summary at the end of its failure report.

Off unless `pytest --errdex` or `errdex = true` in the ini file; `--errdex-db` (or
`$ERRDEX_DB`) names the database. A package not yet indexed is indexed on the spot, once.
Registered through the `pytest11` entry point; nothing of errdex is imported until a test
fails.
"""

from __future__ import annotations

import os
import re
from collections.abc import Generator
from typing import Any

import pytest

_INSTALLED = re.compile(r"[/\\](?:site|dist)-packages[/\\]")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("errdex", "errdex: where an installed package raised the error")
    group.addoption(
        "--errdex",
        action="store_true",
        default=False,
        help="End each failure raised in an installed package with errdex's summary.",
    )
    group.addoption(
        "--errdex-db", metavar="PATH|URL", help="errdex's database (default: $ERRDEX_DB)."
    )
    parser.addini("errdex", type="bool", default=False, help="Turn the errdex summary on.")


def _enabled(config: pytest.Config) -> bool:
    return bool(config.getoption("errdex")) or bool(config.getini("errdex"))


def raised_in_installed_package(error: BaseException) -> bool:
    """Whether the frame that raised `error` is a file of an installed distribution."""
    tb = error.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return _INSTALLED.search(tb.tb_frame.f_code.co_filename) is not None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[Any]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if not (report.failed and call.excinfo is not None and _enabled(item.config)):
        return report
    error = call.excinfo.value
    if not raised_in_installed_package(error):
        return report
    from errdex.hook import explain_exception

    db = item.config.getoption("errdex_db") or os.environ.get("ERRDEX_DB") or None
    text = explain_exception(error, db)
    if text is not None:
        report.sections.append(("errdex", text.plain))
    return report
