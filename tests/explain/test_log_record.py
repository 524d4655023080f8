"""A check of the exception a log record carries (`exc_type, exc_value, tb = record.exc_info`
in a handler's `emit`): the way out is the `exc_info=` of the user's logging call, before the
handler's own switch that gives up the tracebacks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "handlers/__init__.py": "",
    "handlers/logging.py": """
        from logging import Handler, LogRecord


        class FancyHandler(Handler):
            def __init__(self, fancy_tracebacks: bool = False) -> None:
                super().__init__()
                self.fancy_tracebacks = fancy_tracebacks

            def emit(self, record: LogRecord) -> None:
                if self.fancy_tracebacks and record.exc_info:
                    exc_type, exc_value, exc_traceback = record.exc_info
                    assert exc_value is not None
                    print(exc_type, exc_value, exc_traceback)


        class PlainHandler(Handler):
            def emit(self, record) -> None:
                if record.exc_info:
                    exc_type, exc_value, exc_traceback = record.exc_info
                    assert exc_value is not None
        """,
}


@pytest.fixture(scope="module")
def handlers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("handlers"), "handlers", FILES)


def test_the_record_s_exception_is_the_log_call_s(handlers: Store) -> None:
    page = page_in_function(handlers, "handlers", "FancyHandler.emit")
    assert page.solutions[0].text == (
        "Log the exception from inside its `except` block with `exc_info=True` (or "
        "`logger.exception(...)`), or pass the exception itself as `exc_info=`: the check at "
        "line 13 tests `exc_value`, the exception in `record.exc_info`: `record` is the record "
        "your logging call made, and its `exc_info` is what the call's `exc_info=` gave. A "
        "tuple given by hand must hold the exception's class, the exception and its "
        "traceback, as `sys.exc_info()` does, with no None among them."
    )
    assert "fancy_tracebacks" in page.solutions[1].text  # the switch that gives them up, after
    assert page.example_fix is not None and "exc_info=True" in page.example_fix.after


def test_a_parameter_not_said_to_be_a_record_is_not_one(handlers: Store) -> None:
    page = page_in_function(handlers, "handlers", "PlainHandler.emit")
    assert not any("logging call" in s.text for s in page.solutions)
