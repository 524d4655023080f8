"""Newest-first order of version labels."""

from __future__ import annotations

import subprocess
import sys

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


def test_one_version_is_ordered_without_reading_its_label() -> None:
    """A first answer's store holds one version: packaging is not imported to order it."""
    script = (
        "import sys\n"
        "from errdex.store.ordering import newest_first\n"
        "assert newest_first([('main', '')], lambda v: v[0], lambda v: v[1]) == [('main', '')]\n"
        "assert newest_first([], str, str) == []\n"
        "print('packaging.version' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr
