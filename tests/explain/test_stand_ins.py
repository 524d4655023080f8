"""Another backend is offered only where its class runs on the device the site's backend's
class runs on and takes its head sizes, and takes some of the values of a setting the user
picks (named with them where it takes only some), among them the value the check fails on,
and does not make the same check."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store
from stand_ins_samples import DEVICES, PACKED, VALUES


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
    # nothing else either: the check is on the implementation's argument (the page is
    # built, and says so)
    assert page.solutions == []
    assert (
        "`HugeImpl.forward` (serve/backends/huge.py:20) raises `NotImplementedError` when all "
        "of these hold: `sinks` is not None" in page.what_it_means
    )


@pytest.fixture(scope="module")
def values(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("values"), "serve", VALUES)


def _chosen(store: Store, message: str) -> list[str]:
    page = page_with_message(store, "serve", message)
    return [s.text.split(". ")[0] for s in page.solutions if s.knob == "--attention-backend"]


def test_a_backend_taking_some_of_the_values_is_offered_for_them(values: Store) -> None:
    # NARROW takes only bfloat16 models and the base's caches: of WIDE's, those it names
    assert _chosen(values, "Wide attention does not support sinks") == [
        "Choose another attention backend: `--attention-backend CALLED` (or `MIRROR`), or "
        "`--attention-backend NARROW` for `--dtype` `bfloat16` and `--kv-cache-dtype` "
        "`auto`, `float16` or `bfloat16` only"
    ]


def test_a_backend_not_known_to_take_the_value_the_check_fails_on_is_not_offered(
    values: Store,
) -> None:
    # the check fails on an fp8 cache: NARROW takes none, CALLED decides fp8 by a call
    assert _chosen(values, "Wide attention needs a newer device for an fp8 cache") == [
        "Choose another attention backend: `--attention-backend MIRROR`"
    ]


def test_a_backend_making_the_same_check_is_not_offered(values: Store) -> None:
    # MIRROR refuses an output scale as WIDE does (its test holds wherever WIDE's does)
    chosen = _chosen(values, "Wide attention does not fuse output quantization")
    assert len(chosen) == 1 and "MIRROR" not in chosen[0] and "CALLED" in chosen[0]


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("packed"), "serve", PACKED)


def test_a_backend_is_offered_for_what_it_takes_of_a_deciding_backends_list(
    packed: Store,
) -> None:
    # PACKED decides its cache by calls among the four it lists: WIDE is offered for the
    # three it takes, CALLED (deciding by calls within its list too) not with the fourth
    assert _chosen(packed, "Packed attention misreads a small head") == [
        "Choose another attention backend: "
        "`--attention-backend CALLED` not with `--kv-cache-dtype` `packed`, or "
        "`--attention-backend WIDE` for `--kv-cache-dtype` `auto`, `float16` or `bfloat16` only"
    ]


def test_the_fix_keeps_the_first_backend_with_a_value_it_does_not_refuse(
    packed: Store,
) -> None:
    # CALLED, first of the others, refuses a packed cache the user may have but takes the
    # rest of PACKED's list: the fix keeps it, with the first of those, not WIDE (a
    # backend first in the registry may take what the others lack)
    page = page_with_message(packed, "serve", "Packed attention misreads a small head")
    assert page.example_fix is not None
    assert page.example_fix.after.endswith("--attention-backend CALLED --kv-cache-dtype auto")
