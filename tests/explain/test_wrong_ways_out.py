"""Ways out that are no way out: an empty value for a parameter whose default is a
non-empty literal (the code keeps it for later code that matches its values), leaving out
a deprecated argument whose message names the replacement, and installing a package the
file already imports when what failed is one of its submodules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

SHOP = {
    "shop/__init__.py": "",
    "shop/session.py": """
        MODES = ("savepoint", "control", "rollback")


        class Session:
            def __init__(self, join_mode="savepoint", retries=3, label=None):
                if join_mode and join_mode not in MODES:
                    raise ValueError(f"invalid selection for join_mode: {join_mode!r}")
                if label and label not in MODES:
                    raise ValueError(f"invalid label: {label!r}")
                self.join_mode = join_mode
                self.label = label
        """,
    "shop/client.py": """
        import warnings


        class Client:
            def __init__(self, app=None, verify=None):
                if app:
                    warnings.warn(
                        "The 'app' shortcut is now deprecated. Use the explicit style "
                        "'transport=AppTransport(app=...)' instead.",
                        DeprecationWarning,
                    )
                if verify:
                    warnings.warn("verify is ignored here", UserWarning)
                self.app = app
        """,
    "shop/kernel.py": """
        import fastkern
        import fastkern.core as core

        try:
            import fastkern.utils.next_helpers as next_utils
        except ModuleNotFoundError:
            next_utils = None

        try:
            import turbo.ops as turbo_ops
        except ImportError:
            turbo_ops = None


        def run_next(x):
            if next_utils is None:
                raise RuntimeError("next-gen kernels are unavailable")
            return next_utils.run(x)


        def run_next_advised(x):
            if next_utils is None:
                raise RuntimeError("Next FP8 requires a fastkern build with next_helpers")
            return next_utils.run(x)


        def run_turbo(x):
            if turbo_ops is None:
                raise RuntimeError("turbo kernels are unavailable")
            return turbo_ops.run(x)
        """,
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shop"), "shop", SHOP)


def page_of(store: Store, message: str) -> Page:
    return page_with_message(store, "shop", message)


def texts(page: Page) -> list[str]:
    return [s.text for s in page.solutions]


def test_no_empty_value_for_a_parameter_with_a_non_empty_default(shop: Store) -> None:
    page = page_of(shop, "invalid selection for join_mode")
    assert not any("empty (false) value" in t for t in texts(page)), texts(page)
    fix = page.example_fix
    assert fix is None or "join_mode=None" not in fix.after


def test_leaving_out_stays_for_a_parameter_whose_default_is_none(shop: Store) -> None:
    # a value of the closed set first, then leaving it out (its default, None, is empty)
    page = page_of(shop, "invalid label")
    assert texts(page)[0] == (
        "Pass the argument `label` of `Session` as one of `'savepoint'`, `'control'`, "
        "`'rollback'`, or leave it out (it is `None` by default)."
    )


def test_a_deprecation_puts_the_named_replacement_first_and_keeps_the_argument(
    shop: Store,
) -> None:
    page = page_of(shop, "The 'app' shortcut is now deprecated")
    assert page.solutions, page.what_it_means
    assert "transport=AppTransport(app=...)" in page.solutions[0].text
    assert not any("leave it out" in t or "empty (false)" in t for t in texts(page))
    fix = page.example_fix
    assert fix is None or "Client()" not in fix.after


def test_another_warning_still_offers_leaving_the_argument_out(shop: Store) -> None:
    page = page_of(shop, "verify is ignored here")
    assert any("empty (false) value for the argument `verify`" in t for t in texts(page))


def test_a_missing_submodule_of_an_imported_package_is_no_package_to_install(
    shop: Store,
) -> None:
    page = page_of(shop, "next-gen kernels are unavailable")
    assert not any(t.startswith("Install the package") for t in texts(page)), texts(page)
    assert page.solutions[0].text.startswith(
        "Install a version or build of `fastkern` that ships `fastkern.utils.next_helpers`"
    )


def test_a_missing_submodule_with_advice_defers_to_the_message(shop: Store) -> None:
    page = page_of(shop, "Next FP8 requires a fastkern build")
    assert not any(t.startswith("Install the package") for t in texts(page)), texts(page)
    assert "a fastkern build with next_helpers" in page.solutions[0].text


def test_a_package_the_file_does_not_import_is_still_to_install(shop: Store) -> None:
    page = page_of(shop, "turbo kernels are unavailable")
    assert page.solutions[0].text.startswith("Install the package that provides the module `turbo`")
