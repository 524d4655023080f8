"""What the kind of a site means for the program: a log record or a warning lets it go on,
unless the next statement raises."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "pkg/__init__.py": "",
    "pkg/config.py": (
        "import logging\n"
        "import warnings\n"
        "logger = logging.getLogger(__name__)\n"
        "\n"
        "def load(config):\n"
        "    try:\n"
        "        return parse(config)\n"
        "    except ValueError as e:\n"
        "        logger.error('Invalid config provided: %s', e)\n"
        "        raise TypeError(f'Invalid config: {e}') from e\n"
        "\n"
        "def other(x):\n"
        "    if x:\n"
        "        logger.warning('x is set: ignoring it')\n"
        "    return 1\n"
        "\n"
        "def old(y):\n"
        "    if y:\n"
        "        warnings.warn('y is deprecated: use z', DeprecationWarning)\n"
        "        raise KeyError(y)\n"
    ),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("notes"), "pkg", FILES)


def test_a_log_record_followed_by_a_raise_does_not_let_the_program_go_on(store: Store) -> None:
    page = page_with_message(store, "pkg", "Invalid config provided")
    assert "the statement after it raises (line 10)" in page.what_it_means
    assert "goes on after it" not in page.what_it_means


def test_a_log_record_alone_lets_the_program_go_on(store: Store) -> None:
    page = page_with_message(store, "pkg", "x is set")
    assert "A log record is not an exception: the program goes on after it." in page.what_it_means


def test_a_warning_followed_by_a_raise_says_so(store: Store) -> None:
    page = page_with_message(store, "pkg", "y is deprecated")
    assert "A warning is not an exception, but the statement after it raises (line 20)." in (
        page.what_it_means
    )
