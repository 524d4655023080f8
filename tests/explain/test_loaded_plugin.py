"""Code that only a setting's registered names load (a connector's package, imported by its
text when `connector` of `--transfer-config` names it): the page offers another name, or
the flag left out, saying that it turns that code off, after every other way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store
from selection_samples import LOADED


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("loaded"), "serve", LOADED)


def test_a_check_in_code_only_registered_names_load_offers_another_name(loaded: Store) -> None:
    page = page_with_message(loaded, "serve", "Pipe transfers do not support")
    # after the way out the check's own test gives (here the worker's argument)
    assert len(page.solutions) == 2
    solution = page.solutions[-1]
    assert solution.kind == "setting"
    assert solution.drops
    assert solution.text == (
        "Give `connector` of `--transfer-config` a value other than `PipeConnector` or "
        "`PipePullConnector`, or run with `--transfer-config` left out: this module is loaded "
        "only by the entries `ConnectorFactory.register_connector` makes for those names "
        "(serve/transfer/factory.py:25-30), looked up by that value, and only code they load "
        "imports it. This turns off what those names load. The other names it registers: "
        "`SharedConnector` and `DiskConnector`."
    )


def test_a_name_the_code_writes_itself_offers_nothing(loaded: Store) -> None:
    page = page_with_message(loaded, "serve", "Disk transfers need a path")
    assert not any("register_connector" in s.text for s in page.solutions)


def test_a_failed_call_in_that_code_is_fixed_first(loaded: Store) -> None:
    page = page_with_message(loaded, "serve", "Failed to register the tensor")
    assert page.solutions[0].text.startswith("Fix what the error's cause names")
    assert page.solutions[-1].text.startswith("Give `connector` of `--transfer-config`")
