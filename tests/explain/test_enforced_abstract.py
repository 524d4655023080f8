"""A `raise NotImplementedError` in an `@abstractmethod` of an `ABC`: a subclass that leaves
the method out cannot be made, so "define it in your subclass" is no way out; "What it
means" says only the base's own method, called through `super()`, reaches the line. A base
that is no `ABC` enforces nothing: its page keeps the solution."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

PARSERS = {
    "parsers/__init__.py": "",
    "parsers/base.py": """
        import abc
        from abc import ABC, abstractmethod


        class Parser(ABC):
            @abstractmethod
            def parse(self, text):
                raise NotImplementedError


        class Reader(metaclass=abc.ABCMeta):
            @abc.abstractmethod
            def read(self, path):
                raise NotImplementedError

            @property
            @abc.abstractmethod
            def size(self):
                raise NotImplementedError


        class Loose:
            @abstractmethod
            def load(self, path):
                raise NotImplementedError


        class Kinds(ABC):
            @staticmethod
            @abstractmethod
            def kind():
                raise NotImplementedError


        class WordParser(Parser):
            def parse(self, text):
                return text.split()


        class FileReader(Reader):
            def read(self, path):
                return path

            @property
            def size(self):
                return 0


        class LooseLoader(Loose):
            def load(self, path):
                return path
        """,
}


@pytest.fixture(scope="module")
def parsers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("parsers"), "parsers", PARSERS)


@pytest.mark.parametrize(("function", "name"), [("Parser.parse", "parse"), ("Reader.read", "read")])
def test_an_enforced_abstract_method_offers_no_subclass(
    parsers: Store, function: str, name: str
) -> None:
    page = page_in_function(parsers, "parsers", function)
    # before: "Define `parse` in your subclass of `Parser` (...)"
    assert not any("in your subclass" in s.text for s in page.solutions)
    assert (
        f"only a call of the base's own method reaches this line (a subclass's "
        f"`super().{name}()`)" in page.what_it_means
    )


def test_a_base_that_is_no_abc_keeps_its_way_out(parsers: Store) -> None:
    page = page_in_function(parsers, "parsers", "Loose.load")
    assert "abstract method" not in page.what_it_means
    assert any("in your subclass of `Loose`" in s.text for s in page.solutions)


def test_an_abstract_property_is_read_through_super(parsers: Store) -> None:
    page = page_in_function(parsers, "parsers", "Reader.size")
    assert "(a subclass's `super().size`)" in page.what_it_means


def test_a_static_abstract_method_keeps_its_way_out(parsers: Store) -> None:
    # `Kinds.kind()` runs on a subclass that lacks it, with no instance made
    page = page_in_function(parsers, "parsers", "Kinds.kind")
    assert "abstract method" not in page.what_it_means
