"""A message that gives the code to write instead: the fix is that code, in place of the
call that raised (the one the message quotes, else the raising method on the object the
replacement names)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "urls/__init__.py": "from urls.params import Params, Secret\n",
    "urls/params.py": """
        import warnings


        class Params:
            def __init__(self, items=()):
                self._items = list(items)

            def merge(self, params=None):
                return Params([*self._items, *(params or ())])

            def set(self, key, value):
                return Params([*self._items, (key, value)])

            def update(self, params=None):
                raise RuntimeError(
                    "Params are immutable. Use `q = q.merge(...)` to create an updated copy."
                )

            def __setitem__(self, key, value):
                raise RuntimeError(
                    "Params are immutable. Use `q = q.set(key, value)` to create an updated copy."
                )

            def append(self, item):
                raise RuntimeError("Params are immutable. Use `Params.merge(...)` instead.")


        class Secret:
            def __init__(self, value):
                self._value = value

            def display(self):
                warnings.warn("`secret.display()` is deprecated, use `str(secret)` instead")
                return "***"
        """,
}


@pytest.fixture(scope="module")
def urls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("urls"), "urls", FILES)


def fix_of(store: Store, message: str) -> tuple[str, str] | None:
    fix = page_with_message(store, "urls", message).example_fix
    return None if fix is None else (fix.before, fix.after)


def test_the_code_a_message_gives_replaces_the_raising_call_on_its_object(urls: Store) -> None:
    assert fix_of(urls, "Params are immutable. Use `q = q.merge") == (
        "q.update(...)",
        "q = q.merge(...)",
    )
    assert fix_of(urls, "Params are immutable. Use `q = q.set") == (
        "q[key] = value",
        "q = q.set(key, value)",
    )


def test_the_call_the_message_quotes_is_the_before(urls: Store) -> None:
    assert fix_of(urls, "`secret.display()` is deprecated") == (
        "secret.display()",
        "str(secret)",
    )


def test_a_class_name_is_no_object_of_the_users(urls: Store) -> None:
    assert fix_of(urls, "Params are immutable. Use `Params.merge") is None
