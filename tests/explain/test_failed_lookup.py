"""A `try` under `except KeyError` whose one lookup (`DEFAULTS[item]`) is what misses, its
calls raising no such error (`warnings.warn`, a text method cutting the key): the page
names the lookup, not the call, as what raised."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.facts import SiteKind
from errdex.store import Store

FILES = {
    "units/__init__.py": "from units.core import Settings, convert, fetch, unit_of\n",
    "units/core.py": """
        import warnings

        UNITS = {"kb": 1000, "mb": 1000000}


        def convert(value):
            return value * 2


        class _Meta(type):
            def __getattr__(self, item):
                try:
                    obj = UNITS[item]
                    warnings.warn("read through the settings", DeprecationWarning)
                    return obj
                except KeyError as exc:
                    raise AttributeError(f"no setting {exc}") from exc


        class Settings(metaclass=_Meta):
            pass


        def unit_of(text):
            try:
                return UNITS[text.strip().lower()]
            except KeyError:
                raise ValueError(f"unknown unit {text!r}")


        def fetch(table, key):
            try:
                value = table[key]
                return convert(value)
            except KeyError:
                raise ValueError("missing")
        """,
}


@pytest.fixture(scope="module")
def units(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("units"), "units", FILES)


def meaning(store: Store, function: str) -> str:
    (site,) = [
        s
        for s in store.list_sites("units")
        if s.site.function == function and s.site.kind == SiteKind.RAISE
    ]
    return build_page(store, site.id).what_it_means


def test_the_lookup_is_named_not_a_call_that_raises_no_key_error(units: Store) -> None:
    assert (
        "It runs when the lookup `UNITS[item]` (the `try` at line 14) raised `KeyError`; the "
        "key it looked up is what to check."
    ) in meaning(units, "_Meta.__getattr__")
    assert (
        "It runs when the lookup `UNITS[text.strip().lower()]` (the `try` at line 27) raised "
        "`KeyError`; the key it looked up is what to check."
    ) in meaning(units, "unit_of")


def test_a_call_that_may_raise_it_keeps_the_call(units: Store) -> None:
    # `convert(value)` may raise `KeyError` itself: which of the two did is not known
    said = meaning(units, "fetch")
    assert "the lookup" not in said
    assert "`convert(value)`" in said, said
