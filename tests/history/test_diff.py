"""`errdex diff PROJECT OLD NEW`: the errors a release added, removed, reworded and moved."""

from __future__ import annotations

from typing import Any

from history_samples import CART_V1, CART_V11, LIMITS_V11, Indexed, line_of

from errdex.history import diff_versions
from errdex.store.base import Store


def entry(entries: list[dict[str, Any]]) -> dict[str, Any]:
    assert len(entries) == 1, entries
    return entries[0]


def test_counts_between_two_tags(indexed: Indexed) -> None:
    diff = indexed.json("diff", "shop", "v1.0", "v1.1")
    assert (diff["project"], diff["old"], diff["new"]) == ("shop", "v1.0", "v1.1")
    assert diff["counts"] == {
        "added": 1,
        "removed": 1,
        "reworded": 1,
        "moved": 1,
        "unchanged": 2,  # the empty cart and the declined card
    }
    assert list(diff) == [
        "project",
        "old",
        "new",
        "counts",
        "added",
        "removed",
        "reworded",
        "moved",
    ]


def test_a_reworded_error_shows_both_templates_side_by_side(indexed: Indexed) -> None:
    reworded = entry(indexed.json("diff", "shop", "v1.0", "v1.1")["reworded"])
    old, new = reworded["old"], reworded["new"]
    assert old["template"] == "count must be positive, got {count}"
    assert new["template"] == "count must be a positive number, got {count}"
    assert old["id"] != new["id"]
    assert (old["exception"], new["exception"]) == ("ValueError", "ValueError")
    assert (old["file"], old["line"]) == ("shop/cart.py", line_of(CART_V1, "must be positive"))
    assert (new["file"], new["line"]) == ("shop/cart.py", line_of(CART_V11, "positive number"))
    assert old["function"] == new["function"] == "add"
    assert 0.6 <= reworded["similarity"] < 1
    assert reworded["kind"] == "raise"


def test_a_moved_error_keeps_its_template_in_another_function_and_file(indexed: Indexed) -> None:
    moved = entry(indexed.json("diff", "shop", "v1.0", "v1.1")["moved"])
    old, new = moved["old"], moved["new"]
    assert (
        old["template"]
        == new["template"]
        == ("total {cart.total} is over the limit of {cart.limit}")
    )
    assert (old["file"], old["line"], old["function"]) == (
        "shop/cart.py",
        line_of(CART_V1, "over the limit"),
        "checkout",
    )
    assert (new["file"], new["line"], new["function"]) == (
        "shop/limits.py",
        line_of(LIMITS_V11, "over the limit"),
        "check_limit",
    )
    assert moved["change"] == ["file", "function"]


def test_added_and_removed_errors(indexed: Indexed) -> None:
    diff = indexed.json("diff", "shop", "v1.0", "v1.1")
    added, removed = entry(diff["added"]), entry(diff["removed"])
    assert "old" not in added and "new" not in removed
    assert added["new"]["template"] == "unknown coupon {cart.coupon!r}"
    assert added["new"]["line"] == line_of(CART_V11, "unknown coupon")
    assert removed["old"]["template"] == "item {item!r} is blocked"
    assert removed["old"]["exception"] == "KeyError"
    assert removed["old"]["line"] == line_of(CART_V1, "is blocked")


def test_lines_that_only_moved_down_are_no_change(indexed: Indexed) -> None:
    # v2.0 put a helper above `charge`: the declined card sits lower, with the same id.
    diff = indexed.json("diff", "shop", "v1.1", "v2.0")
    assert diff["counts"] == {"added": 0, "removed": 0, "reworded": 0, "moved": 0, "unchanged": 5}


def test_across_two_releases_at_once(store: Store) -> None:
    diff = diff_versions(store, "shop", "v1.0", "v2.0")
    assert diff.counts == {"added": 1, "removed": 1, "reworded": 1, "moved": 1, "unchanged": 2}
    backwards = diff_versions(store, "shop", "v2.0", "v1.0")
    assert backwards.counts == {"added": 1, "removed": 1, "reworded": 1, "moved": 1, "unchanged": 2}
    assert backwards.added[0].where.template == "item {item!r} is blocked"


def test_markdown_for_release_notes(indexed: Indexed) -> None:
    code, out, err = indexed.run("diff", "shop", "v1.0", "v1.1", "--markdown")
    assert code == 0, err
    assert out.startswith("## Errors in shop v1.1 (since v1.0)\n")
    assert "| 1 | 1 | 1 | 1 | 2 |" in out
    assert "### Reworded (1)" in out
    assert "  - before: `count must be positive, got {count}`" in out
    assert "  - after: `count must be a positive number, got {count}`" in out
    assert "### Added (1)" in out and "`unknown coupon {cart.coupon!r}`" in out
    assert "### Removed (1)" in out and "(last in v1.0)" in out
    was, now = line_of(CART_V1, "over the limit"), line_of(LIMITS_V11, "over the limit")
    assert f"from `shop/cart.py:{was}` in `checkout` to `shop/limits.py:{now}`" in out


def test_the_terminal_form_leads_with_the_counts(indexed: Indexed) -> None:
    code, out, _ = indexed.run("diff", "shop", "v1.0", "v1.1")
    assert code == 0
    first, *rest = out.splitlines()
    assert first == "shop v1.0 → v1.1: 1 added, 1 removed, 1 reworded, 1 moved, 2 unchanged"
    assert any("before: count must be positive, got {count}" in line for line in rest)


def test_unknown_project_or_version_exits_1(indexed: Indexed) -> None:
    code, _, err = indexed.run("diff", "shop", "v1.0", "v9.9")
    assert code == 1
    assert "v9.9" in err and "v1.0" in err  # says which versions there are
    code, _, err = indexed.run("diff", "nope", "v1.0", "v1.1")
    assert code == 1
    assert "nope" in err


def test_json_and_markdown_together_are_refused(indexed: Indexed) -> None:
    code, _, _ = indexed.run("diff", "shop", "v1.0", "v1.1", "--json", "--markdown")
    assert code == 2
