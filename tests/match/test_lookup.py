"""Lookup end to end: a small package indexed into a real SQLite file, then pasted errors."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from errdex.indexing import index_source
from errdex.match import lookup_text, parse_paste
from errdex.match.candidates import candidates
from errdex.match.lookup import _demote_guesses
from errdex.match.results import Match
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store
from samples import indexed_store, write_package

PACKAGE = {
    "shop/__init__.py": "",
    "shop/errors.py": """
        class ShopError(Exception):
            pass

        class OutOfStock(ShopError):
            def __init__(self, item, left):
                super().__init__(f"Only {left} of {item!r} left in stock")
        """,
    "shop/cart.py": """
        import logging
        from shop.errors import OutOfStock

        logger = logging.getLogger(__name__)

        def add(cart, item, count, stock):
            if count <= 0:
                raise ValueError(f"count must be positive, got {count}")
            if stock[item] < count:
                raise OutOfStock(item, stock[item])
            if count > 100:
                logger.warning("Large order of %d x %s", count, item)

        def check(cart):
            problems = []
            if cart.expired:
                problems.append("the cart expired")
            if not cart.address:
                problems.append("no shipping address")
            if problems:
                raise ValueError(f"Cannot check out: {', '.join(problems)}")

        def remove(cart, item):
            if item not in cart:
                raise KeyError(f"count must be positive, got {item}")
        """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = indexed_store(tmp_path_factory.mktemp("shop"), "shop", {"1.0": PACKAGE})
    yield db
    db.close()


def best(store: Store, text: str) -> tuple[str, int, dict[str, str]]:
    result = lookup_text(store, text)
    assert result.matches, result.nearest
    top = result.matches[0]
    return top.file, top.line, top.values


def test_bare_message_finds_every_site_with_that_text_and_the_values(store: Store) -> None:
    matches = lookup_text(store, "count must be positive, got -3").matches
    assert {(m.file, m.line) for m in matches[:2]} == {("shop/cart.py", 9), ("shop/cart.py", 26)}
    assert {m.line: m.values for m in matches[:2]} == {9: {"count": "-3"}, 26: {"item": "-3"}}


def test_the_exception_class_breaks_a_tie_between_same_text(store: Store) -> None:
    assert best(store, "KeyError: 'count must be positive, got apple'")[:2] == ("shop/cart.py", 26)
    assert best(store, "ValueError: count must be positive, got 0")[:2] == ("shop/cart.py", 9)


def test_message_built_by_the_exception_class(store: Store) -> None:
    file, line, values = best(store, "shop.errors.OutOfStock: Only 2 of 'apple' left in stock")
    assert lookup_text(store, "Only 2 of 'apple' left").matches[0].message == (
        "Only {stock[item]} of {item!r} left in stock"
    )
    assert (file, line) == ("shop/cart.py", 11)
    assert values == {"stock[item]": "2", "item": "apple"}


def test_traceback_frames_pin_the_site(store: Store) -> None:
    paste = textwrap.dedent(
        """\
        Traceback (most recent call last):
          File "/srv/app/main.py", line 3, in <module>
            add(cart, "apple", 0, stock)
          File "/usr/lib/python3.12/site-packages/shop/cart.py", line 9, in add
            raise ValueError(f"count must be positive, got {count}")
        ValueError: count must be positive, got 0
        """
    )
    result = lookup_text(store, paste)
    top = result.matches[0]
    assert (top.file, top.line) == ("shop/cart.py", 9)
    assert any("innermost frame" in why for why in top.why)


def test_log_line_with_lazy_arguments(store: Store) -> None:
    file, line, values = best(
        store, "2024-05-01 10:00:00,123 - shop.cart - WARNING - Large order of 500 x apple"
    )
    assert (file, line) == ("shop/cart.py", 13)
    assert values == {"count": "500", "item": "apple"}


def test_a_reason_of_a_reasons_list_leads_to_its_variant(store: Store) -> None:
    result = lookup_text(store, "ValueError: Cannot check out: no shipping address")
    top = result.matches[0]
    assert top.variant is not None
    assert top.variant.reason == "no shipping address"
    assert top.variant.conditions == ["not cart.address"]


def test_a_truncated_message(store: Store) -> None:
    assert best(store, "Cannot check out: the cart exp…")[:2] == ("shop/cart.py", 22)


def test_nothing_matches_gives_the_nearest(store: Store) -> None:
    result = lookup_text(store, "Completely unrelated failure of the flux capacitor")
    assert result.matches == []


def test_raises_matched_by_class_alone_come_after_a_pinned_site() -> None:
    # SQLAlchemy 2.0.23 (the held-out case sqlalchemy-4): the warning whose template explains
    # the text scored 0.64, below two warnings of its class with a message made elsewhere
    # (0.65, from words of their guards). A guess never outranks a site the text pins.
    def match(line: int, score: float, guess: bool) -> Match:
        return Match(
            id=f"{line:016x}", project="orm", version="2.0", kind="warn", exception="SAWarning",
            message=None if guess else "relationship '{prop}' will copy column {column}",
            file="orm/relationships.py", line=line, function="f", url=None, score=score,
            values={} if guess else {"prop": "Episode.characters"}, confident=True, guess=guess,
        )  # fmt: skip

    best = {m.id: m for m in (match(1796, 0.65, True), match(3167, 0.6389, False))}
    _demote_guesses(best)
    ranked = sorted(best.values(), key=lambda m: -m.score)
    assert [m.line for m in ranked] == [3167, 1796]
    # With nothing of their class pinned, guesses keep their scores.
    alone = {m.id: m for m in (match(1796, 0.65, True), match(2241, 0.6, True))}
    other = match(700, 0.6, False)
    alone[other.id] = msgspec.structs.replace(other, exception="MaxRetryError")
    _demote_guesses(alone)
    assert sorted(m.score for m in alone.values()) == [0.6, 0.6, 0.65]


def test_a_class_named_with_its_package_is_looked_for_in_that_project(tmp_path: Path) -> None:
    # requests' `raise SSLError(e, request=request)` among urllib3's many `SSLError` raises:
    # a paste of `requests.exceptions.SSLError: ...` must reach requests' raise even when
    # more than a search's worth of other `SSLError` sites were indexed after it.
    alpha = {
        "alpha/__init__.py": "",
        "alpha/exceptions.py": "class SSLError(OSError):\n    pass\n",
        "alpha/adapters.py": """
            from alpha.exceptions import SSLError

            def send(request):
                try:
                    request.go()
                except OSError as e:
                    raise SSLError(e)
            """,
    }
    many = "\n".join(f"def f{i}(e):\n    raise SSLError(e)\n" for i in range(60))
    beta = {
        "beta/__init__.py": "",
        "beta/exceptions.py": "class SSLError(OSError):\n    pass\n",
        "beta/util.py": "from beta.exceptions import SSLError\n\n" + many,
    }
    db = open_store(tmp_path / "errdex.db")
    try:
        for name, files in (("alpha", alpha), ("beta", beta)):
            root = write_package(tmp_path / name, files)
            index_source(open_source(str(root), project=name, version="1.0"), db)
        result = lookup_text(
            db, "alpha.exceptions.SSLError: HTTPSConnectionPool(host='x', port=443): failed"
        )
    finally:
        db.close()
    assert [(m.project, m.file) for m in result.matches][:1] == [("alpha", "alpha/adapters.py")]


def test_values_in_the_message_do_not_hide_its_site(tmp_path: Path) -> None:
    # attrs' `No mandatory attributes allowed ... Attribute in question: %r`, pasted with a
    # repr whose words (`converter`, `validator`, `mappingproxy`) are the rarest of the paste
    # in the store, and held by no one text: the message's own words must still find it.
    alpha = {
        "alpha/__init__.py": "",
        "alpha/make.py": """
            def transform(attrs):
                for a in attrs:
                    if a.mandatory_after_default:
                        raise ValueError(
                            "No mandatory attributes allowed after an attribute with a "
                            "default value.  Attribute in question: %r" % (a,)
                        )

            def other(a):
                raise ValueError("mandatory attributes in question are not allowed: %r" % a)

            def more(a):
                raise TypeError("No mandatory attributes allowed with a default value %r" % a)
            """,
    }
    beta = {
        "beta/__init__.py": "",
        "beta/fields.py": """
            def a(x):
                raise ValueError(f"bad converter {x}")

            def b(x):
                raise ValueError(f"bad validator {x}")

            def c(x):
                raise ValueError(f"bad mappingproxy {x}")
            """,
    }
    paste = (
        "ValueError: No mandatory attributes allowed after an attribute with a default "
        "value.  Attribute in question: Attribute(name='y', validator=None, "
        "converter=None, metadata=mappingproxy({}))"
    )
    db = open_store(tmp_path / "errdex.db")
    try:
        for name, files in (("alpha", alpha), ("beta", beta)):
            root = write_package(tmp_path / name, files)
            index_source(open_source(str(root), project=name, version="1.0"), db)
        (evidence,) = parse_paste(paste).errors
        narrow = candidates(db, evidence, None, None)
        result = lookup_text(db, paste)
    finally:
        db.close()
    assert ("alpha/make.py", 5) in [(s.file, s.site.line) for s in narrow]
    assert [(m.file, m.line) for m in result.matches][:1] == [("alpha/make.py", 5)]
