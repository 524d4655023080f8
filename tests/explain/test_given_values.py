"""A value the user gave that the message prints back: a key the object they index lacks,
a name not among those the message lists. The way out names that value, and a lookup fills
it from the user's own message."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain import build_page
from errdex.explain.advice import fill_values
from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "kv/__init__.py": "",
    "kv/models.py": """
        class Headers:
            def __init__(self):
                self._list = []

            def __delitem__(self, key):
                del_key = key.lower()
                pop_indexes = [i for i, k in enumerate(self._list) if k == del_key]
                if not pop_indexes:
                    raise KeyError(key)
                for i in reversed(pop_indexes):
                    del self._list[i]

            def __getitem__(self, key):
                value = self.get(key)
                if value is None:
                    raise KeyError(f"no header {key}")
                return value

            def get(self, key):
                return None


        class _Private:
            def __getitem__(self, key):
                raise KeyError(key)


        class WeakValues:
            def __init__(self):
                self._refs = {}

            def __getitem__(self, key):
                ref = self._refs[key]
                value = ref()
                if value is None:
                    raise KeyError(key)
                return value


        class Model:
            def __init__(self):
                self._private = {}
                self._declared = {"token"}

            def __getattr__(self, item):
                if item in self._declared:
                    try:
                        return self._private[item]
                    except KeyError as exc:
                        raise AttributeError(f"{type(self).__name__!r} has no {item!r}") from exc
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {item!r}")

            def __delattr__(self, item):
                if item in self._declared:
                    try:
                        del self._private[item]
                        return
                    except KeyError as exc:
                        raise AttributeError(f"{type(self).__name__!r} lacks {item!r}") from exc
                try:
                    object.__delattr__(self, item)
                except AttributeError:
                    raise AttributeError(f"{type(self).__name__!r} has no attribute {item!r}")


        class Frozen:
            frozen = True

            def __delattr__(self, item):
                if self.frozen:
                    raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {item!r}")
                object.__delattr__(self, item)


        class Sealed:
            def __delattr__(self, item):
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {item!r}")
        """,
    "kv/legacy.py": """
        import warnings


        class _OldCompiler:
            pass


        def __getattr__(name):
            if name == "OldCompiler":
                warnings.warn("OldCompiler is deprecated; it is for internal use only")
                return _OldCompiler
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        """,
    "kv/_hidden.py": """
        def __getattr__(name):
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        """,
    "kv/plot.py": """
        def _plot_fig(rows, var_x, var_y, dry_run):
            columns = load(rows)
            if var_y not in columns:
                raise ValueError(
                    f"Cannot find var_y={var_y!r} in the results. Available: {columns}"
                )
            if var_x not in columns:
                raise ValueError(f"Cannot find var_x={var_x!r} in the results.")


        def load(rows):
            return list(rows)


        def in_(a, b):
            assert a not in b, f"{a!r} in {b!r}"
            assert a in b, f"{a!r} not in {b!r}"


        def pick(table, name):
            if name not in table:
                raise ValueError(f"Unknown {name!r}: {len(table)} are known")
            return table[name]
        """,
}


@pytest.fixture(scope="module")
def kv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kv"), "kv", FILES)


def page_of(store: Store, function: str, fragment: str = "") -> Page:
    (site,) = [
        s
        for s in store.list_sites("kv")
        if s.site.function == function
        and s.site.message is not None
        and fragment in s.site.message.text
    ]
    return build_page(store, site.id)


def test_a_missing_key_names_the_users_key(kv: Store) -> None:
    page = page_of(kv, "Headers.__delitem__")
    assert [(s.kind, s.text) for s in page.solutions] == [
        (
            "input",
            "The key `KEY` is not in the `Headers`: delete only a key it holds (check the "
            "key's spelling against those it has).",
        )
    ]
    filled = fill_values(page, {"key": "x-token"})
    assert filled.solutions[0].text.startswith("The key `x-token` is not in the `Headers`")


def test_no_key_sentence_when_the_message_is_more_than_the_key_or_the_class_is_private(
    kv: Store,
) -> None:
    assert page_of(kv, "Headers.__getitem__").solutions == []
    assert page_of(kv, "_Private.__getitem__").solutions == []


@pytest.mark.parametrize(
    ("method", "missing", "unset", "way"),
    [
        (
            "__getattr__",
            "object has no attribute",
            "has no {item!r}",
            "use only an attribute it has (check the name's spelling; `dir()` of the object "
            "lists those it has)",
        ),
        (
            "__delattr__",
            "has no attribute",
            "lacks",
            "delete only an attribute set on it (check the name's spelling, and that it was "
            "not deleted already)",
        ),
    ],
)
def test_a_missing_attribute_names_the_users_attribute(
    kv: Store, method: str, missing: str, unset: str, way: str
) -> None:
    page = page_of(kv, f"Model.{method}", missing)
    assert [s.text for s in page.solutions] == [
        f"The attribute `ITEM` is not on the `Model`: {way}."
    ]
    # a name the object declares, only unset: its spelling is not what is wrong
    assert page_of(kv, f"Model.{method}", unset).solutions == []


@pytest.mark.parametrize("cls", ["Frozen", "Sealed"])
def test_an_attribute_that_cannot_be_deleted_is_not_said_missing(kv: Store, cls: str) -> None:
    # `__delattr__` of a frozen object: the attribute is there, its deletion refused (a
    # message that does not say it is absent); and one raised for every name, whatever its
    # message says: no attribute is one to delete
    texts = [s.text for s in page_of(kv, f"{cls}.__delattr__").solutions]
    assert not [t for t in texts if "is not on the" in t], texts


def module_page(store: Store, module: str) -> Page:
    (site,) = [
        s
        for s in store.list_sites("kv")
        if s.site.function == "__getattr__"
        and s.module == module
        and s.site.exception == "AttributeError"
    ]
    return build_page(store, site.id)


def test_a_name_a_module_lacks_is_the_users_lookup_not_an_argument(kv: Store) -> None:
    # Python calls the module's `__getattr__` with the name looked up: the way out is a name
    # the module defines, never "pass `name` equal to" the one alias it still answers
    page = module_page(kv, "kv.legacy")
    assert [s.text for s in page.solutions] == [
        "The name `NAME` is not in the module `kv.legacy`: use only a name it defines "
        "(check the spelling; a name it no longer has was moved or removed in this version, "
        "and `dir(kv.legacy)` lists those it has)."
    ]
    filled = fill_values(page, {"name": "'NewCompiler'"})
    assert filled.solutions[0].text.startswith("The name `'NewCompiler'` is not in the module")
    # a private module: nobody imports names from it
    assert module_page(kv, "kv._hidden").solutions == []


def test_a_value_not_among_those_the_message_lists(kv: Store) -> None:
    page = page_of(kv, "_plot_fig", "var_y")
    (solution,) = page.solutions
    assert solution.kind == "input"
    assert solution.text == (
        "Give for `var_y` one of the values the message lists as available (`COLUMNS`) "
        "instead of `VAR_Y`: the check at line 4 tests `var_y not in columns`."
    )
    filled = fill_values(page, {"var_y": "'tps'", "columns": "['ttft', 'itl']"})
    assert "available (`['ttft', 'itl']`) instead of `'tps'`:" in filled.solutions[0].text
    # a message that lists nothing gives nothing to choose from
    assert page_of(kv, "_plot_fig", "var_x").solutions == []


def test_a_count_of_the_collection_is_no_list_to_choose_from(kv: Store) -> None:
    assert page_of(kv, "pick").solutions == []


def test_an_assertion_states_what_holds_and_lists_nothing_to_choose_from(kv: Store) -> None:
    for site in kv.list_sites("kv"):
        if site.site.function == "in_":
            assert build_page(kv, site.id).solutions == []


def test_no_key_sentence_when_the_key_was_found_and_what_it_holds_is_gone(kv: Store) -> None:
    # `self._refs[key]` raised no KeyError: the key is there, its object was collected, and
    # the key's spelling is not the fault
    page = page_of(kv, "WeakValues.__getitem__")
    assert not any(s.text.startswith("The key") for s in page.solutions), page.solutions
