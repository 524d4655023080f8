"""A version's pin (what its link points at, how that is known) is stored with it, on both
backends; a version written without one reads as having none."""

from __future__ import annotations

import msgspec
from store_samples import FILES, SITES, version_info

from errdex.sources.base import Pin
from errdex.store import Store

PIN = Pin(kind="tag", ref="v1.0", basis="guessed from the version", guessed=True)


def test_a_versions_pin_is_read_back(store: Store) -> None:
    info = msgspec.structs.replace(
        version_info("1.0"),
        link_template="https://github.com/acme/demo/blob/v1.0/{path}#L{line}",
        pin=PIN,
    )
    store.write_version(info, SITES, FILES)
    store.write_version(version_info("2.0", revision="b" * 40), SITES, FILES)
    by_label = {v.label: v for v in store.versions("demo")}
    assert by_label["1.0"].pin == PIN
    assert by_label["2.0"].pin is None
