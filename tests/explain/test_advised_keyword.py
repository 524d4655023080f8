"""The message's advised call, when the function it names stores into the table the check
reads only under one of its keywords, is offered with that keyword."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store.base import Store

# A registry of two kinds of plugin kept in two tables; the message of the second kind's
# lookup advises the registering call without the keyword that reaches its table.
SOURCES = {
    "tool/__init__.py": "",
    "tool/registry.py": """
from enum import Enum

_PLAIN: dict = {}
_SPECIAL: dict = {}


class Kind(Enum):
    FAST = "tool.fast.Fast"
    OWN = None

    def get_path(self):
        path = _PLAIN.get(self, self.value)
        if not path:
            raise ValueError(
                f"Kind {self.name} must be registered before use. "
                f"Use register(Kind.{self.name}, 'your.module.YourClass')"
            )
        return path


class SpecialKind(Enum):
    SLOW = "tool.slow.Slow"
    OWN = None

    def get_path(self):
        path = _SPECIAL.get(self, self.value)
        if not path:
            raise ValueError(
                f"Special {self.name} must be registered before use. "
                f"Use register(Plugin.{self.name}, 'your.module.YourClass')"
            )
        return path


def register(kind, class_path=None, special=False):
    if class_path is not None:
        if special:
            _SPECIAL[kind] = class_path
        else:
            _PLAIN[kind] = class_path
    return kind
""",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("tool"), "tool", SOURCES)


def _said(page) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(s.text for s in page.solutions)


def test_the_keyword_the_advised_call_needs_is_said(store: Store) -> None:
    said = _said(page_with_message(store, "tool", "Special"))
    assert "passing `special=True` to `register`" in said
    assert "`SpecialKind` in place of `Plugin`" in said
    assert "stores into `_SPECIAL`" in said


def test_advice_reaching_the_table_as_written_stays(store: Store) -> None:
    said = _said(page_with_message(store, "tool", "Kind {self.name}"))
    assert "Do what the message says: “Use register(" in said
    assert "special=True" not in said
    assert "in place of" not in said
