"""A check that takes one class of what the package's parse made of the user's data asks for
the data in the form the parse makes that class of, not the one its earlier branch turns into
a class the check refuses; a check that takes every class the parse makes gets no such way
out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.explain.made_instead import _shared_thing
from errdex.store import Store

FILES = {
    "media/__init__.py": "",
    "media/parse.py": """
        from collections import UserDict


        class ImageItems:
            def __init__(self, data):
                self.data = data


        class ImageVectorItems:
            def __init__(self, data):
                self.data = data


        class Parser:
            @staticmethod
            def is_vectors(data):
                return isinstance(data, list) and all(isinstance(x, float) for x in data)

            def parse_image(self, data):
                if data is None:
                    return None
                if self.is_vectors(data):
                    return ImageVectorItems(data)
                return ImageItems(data)


        class Plain:
            pass


        class Cached:
            pass


        def make_store(caching):
            if not caching:
                return Plain()
            return Cached()


        class Items(UserDict):
            def get_items(self, modality, typ):
                items = self[modality]
                if not isinstance(items, typ):
                    raise TypeError(f"Invalid type of data items. Expected type: {typ}")
                return items
        """,
    "media/model.py": """
        from media.parse import Cached, ImageItems, ImageVectorItems


        class Processor:
            def _raw_only(self, mm_items):
                items = mm_items.data["image"]
                if not isinstance(items, ImageItems):
                    raise TypeError("this model takes raw images")
                return items

            def _branch(self, mm_items):
                items = mm_items.data["image"]
                if isinstance(items, ImageVectorItems):
                    return items.data
                else:
                    assert isinstance(items, ImageItems)
                    return items.data

            def _cached_only(self, holder):
                store = holder.store
                assert isinstance(store, Cached)
                return store

            def _either(self, mm_items):
                items = mm_items.data["image"]
                if not isinstance(items, (ImageItems, ImageVectorItems)):
                    raise TypeError("this model takes raw images or vectors")
                return items
        """,
}


@pytest.fixture(scope="module")
def media(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("media"), "media", FILES)


def _instead(store: Store, function: str) -> list[str]:
    page = page_in_function(store, "media", function)
    return [s.text for s in page.solutions if "this check takes" in s.text]


def test_a_class_the_parse_makes_asks_for_the_data_it_makes_it_of(media: Store) -> None:
    # the user's words first (the word both classes share, the predicate's name), then why
    assert _instead(media, "Processor._raw_only") == [
        "Give the image itself, not image vectors: this check takes only `ImageItems`; "
        "`Parser.parse_image` (media/parse.py:25) makes an `ImageItems` of the data, but an "
        "`ImageVectorItems` of data for which `self.is_vectors(data)` holds (lines 23-24)."
    ]


def test_classes_that_share_no_word_name_the_data() -> None:
    assert _shared_thing("ImageItems", "ImageVectorItems") == "image"
    assert _shared_thing("RawItems", "VectorItems") is None
    assert _shared_thing("Image", "ImageVector") is None  # the whole of one: no thing named


def test_a_check_that_takes_every_class_the_parse_makes_gets_none(media: Store) -> None:
    # the parse makes nothing the check refuses: its branches say nothing of the failure
    assert _instead(media, "Processor._either") == []


def test_a_path_that_took_the_other_class_before_gets_none(media: Store) -> None:
    # the `else` of `isinstance(items, ImageVectorItems)` takes both classes the parse makes
    assert _instead(media, "Processor._branch") == []


def test_a_maker_that_switches_on_a_flag_gets_none(media: Store) -> None:
    # `if not caching:` is the program's switch, not the form of data a user gives
    assert _instead(media, "Processor._cached_only") == []


def test_a_class_handed_in_as_an_argument_is_not_read(media: Store) -> None:
    # `typ` is the caller's: the helper's own page names no class to follow
    assert _instead(media, "Items.get_items") == []
