"""An internal function's argument that a public call hands on as it is: the page names
that call and its argument, not the internal function's, and says nothing when unsure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "shop/__init__.py": (
        "from shop._orders import Order, Basket, Refund, Cart, Tray, Crate\n"
        "from shop._tls import make_context, make_trimmed\n"
        "from shop._files import open_file\n"
    ),
    "shop/_streams.py": """
        def open_stream(name, mode="r", atomic=False):
            if name == "-":
                return name
            if atomic:
                if "x" in mode:
                    raise ValueError("exclusive atomic streams are refused")
                if "w" not in mode:
                    raise ValueError("atomic streams need w-mode")
            return name
        """,
    "shop/_files.py": """
        from shop._streams import open_stream


        class LazyStream:
            def __init__(self, name, mode="r", atomic=False):
                self.name = name
                self.mode = mode
                self.atomic = atomic
                if name == "-":
                    self.stream = open_stream(name, mode)

            def open(self):
                return open_stream(self.name, self.mode, atomic=self.atomic)


        def open_file(name, mode="r", atomic=False):
            if not name:
                raise ValueError("a file needs a name")
            return LazyStream(name, mode, atomic=atomic)
        """,
    "shop/_tls.py": """
        import os


        def make_context(verify=True, cert=None):
            made = TLSContext(verify=verify)
            if cert is not None:
                raise ValueError("client certificates are not supported")
            return made.context


        def make_trimmed(bundle, cert=None):
            made = TrimmedBundle(bundle=bundle.strip())
            if cert is not None:
                raise ValueError("client certificates are not trimmed")
            return made.context


        class TLSContext:
            def __init__(self, *, verify=True):
                self.verify = verify
                self.context = self.load()

            def load(self):
                if isinstance(self.verify, bool):
                    return None
                if not os.path.exists(self.verify):
                    raise OSError("no CA bundle at the path given")
                return self.verify


        class TrimmedBundle:
            def __init__(self, *, bundle):
                self.bundle = bundle
                self.context = self.load()

            def load(self):
                if not os.path.exists(self.bundle):
                    raise OSError("no trimmed bundle at the path given")
                return self.bundle
        """,
    "shop/_checks.py": """
        MAX_ITEMS = 100


        def check_count(count):
            if count > MAX_ITEMS:
                raise ValueError("too many items")


        def check_note(note):
            if len(note) > MAX_ITEMS:
                raise ValueError("note too long")


        def check_limit(limit):
            if limit > MAX_ITEMS:
                raise ValueError("limit above the shop's")


        def check_size(size):
            if size > MAX_ITEMS:
                raise ValueError("size above the shop's")


        def check_weight(weight):
            if weight > MAX_ITEMS:
                raise ValueError("weight above the shop's")


        def check_code(code):
            if code not in ("EUR", "USD"):
                raise ValueError("unknown currency")
        """,
    "shop/_orders.py": """
        from shop._checks import (
            check_code, check_count, check_limit, check_note, check_size, check_weight
        )


        def _count_of(count):
            check_count(count)


        class Order:
            def __init__(self, count, note):
                if note is None:
                    raise TypeError("an order needs a note")
                _count_of(count)
                check_note(note.strip())


        class Basket:
            def __init__(self, items):
                self.items = items

            def empty(self):
                check_count(0)


        class Refund:
            def __init__(self, code):
                if code is None:
                    raise TypeError("a refund needs a currency")
                check_code(code)


            def convert(self, code):
                check_code(code)


        class Cart:
            def __init__(self, limit):
                self.limit = limit

            def fill(self):
                check_limit(self.limit)


        class Tray:
            def __init__(self, size):
                self.size = size

            def resize(self, size):
                self.size = size

            def fill(self):
                check_size(self.size)


        class Crate:
            def __init__(self, weight):
                weight = weight * 12
                self.weight = weight

            def fill(self):
                check_weight(self.weight)
        """,
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shop"), "shop", FILES)


def test_the_entry_point_and_its_argument_are_named_through_internal_callers(
    shop: Store,
) -> None:
    # `Order(count)` → `_count_of(count)` → `check_count(count)`: passed on as it is; the
    # other caller (`Basket.empty`) passes a literal of its own, no value of the user's
    page = page_with_message(shop, "shop", "too many items")
    texts = [s.text for s in page.solutions]
    assert texts[0] == (
        "Pass the argument `count` of `shop.Order` (it reaches `check_count`) at most "
        "`MAX_ITEMS` (`100`)."
    )
    assert not any("of `check_count`" in t for t in texts)


def test_the_entry_point_of_a_real_package_is_its_shorter_export(shop: Store) -> None:
    # (the class's path is read from a site of its own, as the index gives it: `shop.Order`,
    # not `shop._orders.Order`)
    page = page_with_message(shop, "shop", "too many items")
    assert "`shop._orders.Order`" not in page.solutions[0].text


def test_a_value_changed_on_the_way_is_not_followed(shop: Store) -> None:
    # `note.strip()` is not the user's `note` as given
    page = page_with_message(shop, "shop", "note too long")
    assert [s.text for s in page.solutions] == [
        "Pass the argument `note` of `check_note` with a length at most `MAX_ITEMS` (`100`)."
    ]


def test_two_entry_points_that_hand_it_on_name_none(shop: Store) -> None:
    # `Refund(code)` and `Refund.convert(code)` both reach it: which the user called is
    # not known, so the internal argument is left as it was
    page = page_with_message(shop, "shop", "unknown currency")
    texts = [s.text for s in page.solutions]
    assert "Pass the argument `code` of `check_code` as one of `'EUR'`, `'USD'`." in texts
    assert not any("(it reaches `check_code`)" in t for t in texts)


def test_an_attribute_the_constructor_kept_is_the_keyword_of_the_class(shop: Store) -> None:
    # `Cart(limit)` keeps `self.limit = limit`, which `Cart.fill` hands on; before: the
    # internal `check_limit`'s own argument
    page = page_with_message(shop, "shop", "limit above the shop's")
    assert page.solutions[0].text == (
        "Pass the argument `limit` of `shop.Cart` (it reaches `check_limit`) at most "
        "`MAX_ITEMS` (`100`)."
    )
    # a method that sets the attribute again (`Tray.resize`): no longer the keyword
    page = page_with_message(shop, "shop", "size above the shop's")
    assert not any("of `shop.Tray`" in s.text for s in page.solutions)
    # a keyword the constructor rebinds before it keeps it (`weight = weight * 12`): not
    # the value the user gave
    page = page_with_message(shop, "shop", "weight above the shop's")
    assert not any("of `shop.Crate`" in s.text for s in page.solutions)


def test_an_attribute_of_a_class_no_user_makes_is_the_keyword_of_the_call_that_makes_it(
    shop: Store,
) -> None:
    # `make_context(verify)` makes `TLSContext(verify=verify)`, whose constructor keeps
    # `self.verify` and runs the check: the user's call is `make_context`, not `TLSContext`
    page = page_with_message(shop, "shop", "no CA bundle")
    texts = [s.text for s in page.solutions]
    assert texts[0] == (
        "Pass the argument `verify` of `shop.make_context` (it reaches `TLSContext`) as a path "
        "that exists."
    )
    assert not any("of `TLSContext` as" in t for t in texts)
    # the maker hands on a value of its own (`bundle.strip()`): the class's keyword stays
    page = page_with_message(shop, "shop", "no trimmed bundle")
    assert not any("shop.make_trimmed" in s.text for s in page.solutions)


def test_an_attribute_of_a_class_no_user_makes_goes_on_to_the_call_that_makes_it(
    shop: Store,
) -> None:
    # `LazyStream.open` hands on `self.mode`, which the constructor kept from `mode` (and
    # which it hands on itself for `-`); no user makes `LazyStream` (a private module's
    # class), `open_file(mode=...)` does: both chains end at `shop.open_file`'s `mode`
    page = page_with_message(shop, "shop", "exclusive atomic streams")
    texts = [s.text for s in page.solutions]
    assert texts[0] == (
        "Use `'w'` in place of `'x'` in the argument `mode` of `shop.open_file` (it reaches "
        "`open_stream`): the check at line 8 asks that `'w'` occurs in `mode`."
    )
    assert not any("of `open_stream`" in t or "LazyStream" in t for t in texts)
