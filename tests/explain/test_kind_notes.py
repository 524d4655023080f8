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
        "\n"
        "def start(engine):\n"
        "    try:\n"
        "        engine.run()\n"
        "    except Exception as e:\n"
        "        if engine is None:\n"
        "            logger.exception('Engine failed to start.')\n"
        "        else:\n"
        "            logger.exception('Engine hit a fatal error.')\n"
        "            engine.send_dead()\n"
        "        raise e\n"
        "\n"
        "def stop(engine):\n"
        "    for part in engine.parts:\n"
        "        if part is None:\n"
        "            logger.error('Engine part missing.')\n"
        "    raise RuntimeError('stopped')\n"
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


def test_a_log_record_in_a_branch_before_the_handler_raises_again_does_not_let_it_go_on(
    store: Store,
) -> None:
    for message in ("Engine failed to start", "Engine hit a fatal error"):
        page = page_with_message(store, "pkg", message)
        assert "the statement after it raises (line 31)" in page.what_it_means
        assert "goes on after it" not in page.what_it_means


def test_a_log_record_in_a_loop_is_not_followed_past_the_loop(store: Store) -> None:
    # the loop goes round again after the branch: the `raise` after it is not next
    page = page_with_message(store, "pkg", "Engine part missing")
    assert "the program goes on after it" in page.what_it_means
