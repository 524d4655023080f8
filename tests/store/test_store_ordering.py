"""Newest-first order of version labels."""

from __future__ import annotations

from errdex.store.ordering import newest_first, utc_date


def order(*versions: tuple[str, str]) -> list[str]:
    ordered = newest_first(list(versions), lambda v: v[0], lambda v: v[1])
    return [label for label, _ in ordered]


def test_release_labels_sort_as_versions_not_text() -> None:
    assert order(("1.9", "2024-01"), ("1.10", "2024-02"), ("1.10rc1", "2024-01"), ("v2.0", "")) == [
        "v2.0",
        "1.10",
        "1.10rc1",
        "1.9",
    ]


def test_other_labels_sort_by_date_among_releases() -> None:
    assert order(
        ("1.0", "2024-01-01"),
        ("main", "2024-09-01"),
        ("2.0", "2024-06-01"),
        ("abc1234", "2024-03-01"),
    ) == ["main", "2.0", "abc1234", "1.0"]


def test_dates_compare_in_utc() -> None:
    assert utc_date("2024-05-01T12:00:00+02:00", "x") == "2024-05-01T10:00:00+00:00"
    assert utc_date(None, "2024-01-01T00:00:00+00:00") == "2024-01-01T00:00:00+00:00"
    assert utc_date("yesterday", "fallback") == "fallback"
