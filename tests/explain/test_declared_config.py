"""A check of the configuration a user's subclass declares (`self.__config__.frozen`,
`self.model_config.get('extra')`): the way out is the value in that declaration, not the
attribute name `__setattr__` is handed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "models/__init__.py": "from models.main import BaseModel, Model, Widget\n",
    "models/main.py": """
        from typing import TYPE_CHECKING, ClassVar, TypedDict

        DUNDER_ATTRIBUTES = {"__doc__", "__module__"}


        class BaseConfig:
            allow_mutation: bool = True
            frozen: bool = False
            extra: str = "ignore"


        class ConfigDict(TypedDict, total=False):
            extra: str


        class BaseModel:
            if TYPE_CHECKING:
                __config__: ClassVar[type[BaseConfig]] = BaseConfig

            Config = BaseConfig

            def __setattr__(self, name, value):
                if name in DUNDER_ATTRIBUTES:
                    return object.__setattr__(self, name, value)
                if not self.__config__.allow_mutation or self.__config__.frozen:
                    raise TypeError(f"{self.__class__.__name__} is immutable")
                object.__setattr__(self, name, value)


        class Model:
            model_config: ClassVar[ConfigDict] = ConfigDict()

            def __setattr__(self, name, value):
                if self.model_config.get("extra") != "allow" and name not in self.__dict__:
                    raise ValueError(f"object has no field {name}")
                object.__setattr__(self, name, value)


        class Widget:
            options = BaseConfig

            def __init__(self, options):
                self.options = options

            def freeze(self):
                if self.options.frozen:
                    raise RuntimeError("widget frozen already")


        class Engine:
            # a field each instance is given, not the class's declaration
            cache: BaseConfig = BaseConfig()

            def check(self):
                if self.cache.frozen:
                    raise RuntimeError("engine cache frozen")
        """,
}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("models"), "models", FILES)


def test_a_nested_config_class_the_base_binds_publicly(models: Store) -> None:
    page = page_with_message(models, "models", "{self.__class__.__name__} is immutable")
    assert page.solutions[0].text == (
        "In your subclass of `models.BaseModel`, set `allow_mutation` to `True` and `frozen` "
        "to `False` in its `Config` (a `class Config:` in the class body, as `BaseModel` "
        "declares `Config = BaseConfig`): the check at line 26 reads them from "
        "`self.__config__`, which your class's declaration decides."
    )
    # the attribute `__setattr__` is handed is the one the statement writes: another is
    # another attribute, no way out
    assert not any("DUNDER" in s.text or "`name`" in s.text for s in page.solutions)


def test_a_mapping_assigned_from_its_constructor(models: Store) -> None:
    page = page_with_message(models, "models", "object has no field")
    assert page.solutions[0].text.startswith(
        "In your subclass of `models.Model`, set `extra` to `'allow'` in its `model_config` "
        "(`model_config = ConfigDict(extra='allow')`): the check at line 35 reads it from "
        "`self.model_config`"
    )


def test_an_attribute_the_constructor_sets_is_no_declaration(models: Store) -> None:
    page = page_with_message(models, "models", "widget frozen already")
    assert not any("In your subclass" in s.text for s in page.solutions)
    page = page_with_message(models, "models", "engine cache frozen")
    assert not any("In your subclass" in s.text for s in page.solutions)
