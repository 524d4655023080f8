"""Answers kept across pages (`explain/across_pages.py`): made once per key, dropped when
full or under another scope."""

from __future__ import annotations

from errdex.explain.across_pages import AcrossPages


def test_an_answer_is_made_once_per_key() -> None:
    kept: AcrossPages[bool] = AcrossPages(4)
    made: list[str] = []

    def make(key: str) -> bool:
        made.append(key)
        return False  # a false answer is kept too

    assert kept.kept("a", lambda: make("a")) is False
    assert kept.kept("a", lambda: make("a")) is False
    assert kept.kept("b", lambda: make("b")) is False
    assert made == ["a", "b"]


def test_a_new_key_finding_it_full_drops_the_answers() -> None:
    kept: AcrossPages[int] = AcrossPages(2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("b", 3)  # a known key: nothing dropped
    assert (kept.get("a"), kept.get("b")) == (1, 3)
    kept.put("c", 4)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (None, None, 4)


def test_another_scope_drops_what_the_old_one_read() -> None:
    kept: AcrossPages[str] = AcrossPages(8)
    kept.put("versions", "old", scope="generation 1")
    assert kept.get("versions", scope="generation 1") == "old"
    assert kept.get("versions", scope="generation 2") is None
    kept.put("projects", "new", scope="generation 2")
    assert kept.get("versions", scope="generation 1") is None
    assert kept.get("projects", scope="generation 2") == "new"
