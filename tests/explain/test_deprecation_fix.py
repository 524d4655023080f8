"""A deprecation whose message gives the replacement as a keyword calling a public name
with the deprecated argument in it (`transport=AppTransport(app=...)`): the fix moves the
user's value there, each name imported by its public path; no fix where the name has no
public path or `...` stands for something else."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

DEP = {
    "dep/__init__.py": """
        from dep._client import Client
        from dep._transports import AppTransport
        """,
    "dep/_transports.py": """
        class AppTransport:
            def __init__(self, app):
                self.app = app

            def handle(self, request):
                if request is None:
                    raise ValueError("no request to handle")
                return self.app(request)


        class _HiddenTransport:
            def handle(self, request):
                if request is None:
                    raise ValueError("no hidden request")
        """,
    "dep/types.py": """
        def conlist(item_type, unique_items=None):
            if unique_items is not None:
                raise TypeError("`unique_items` is removed, use `Set` instead")
            return list[item_type]
        """,
    "dep/_client.py": """
        import warnings


        class Client:
            def __init__(self, app=None, hook=None, mount=None, transport=None):
                if app:
                    warnings.warn(
                        "The 'app' shortcut is now deprecated. Use the explicit style "
                        "'transport=AppTransport(app=...)' instead.",
                        DeprecationWarning,
                    )
                if hook:
                    warnings.warn(
                        "The 'hook' argument is deprecated. Use "
                        "'transport=_HiddenTransport(hook=...)' instead.",
                        DeprecationWarning,
                    )
                if mount:
                    warnings.warn(
                        "The 'mount' argument is deprecated. Use "
                        "'transport=AppTransport(app=...)' instead.",
                        DeprecationWarning,
                    )
                self.transport = transport
        """,
}


@pytest.fixture(scope="module")
def dep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("dep"), "dep", DEP)


def test_the_replacement_fix_moves_the_value_and_imports_the_public_name(dep: Store) -> None:
    page = page_with_message(dep, "dep", "The 'app' shortcut is now deprecated")
    fix = page.example_fix
    assert fix is not None, page.solutions
    assert fix.before == "from dep import Client\nClient(app=APP)"
    assert (
        fix.after == "from dep import Client, AppTransport\nClient(transport=AppTransport(app=APP))"
    )
    assert "APP" in fix.note


def test_no_fix_for_a_replacement_no_public_module_reaches(dep: Store) -> None:
    page = page_with_message(dep, "dep", "The 'hook' argument is deprecated")
    assert page.example_fix is None or "_HiddenTransport" not in page.example_fix.after


def test_no_fix_where_the_ellipsis_stands_for_another_argument(dep: Store) -> None:
    # `mount` is not `app`: what goes in `app=...` is not the value the user gave
    page = page_with_message(dep, "dep", "The 'mount' argument is deprecated")
    assert page.example_fix is None or "AppTransport" not in page.example_fix.after


def test_the_public_path_of_a_class_is_read_from_its_sites(dep: Store) -> None:
    version = dep.list_sites(project="dep")[0].version_id
    assert dep.public_path_of(version, "AppTransport") == "dep.AppTransport"
    assert dep.public_path_of(version, "_HiddenTransport") is None
    assert dep.public_path_of(version, "Nowhere") is None


def test_a_removed_argument_gets_the_replacement_first_not_leave_it_out(dep: Store) -> None:
    # the message's replacement keeps what the argument asked for (unique items); leaving
    # the argument out gives it up
    page = page_with_message(dep, "dep", "`unique_items` is removed")
    texts = [s.text for s in page.solutions]
    assert texts == ["Do what the message says: “use `Set` instead”"]
