"""A setting a way out gives "a value" (any value) whose value the function checks again:
the way out names those checks, so that following it does not lead into them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, offered, page_with_message

from errdex.store import Store

FILES = {
    "pkg/__init__.py": "",
    "pkg/hooks.py": (
        "import logging\n"
        "import os\n"
        "logger = logging.getLogger(__name__)\n"
        "PTXAS = os.environ.get('PKG_PTXAS')\n"
        "\n"
        "def patch():\n"
        "    if PTXAS is None:\n"
        "        raise RuntimeError('ptxas path not set')\n"
        "    if not os.path.isfile(PTXAS):\n"
        "        raise RuntimeError(f'ptxas not found: {PTXAS}')\n"
        "    assert os.environ.get('PKG_KEEP', '0') == '1', 'Require PKG_KEEP=1'\n"
        "\n"
        "def num_sms():\n"
        "    override = os.getenv('PKG_NUM_SMS')\n"
        "    if override is not None:\n"
        "        count = int(override)\n"
        "        if count <= 0:\n"
        "            raise ValueError('PKG_NUM_SMS must be positive')\n"
        "        return count\n"
        "    raise RuntimeError('Cannot determine the SM count')\n"
        "\n"
        "def layout(specs):\n"
        "    candidates = list(specs)\n"
        "    if len(candidates) > 3:\n"
        "        candidates = [layout for layout in candidates if layout.compact]\n"
        "        if not candidates:\n"
        "            raise ValueError('no compact layout')\n"
        "    if (requested := os.getenv('PKG_LAYOUT')) is not None:\n"
        "        layout = requested.upper()\n"
        "        if layout not in candidates:\n"
        "            raise ValueError(f'PKG_LAYOUT={requested} is not supported')\n"
        "    else:\n"
        "        logger.warning('No layout requested: using the first')\n"
        "        layout = candidates[0]\n"
        "    return layout\n"
        "\n"
        "def level():\n"
        "    value = os.getenv('PKG_LEVEL')\n"
        "    if value is None:\n"
        "        raise RuntimeError('level not set')\n"
        "    return value\n"
        "\n"
        "def compile_ptx(path):\n"
        "    assert PTXAS is not None, 'ptxas path needed to compile'\n"
        "    return [PTXAS, path]\n"
        "\n"
        "TOOL = os.environ.get('PKG_TOOL')\n"
        "\n"
        "def run_tool(args):\n"
        "    if TOOL is None:\n"
        "        raise RuntimeError('tool path not set')\n"
        "    assert args, 'no arguments'\n"
        "    return TOOL\n"
        "\n"
        "CACHE = os.environ.get('PKG_CACHE')\n"
        "\n"
        "def cache_dir():\n"
        "    if CACHE is None:\n"
        "        raise RuntimeError('cache dir not set')\n"
        "    return CACHE\n"
    ),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("further"), "pkg", FILES)


def offers(store: Store, message: str, start: str) -> bool:
    """Whether the page of `message` offers a way out that starts with `start`."""
    texts = offered(page_with_message(store, "pkg", message))
    return any(t.startswith(start) for t in texts)


def test_a_value_the_function_checks_again_names_those_checks(store: Store) -> None:
    assert offers(
        store,
        "ptxas path not set",
        "Set `PKG_PTXAS` to a value that gets past the check at line 9 as well, and set"
        " `PKG_KEEP=1` with it, as the check at line 11 requires",
    )


def test_a_check_of_something_else_that_follows_is_named_as_one_to_pass(store: Store) -> None:
    assert offers(
        store,
        "tool path not set",
        "Set `PKG_TOOL` to a value and pass the check at line 52 after it too",
    )


def test_a_variable_another_function_of_the_file_requires_with_it_is_named(
    store: Store,
) -> None:
    # `patch` reads `PTXAS` too and asserts `PKG_KEEP` at its top: setting the path for this
    # check leads into that one
    assert offers(
        store,
        "ptxas path needed to compile",
        "Set `PKG_PTXAS` to a value, and set `PKG_KEEP=1` with it, as `patch` requires at"
        " line 11 where it reads `PKG_PTXAS` too",
    )


def test_no_companion_from_a_function_that_does_not_read_the_variable(store: Store) -> None:
    # `patch` asserts `PKG_KEEP`, but reads no `CACHE`
    assert offers(store, "cache dir not set", "Set `PKG_CACHE` to a value (so that")


def test_a_value_computed_on_in_the_other_branch_names_its_check(store: Store) -> None:
    assert offers(
        store,
        "Cannot determine the SM count",
        "Set `PKG_NUM_SMS` to a value that gets past the check at line 17 as well",
    )


def test_a_value_nothing_checks_again_is_any_value(store: Store) -> None:
    assert offers(store, "level not set", "Set `PKG_LEVEL` to a value (so that")


def test_only_checks_below_the_settings_test_count(store: Store) -> None:
    # the check at line 26 runs whatever the variable holds: not one its value must pass
    assert offers(
        store,
        "No layout requested",
        "Set `PKG_LAYOUT` to a value that gets past the check at line 30 as well",
    )
