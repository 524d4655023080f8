"""Another backend is offered only where its class takes all the site's backend's class
takes: the device it declares, the cache values, the head sizes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store
from stand_ins_samples import DEVICES


@pytest.fixture(scope="module")
def devices(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("devices"), "serve", DEVICES)


def test_a_backend_for_another_device_is_not_offered(devices: Store) -> None:
    page = page_with_message(devices, "serve", "Black attention does not support sinks")
    chosen = [s.text.split(". ")[0] for s in page.solutions if s.knob == "--attention-backend"]
    # HOPPER runs only on capability 9, BLACK on 10; PORTABLE inherits "any device"
    assert chosen == ["Choose another attention backend: `--attention-backend PORTABLE`"]


def test_no_backend_is_offered_where_none_takes_what_the_site_takes(devices: Store) -> None:
    page = page_with_message(devices, "serve", "Huge attention does not support sinks")
    # HOPPER and BLACK refuse capability 12, PORTABLE head size 80
    assert not any(s.knob == "--attention-backend" for s in page.solutions)
