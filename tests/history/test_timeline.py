"""Per error id: the versions that hold it, and what became of it (or what it was)."""

from __future__ import annotations

import pytest
from history_samples import CART_V1, CART_V11, LIMITS_V11, PAY_V1, PAY_V2, line_of

from errdex.errors import NotFoundError
from errdex.history import diff_versions, error_history, lineage, what_became, what_was
from errdex.history.pairing import Pairing
from errdex.store.base import Store, StoredSite


def id_of(store: Store, version: str, file: str, needle: str) -> str:
    """The id of the site in `file` of `version` whose template holds `needle`."""
    (site,) = [
        s
        for s in store.list_sites("shop", version, file)
        if s.site.message is not None and needle in s.site.message.text
    ]
    return site.id


def test_the_history_of_three_errors_across_the_tags(store: Store) -> None:
    empty = id_of(store, "v1.0", "shop/cart.py", "empty cart")
    card = id_of(store, "v1.0", "shop/pay.py", "card declined")
    count = id_of(store, "v1.0", "shop/cart.py", "must be positive")

    # The empty cart stayed in cart.py; v1.1 put a docstring and imports above it.
    assert [(e.version, e.file, e.line, e.status) for e in error_history(store, empty)] == [
        ("v1.0", "shop/cart.py", line_of(CART_V1, "empty cart"), "present"),
        ("v1.1", "shop/cart.py", line_of(CART_V11, "empty cart"), "present"),
        ("v2.0", "shop/cart.py", line_of(CART_V11, "empty cart"), "present"),
    ]
    # The declined card kept its id while v2.0 pushed it down pay.py.
    assert [(e.version, e.line) for e in error_history(store, card)] == [
        ("v1.0", line_of(PAY_V1, "raise PaymentError")),
        ("v1.1", line_of(PAY_V1, "raise PaymentError")),
        ("v2.0", line_of(PAY_V2, "raise PaymentError")),
    ]
    # The old count message lives in v1.0 only; its lineage goes on under the new id.
    assert [e.version for e in error_history(store, count)] == ["v1.0"]
    reworded = id_of(store, "v1.1", "shop/cart.py", "positive number")
    assert [(e.version, e.id, e.status) for e in lineage(store, count)] == [
        ("v2.0", reworded, "reworded"),
        ("v1.1", reworded, "reworded"),
        ("v1.0", count, "present"),
    ]
    assert [(e.version, e.id, e.status) for e in lineage(store, reworded)] == [
        ("v2.0", reworded, "present"),
        ("v1.1", reworded, "present"),
        ("v1.0", count, "reworded"),
    ]


def test_a_reworded_error_becomes_its_new_id(store: Store) -> None:
    old = id_of(store, "v1.0", "shop/cart.py", "must be positive")
    new = id_of(store, "v1.1", "shop/cart.py", "positive number")
    fate = what_became(store, old)
    assert (fate.status, fate.id, fate.version, fate.last_version) == (
        "reworded",
        new,
        "v2.0",
        "v2.0",
    )
    assert (fate.file, fate.line) == ("shop/cart.py", line_of(CART_V11, "positive number"))
    (step,) = fate.steps
    assert (step.old_version, step.new_version) == ("v1.0", "v1.1")
    assert step.old_template == "count must be positive, got {count}"
    assert step.new_template == "count must be a positive number, got {count}"
    came = what_was(store, new)
    assert came is not None and (came.status, came.old_id) == ("reworded", old)


def test_a_removed_error_names_its_last_version(store: Store) -> None:
    blocked = id_of(store, "v1.0", "shop/cart.py", "is blocked")
    fate = what_became(store, blocked)
    assert (fate.status, fate.id, fate.last_version, fate.version) == (
        "removed",
        None,
        "v1.0",
        "v2.0",
    )
    # On a page: present in v1.0, then "removed" in v1.1, pointing at where it last was.
    assert [(e.version, e.status, e.line) for e in lineage(store, blocked)] == [
        ("v1.1", "removed", line_of(CART_V1, "is blocked")),
        ("v1.0", "present", line_of(CART_V1, "is blocked")),
    ]


def test_a_moved_error_follows_its_template_to_another_file(store: Store) -> None:
    old = id_of(store, "v1.0", "shop/cart.py", "over the limit")
    new = id_of(store, "v1.1", "shop/limits.py", "over the limit")
    fate = what_became(store, old)
    assert (fate.status, fate.id) == ("moved", new)
    assert (fate.file, fate.line) == ("shop/limits.py", line_of(LIMITS_V11, "over the limit"))


def test_errors_that_stay_or_are_new(store: Store) -> None:
    empty = id_of(store, "v1.0", "shop/cart.py", "empty cart")
    fate = what_became(store, empty)
    assert (fate.status, fate.id, fate.steps) == ("present", empty, [])
    coupon = id_of(store, "v1.1", "shop/cart.py", "unknown coupon")
    assert what_was(store, coupon) is None
    assert what_was(store, empty) is None  # present since the first version


def test_timeline_agrees_with_the_diff(store: Store) -> None:
    diff = diff_versions(store, "shop", "v1.0", "v1.1")
    for entry in [*diff.reworded, *diff.moved]:
        assert entry.old is not None and entry.new is not None
        assert what_became(store, entry.old.id).id == entry.new.id
        step = what_was(store, entry.new.id)
        assert step is not None and step.old_id == entry.old.id


def test_an_unknown_id(store: Store) -> None:
    with pytest.raises(NotFoundError):
        what_became(store, "0123456789abcdef")
    with pytest.raises(NotFoundError):
        error_history(store, "0123456789abcdef")


def test_lineage_and_the_newest_share_the_links_they_find(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A lookup asks both of one error: the pairing of two releases is worked out once.
    from errdex.history import timeline

    count = id_of(store, "v1.0", "shop/cart.py", "must be positive")
    sites = store.get_error(count)
    labels = timeline.version_labels(store, "shop")
    pairings: list[tuple[str, str, str]] = []
    nearby = timeline._nearby

    def pairing(store: Store, site: StoredSite, old: str, new: str) -> Pairing:
        pairings.append((site.id, old, new))
        return nearby(store, site, old, new)

    monkeypatch.setattr(timeline, "_nearby", pairing)
    alone = (lineage(store, count), timeline.newest_of(store, sites, labels))
    asked = list(pairings)
    pairings.clear()
    links: timeline.Links = {}
    shared = (lineage(store, count, links=links), timeline.newest_of(store, sites, labels, links))

    assert shared == alone
    assert shared[1].status == "reworded"
    assert asked == [*pairings, *pairings]  # each asked by both, alone
    assert len(pairings) == len(set(pairings)) >= 1
