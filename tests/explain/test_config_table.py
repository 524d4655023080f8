"""A value read from a table of the user's TOML config file and type-checked: the way out is
that key of that table, with a value of the type the check takes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.store import Store

PLUGIN = {
    "plugin/__init__.py": "",
    "plugin/config.py": """
        import tomllib
        from configparser import ConfigParser


        def parse_toml(path):
            with open(path, "rb") as f:
                return tomllib.load(f)


        class PluginConfig:
            __slots__ = ("init_typed", "strict")

            def __init__(self, options):
                toml_config = parse_toml(options.config_file)
                if toml_config is not None:
                    config = toml_config.get("tool", {}).get("my-plugin", {})
                    for key in self.__slots__:
                        setting = config.get(key, False)
                        if not isinstance(setting, bool):
                            raise ValueError(f"Configuration value must be a bool: {key}")
                        setattr(self, key, setting)
                else:
                    parser = ConfigParser()
                    for key in self.__slots__:
                        setting = parser.get("my-plugin", key)
                        if not isinstance(setting, str):
                            raise ValueError(f"bad value for {key}")


        def read_level(path):
            data = parse_toml("pyproject.toml")
            level = data["tool"]["my-plugin"]["level"]
            if not isinstance(level, int):
                raise TypeError("level must be an integer")
            return level


        def read_hidden(options):
            config = parse_toml(options.config_file)["tool"]
            for key in ("a", "b"):
                value = config.get(key)
                if not isinstance(value, str):
                    raise TypeError("a value is not a string")
        """,
}


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("plugin"), "plugin", PLUGIN)


def page_at(store: Store, function: str, message: str) -> Page:
    (site,) = [
        s
        for s in store.list_sites("plugin")
        if s.site.function == function
        and s.site.message is not None
        and s.site.message.text.startswith(message)
    ]
    return build_page(store, site.id)


def test_a_type_checked_key_of_a_toml_table_names_the_table_and_type(plugin: Store) -> None:
    # before: no solution ("errdex found no setting or argument a user passes")
    page = page_at(plugin, "PluginConfig.__init__", "Configuration value")
    assert page.solutions[0].text == (
        "In the `[tool.my-plugin]` table of the TOML config file (`options.config_file`), "
        "set the key the message names to a boolean (`true` or `false`), or leave it out "
        "(its default, `False`, is one): the check at line 20 tests `setting`, the value the "
        "program reads of that key (line 19)."
    )
    # the same name read from an INI parser below is no key of the TOML table
    ini = page_at(plugin, "PluginConfig.__init__", "bad value")
    assert not any("TOML" in s.text for s in ini.solutions)


def test_a_literal_key_is_named_and_a_hidden_one_is_not(plugin: Store) -> None:
    page = page_in_function(plugin, "plugin", "read_level")
    assert page.solutions[0].text.startswith(
        "In the `[tool.my-plugin]` table of the TOML file `pyproject.toml`, set the key "
        "`level` to an integer: "
    )
    # the key is a variable the message does not show: the user cannot tell which
    hidden = page_in_function(plugin, "plugin", "read_hidden")
    assert not any("TOML" in s.text for s in hidden.solutions)
