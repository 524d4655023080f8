"""A path a setting or an argument gives, tested for being there: the way out is a path that
is, before turning the setting off (which gives up the folder the user asked for)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ENVS = """
    import os

    environment_variables = {
        "KIT_CONFIG_DIR": lambda: os.getenv("KIT_CONFIG_DIR", None),
        "KIT_CACHE_DIR": lambda: os.getenv("KIT_CACHE_DIR", ""),
        "KIT_SAVE_PATH": lambda: os.getenv("KIT_SAVE_PATH", None),
    }

    def __getattr__(name):
        return environment_variables[name]()
    """

LOAD = """
    import logging
    import os
    from pathlib import Path

    from kit import envs

    logger = logging.getLogger(__name__)


    def load_config(name: str):
        folder = envs.KIT_CONFIG_DIR
        if folder is not None:
            config_path = Path(f"{folder}/{name}.json")
            if not config_path.exists():
                logger.warning("No config found in %s", config_path)
                return None
            return config_path.read_text()
        return None


    def register_cache():
        cache_dir = envs.KIT_CACHE_DIR
        if cache_dir:
            if not os.path.exists(cache_dir) or not os.path.isdir(cache_dir):
                raise ValueError("KIT_CACHE_DIR must be set to a valid directory")
        return cache_dir


    def save_scales(scales):
        save_path = envs.KIT_SAVE_PATH
        if save_path is not None:
            save_parent = Path(save_path).parent
            if not save_parent.is_dir():
                raise FileNotFoundError(f"Parent directory not found: {save_parent}")
            Path(save_path).write_text(str(scales))


    class Media:
        def __init__(self, allowed_path: str = ""):
            if allowed_path:
                resolved = Path(allowed_path).resolve()
                if not resolved.exists():
                    raise ValueError(f"The path {resolved} does not exist.")
                self.path = resolved


    def load_vocab(name_or_repo: str):
        path = Path(name_or_repo)
        if path.is_file():
            return path
        elif path.is_dir():
            return path / "vocab.txt"
        try:
            return download(name_or_repo)
        except Exception as exc:
            raise ValueError(f"Could not find a vocab in {name_or_repo}") from exc


    def download(repo: str):
        raise OSError(repo)
    """


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {
        "kit/__init__.py": (
            "from kit.load import Media, load_config, load_vocab, register_cache, save_scales\n"
        ),
        "kit/envs.py": ENVS,
        "kit/load.py": LOAD,
    }
    yield from indexed_package(tmp_path_factory.mktemp("kit"), "kit", files)


def test_a_folder_variable_holds_the_file_looked_for_before_it_is_unset(kit: Store) -> None:
    page = page_with_message(kit, "kit", "No config found")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Set `KIT_CONFIG_DIR` to a folder that holds `NAME.json`")
    assert texts[1].startswith("Unset `KIT_CONFIG_DIR`")


def test_a_directory_variable_is_given_one_that_exists_before_it_is_left_out(kit: Store) -> None:
    page = page_with_message(kit, "kit", "KIT_CACHE_DIR must be set")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith(
        "Set `KIT_CACHE_DIR` to the path of a directory that exists (so that"
    )
    assert texts[1].startswith("Leave `KIT_CACHE_DIR` unset or empty")


def test_a_path_whose_folder_must_exist_is_given_in_one_that_does(kit: Store) -> None:
    page = page_with_message(kit, "kit", "Parent directory not found")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Set `KIT_SAVE_PATH` to a path in a directory that exists")
    assert texts[1].startswith("Unset `KIT_SAVE_PATH`")


def test_an_argument_made_into_a_resolved_path_is_given_one_that_exists(kit: Store) -> None:
    page = page_with_message(kit, "kit", "The path {resolved} does not exist.")
    assert [s.text for s in page.solutions] == [
        "Pass the argument `allowed_path` of `Media` as a path that exists."
    ]


def test_a_path_tried_before_a_download_is_not_the_way_out_of_its_failure(kit: Store) -> None:
    # `Path(name_or_repo)` is tried as a local file first; the raise is of the download
    page = page_with_message(kit, "kit", "Could not find a vocab in")
    assert not any("a path that exists" in s.text for s in page.solutions)
    assert not any("directory that exists" in s.text for s in page.solutions)
