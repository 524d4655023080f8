"""A package's names loaded from their modules when first read (a module `__getattr__`),
so that importing the package does not import what only some of its users need."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(namespace: dict[str, Any], modules: Mapping[str, str]) -> Callable[[str], Any]:
    """The `__getattr__` of the package whose globals are `namespace`: each name of
    `modules` is imported from its module (`{name: module}`) when first read, then kept."""

    def __getattr__(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
