"""Lookup picks the version: by the traceback's line numbers, else by the wording, else the
newest; `--version` overrides. A match in an old version says what the error is now."""

from __future__ import annotations

from typing import Any

from history_samples import CART_V1, CART_V11, PAY_V1, PAY_V2, Indexed, line_of


def traceback(file: str, line: int, function: str, last: str) -> str:
    """A traceback as an installed `shop` prints it, ending in `last`."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/main.py", line 8, in <module>\n'
        "    main()\n"
        f'  File "/srv/app/.venv/lib/python3.11/site-packages/{file}", line {line}, in {function}\n'
        "    raise\n"
        f"{last}\n"
    )


def lookup(indexed: Indexed, text: str, *options: str) -> list[dict[str, Any]]:
    found = indexed.json("lookup", "-", "--no-auto-index", *options, stdin=text)
    matches: list[dict[str, Any]] = found["matches"]
    assert matches, found
    return matches


EMPTY = "RuntimeError: cannot check out an empty cart"


def test_a_traceback_from_an_older_tag_lands_on_that_tag(indexed: Indexed) -> None:
    line = line_of(CART_V1, "empty cart")
    best = lookup(indexed, traceback("shop/cart.py", line, "checkout", EMPTY))[0]
    assert (best["version"], best["file"], best["line"]) == ("v1.0", "shop/cart.py", line)
    assert any("version v1.0: the innermost frame is at its line" in why for why in best["why"])
    # The same error is in the newest version, under the same id.
    assert best["newest"] == {"version": "v2.0", "id": best["id"], "status": "present"}


def test_lines_two_tags_share_pick_the_newer_of_them(indexed: Indexed) -> None:
    # pay.py is the same in v1.0 and v1.1; v2.0 moved the raise down.
    last = "shop.pay.PaymentError: card declined: balance 3 is below 5"
    old = lookup(indexed, traceback("shop/pay.py", line_of(PAY_V1, "raise Pay"), "charge", last))
    assert (old[0]["version"], old[0]["newest"]["status"]) == ("v1.1", "present")
    new = lookup(indexed, traceback("shop/pay.py", line_of(PAY_V2, "raise Pay"), "charge", last))
    assert (new[0]["version"], new[0]["newest"]) == ("v2.0", None)
    assert new[0]["line"] == line_of(PAY_V2, "raise Pay")


def test_without_frames_the_newest_version(indexed: Indexed) -> None:
    best = lookup(indexed, EMPTY)[0]
    assert (best["version"], best["line"], best["newest"]) == (
        "v2.0",
        line_of(CART_V11, "empty cart"),
        None,
    )


def test_version_overrides_the_frames(indexed: Indexed) -> None:
    text = traceback("shop/cart.py", line_of(CART_V1, "empty cart"), "checkout", EMPTY)
    best = lookup(indexed, text, "--version", "v1.1", "--project", "shop")[0]
    assert (best["version"], best["line"]) == ("v1.1", line_of(CART_V11, "empty cart"))
    assert best["newest"]["status"] == "present"


def test_old_wording_lands_on_the_old_version_and_says_what_it_became(indexed: Indexed) -> None:
    (best,) = lookup(indexed, "ValueError: count must be positive, got -1")
    assert (best["version"], best["message"]) == ("v1.0", "count must be positive, got {count}")
    assert best["values"] == {"count": "-1"}
    newest = best["newest"]
    assert (newest["version"], newest["status"]) == ("v2.0", "reworded")
    (now,) = lookup(indexed, "ValueError: count must be a positive number, got -1")
    assert now["id"] == newest["id"] and now["version"] == "v2.0" and now["newest"] is None


def test_a_removed_error_says_when_it_went(indexed: Indexed) -> None:
    best = lookup(indexed, "KeyError: \"item 'apple' is blocked\"")[0]
    assert best["version"] == "v1.0"
    assert best["newest"] == {
        "version": "v2.0",
        "id": None,
        "status": "removed",
        "removed_after": "v1.0",
    }


def test_a_moved_error_is_answered_once_at_its_newest_place(indexed: Indexed) -> None:
    # Both the v1.0 id (cart.py) and the v1.1 id (limits.py) explain the message as well:
    # they are one error, so one answer, the newest.
    matches = lookup(indexed, "ValueError: total 30 is over the limit of 20")
    assert [(m["version"], m["file"], m["newest"]) for m in matches] == [
        ("v2.0", "shop/limits.py", None)
    ]


def test_the_terminal_says_what_became_of_an_old_error(indexed: Indexed) -> None:
    text = "ValueError: count must be positive, got -1"
    code, out, err = indexed.run("lookup", "-", "--no-auto-index", stdin=text)
    assert code == 0, err
    newest = lookup(indexed, text)[0]["newest"]
    flat = " ".join(out.split())
    assert f"In the newest version, v2.0, it was reworded: errdex show {newest['id']}" in flat
