"""An environment variable read as a list that must hold a name (`"hub" in envs.KIT_PLUGINS`)
is set with that name, first when the message says to; advice the code adds to the message
only in some cases (`msg += " Set ..."`) is the message's advice too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ENVS = """
    import os

    environment_variables = {
        # Repositories to fetch adapters from, separated by commas.
        "KIT_REPOS": lambda: os.getenv("KIT_REPOS", None),
        # a list of plugin names to load, separated by commas.
        "KIT_PLUGINS": lambda: None
        if "KIT_PLUGINS" not in os.environ
        else os.environ["KIT_PLUGINS"].split(","),
    }

    def __getattr__(name):
        return environment_variables[name]()
    """

HUB = """
    import logging

    from kit import envs

    logger = logging.getLogger(__name__)


    def register_hub():
        repos = envs.KIT_REPOS
        enabled = envs.KIT_PLUGINS is not None and "hub" in envs.KIT_PLUGINS
        if repos and not enabled:
            logger.warning(
                "KIT_REPOS is set, but hub is not enabled in KIT_PLUGINS; you must enable "
                "hub in KIT_PLUGINS to use it."
            )


    def register_local():
        if envs.KIT_PLUGINS is not None and "local" in envs.KIT_PLUGINS:
            raise RuntimeError("the local plugin cannot be loaded here")


    def take(items, limit):
        if len(items) > limit:
            msg = f"At most {limit} items may be given."
            if len(items) < 100:
                msg += " Set `--max-items` to increase this limit."
            raise ValueError(msg)
    """


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"kit/__init__.py": "", "kit/envs.py": ENVS, "kit/hub.py": HUB}
    yield from indexed_package(tmp_path_factory.mktemp("kit"), "kit", files)


def test_the_variable_is_set_with_the_name_it_must_list_first(kit: Store) -> None:
    page = page_with_message(kit, "kit", "KIT_REPOS is set, but hub")
    first = page.solutions[0]
    assert first.knob == "KIT_PLUGINS"
    assert first.text.startswith("Set `KIT_PLUGINS` to a comma-separated list that includes `hub`")
    assert first.fix is not None
    assert first.fix.after == "export KIT_PLUGINS=hub"
    # the other way out (leave the repositories unset) comes after the message's own
    assert any(s.knob == "KIT_REPOS" for s in page.solutions[1:])


def test_a_name_the_list_must_not_hold_is_not_asked_for(kit: Store) -> None:
    page = page_with_message(kit, "kit", "the local plugin cannot be loaded here")
    assert not any("includes `local`" in s.text for s in page.solutions)


def test_advice_added_in_some_cases_is_the_messages_own(kit: Store) -> None:
    page = page_with_message(kit, "kit", "At most")
    assert any("Set `--max-items` to increase this limit." in s.text for s in page.solutions)
