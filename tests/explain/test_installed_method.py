"""A method a class decorator gives the user's class that reads back each parameter of its
`__init__` with `getattr`: the way out is in that class (keep each parameter as an
attribute; define the method where the decorator gives it only to a class without one).
A closure that is no method given to the decorated class, or one that reads something else,
gets neither."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

PKG = {
    "pretty/__init__.py": "",
    "pretty/show.py": """
        import inspect


        class ShowError(Exception):
            pass


        def auto(cls=None, *, brackets=None):
            def make(cls, brackets=None):
                def auto_show(self):
                    try:
                        signature = inspect.signature(self.__init__)
                        for name, param in signature.parameters.items():
                            yield param.name, getattr(self, param.name)
                    except Exception as error:
                        raise ShowError(f"Failed to build __show__; {error}") from None

                if not hasattr(cls, "__show__"):
                    cls.__show__ = auto_show
                return cls

            return make(cls, brackets) if cls is not None else make


        def always(cls):
            def listed(self):
                try:
                    for name in inspect.signature(self.__init__).parameters:
                        yield getattr(self, name)
                except AttributeError as error:
                    raise ShowError(f"Cannot list the parameters; {error}") from None

            cls.__listed__ = listed
            return cls


        def wrap(cls):
            def fields(self):
                try:
                    for name in self.__slots__:
                        yield getattr(self, name)
                except AttributeError as error:
                    raise ShowError(f"Cannot show a slot; {error}") from None

            cls.__fields__ = fields
            return cls


        def helper(obj):
            def read(self):
                try:
                    for name in inspect.signature(self.__init__).parameters:
                        yield getattr(self, name)
                except AttributeError as error:
                    raise ShowError(f"Cannot read back; {error}") from None

            return read(obj)
        """,
}


@pytest.fixture(scope="module")
def pretty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("pretty"), "pretty", PKG)


def test_each_init_parameter_read_back_is_kept_as_an_attribute(pretty: Store) -> None:
    page = page_with_message(pretty, "pretty", "Failed to build __show__")
    texts = [s.text for s in page.solutions]
    assert texts[:2] == [
        "In the class you decorate with `@pretty.show.auto`, keep each parameter of "
        "`__init__` as an attribute of the same name (`self.x = x` for a parameter `x`): "
        "the `__show__` `@pretty.show.auto` gives the class reads each one back with "
        "`getattr` (line 15), and fails on one it cannot find.",
        "Define `__show__` on that class yourself: `@pretty.show.auto` gives a class its "
        "own only when it has none (line 19), and keeps yours.",
    ]


def test_a_method_given_to_every_class_has_no_own_definition_way_out(pretty: Store) -> None:
    page = page_with_message(pretty, "pretty", "Cannot list the parameters")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith(
        "In the class you decorate with `@pretty.show.always`, keep each parameter"
    )
    assert not any(t.startswith("Define `__listed__`") for t in texts)


def test_other_reads_and_closures_given_to_no_class_get_neither(pretty: Store) -> None:
    for message in ("Cannot show a slot", "Cannot read back"):
        page = page_with_message(pretty, "pretty", message)
        assert not any("decorate with" in s.text for s in page.solutions)
