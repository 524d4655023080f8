"""Each solution that changes something exact carries an example fix in the form the user
runs it: the Python call with the keyword (imported by its public path, the user's own
value named or taken from their paste), the install command the message quotes, the
environment variable it names. Whatever explainer found the solution, the fix is drawn
from its `change`."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from errdex.answers import search_catalog
from errdex.explain import build_page
from errdex.explain.advice import message_advice
from errdex.explain.fix_forms import change_fix
from errdex.explain.page import Change, Page, Solution, VersionEntry
from errdex.explain.upgrades import upgrade_solutions
from errdex.render.page_terminal import page_view
from errdex.store import Store
from samples import indexed_store, write_package

NET = {
    "pyproject.toml": """
        [project]
        name = "net"
        version = "1.0"
        """,
    "net/__init__.py": """
        from ._client import Client, Pool
        from ._screen import Screen
        from .render import *
        """,
    "net/_client.py": """
        class Client:
            def __init__(self, proxy=None, proxies=None, http2=False):
                if proxy is not None and proxies is not None:
                    raise ValueError("Use either proxy or proxies, not both.")
                if http2:
                    try:
                        import h2
                    except ImportError:
                        raise ImportError(
                            "h2 is missing. Install it with `pip install net[http2]`."
                        ) from None

            def send(self, request, *, retries=0, mode="fast"):
                if mode not in ("fast", "slow"):
                    raise ValueError(f"unknown mode {mode!r}")
                if retries > 5:
                    raise ValueError("too many retries")

            def show(self, json=None, *, data=None):
                if json is not None and not isinstance(json, str):
                    raise TypeError(f"json must be str. Did you mean show(data={json!r}) ?")


        class Pool:
            def __init__(self, size, timeout=None, *, name):
                self.timeout = timeout

            def acquire(self):
                if self.timeout is not None:
                    raise ValueError("pool timeouts are not supported")
        """,
    "net/_screen.py": """
        class Screen:
            def __init__(self):
                self._alt = False

            def set_alt(self, enable=True):
                self._alt = enable

            def update(self, lines):
                if not self._alt:
                    raise ValueError("the alt screen must be on to update")
        """,
    "net/render.py": """
        __all__ = ["render"]


        def render(text, *args, width=None):
            if width is None:
                raise ValueError("render needs a width")
            if args:
                raise TypeError("render takes one positional argument")
        """,
    "net/_internal.py": """
        def _helper(size):
            if size is None:
                raise ValueError("no size")
        """,
}


@pytest.fixture(scope="module")
def net(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    store = indexed_store(tmp_path_factory.mktemp("net"), "net", {"1.0": NET})
    try:
        yield store
    finally:
        store.close()


def page_of(store: Store, message: str) -> Page:
    (site,) = [
        s
        for s in store.list_sites("net")
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    return build_page(store, site.id)


def first_input(page: Page) -> Solution:
    return next(s for s in page.solutions if s.kind == "input")


def test_a_keyword_of_a_constructor_imported_by_its_public_path(net: Store) -> None:
    page = page_of(net, "Use either proxy")
    solution = first_input(page)
    # `proxy` is None by default: the keyword is left out
    # the "before" gives `proxies` too: without it, the check is not reached
    assert solution.change == Change(
        form="call",
        target="net.Client",
        argument="proxy",
        before="PROXY",
        after=None,
        required=("proxies=PROXIES",),
    )
    assert solution.fix is not None
    assert solution.fix.before == "from net import Client\nClient(proxies=PROXIES, proxy=PROXY)"
    assert solution.fix.after == "from net import Client\nClient(proxies=PROXIES)"
    assert "`PROXIES`, `PROXY` stand for your own values" in (solution.fix.note or "")
    assert page.example_fix == solution.fix


def test_a_method_on_the_users_object_with_the_accepted_value(net: Store) -> None:
    fix = first_input(page_of(net, "unknown mode")).fix
    assert fix is not None
    assert (fix.before, fix.after) == (
        "client.send(request=REQUEST, mode=MODE)",
        "client.send(request=REQUEST, mode='fast')",
    )
    assert "`client` is your `Client` object (`net.Client`)" in (fix.note or "")
    assert fix.fills == {"MODE": "{mode!r}"}


def test_a_bound_is_passed_as_the_bound_itself(net: Store) -> None:
    fix = first_input(page_of(net, "too many retries")).fix
    assert fix is not None
    assert fix.after == "client.send(request=REQUEST, retries=5)"
    assert "`REQUEST`, `RETRIES` stand for your own values" in (fix.note or "")


def test_the_constructor_arguments_a_call_must_give_are_named(net: Store) -> None:
    fix = first_input(page_of(net, "pool timeouts")).fix
    assert fix is not None
    # the check is in `acquire`: called on the pool in both lines, so that "before" fails
    assert fix.before == (
        "from net import Pool\npool = Pool(size=SIZE, name=NAME, timeout=TIMEOUT)\npool.acquire()"
    )
    assert fix.after == "from net import Pool\npool = Pool(size=SIZE, name=NAME)\npool.acquire()"


def test_a_function_re_exported_by_a_star_import(net: Store) -> None:
    fix = first_input(page_of(net, "render needs a width")).fix
    assert fix is not None
    assert fix.before == "from net import render\nrender(text=TEXT)"
    assert fix.after == "from net import render\nrender(text=TEXT, width=WIDTH)"


def test_no_keyword_fix_for_star_arguments_or_private_functions(net: Store) -> None:
    for message in ("render takes one positional", "no size"):
        page = page_of(net, message)
        assert all(s.change is None and s.fix is None for s in page.solutions), message


def test_the_install_command_the_message_quotes(net: Store) -> None:
    page = page_of(net, "h2 is missing")
    install = next(s for s in page.solutions if s.change and s.change.form == "install")
    assert install.fix is not None
    assert install.fix.before == ""
    assert install.fix.after == "pip install 'net[http2]'"


def test_the_users_value_from_their_paste_fills_the_fix(net: Store) -> None:
    answer = search_catalog(net, "ValueError: unknown mode 'quick'", pages=True)
    assert answer.page is not None
    fix = answer.page.example_fix
    assert fix is not None
    assert fix.before == "client.send(request=REQUEST, mode='quick')"
    assert fix.after == "client.send(request=REQUEST, mode='fast')"


def test_the_call_the_message_suggests_moves_the_value_to_its_keyword(net: Store) -> None:
    def suggested(page: Page) -> Solution:
        return next(s for s in page.solutions if "as the message suggests" in s.text)

    fix = suggested(page_of(net, "json must be str")).fix
    assert fix is not None
    assert (fix.before, fix.after) == ("client.show(json=JSON)", "client.show(data=JSON)")
    answer = search_catalog(
        net, "TypeError: json must be str. Did you mean show(data={'a': 1}) ?", pages=True
    )
    assert answer.page is not None
    fix = suggested(answer.page).fix
    assert fix is not None
    assert (fix.before, fix.after) == ("client.show(json={'a': 1})", "client.show(data={'a': 1})")


def test_a_package_the_message_names_in_quotes_is_installed_with_pip() -> None:
    (advice,) = message_advice('install "ipywidgets" for Jupyter support')
    assert advice.change == Change(form="install", target="pip install ipywidgets")
    (vague,) = message_advice("install a newer driver for this GPU")
    assert vague.change is None


def test_a_method_to_call_first_on_the_users_object(net: Store) -> None:
    page = page_of(net, "the alt screen must be on")
    fix = page.example_fix
    assert fix is not None
    assert (fix.before, fix.after) == ("", "screen.set_alt()")
    assert "call it before `update`" in (fix.note or "")


def test_an_environment_variable_the_message_names() -> None:
    change = Change(form="env", target="ENG_USE_AITER", after="1")
    alone = change_fix(change)
    # a yes/no variable's "before" gives the other value: unset, its default may be 1
    assert alone is not None
    assert (alone.before, alone.after) == ("export ENG_USE_AITER=0", "export ENG_USE_AITER=1")
    command = change_fix(change, "eng serve MODEL_TAG")
    assert command is not None
    assert (command.before, command.after) == (
        "ENG_USE_AITER=0 eng serve MODEL_TAG",
        "ENG_USE_AITER=1 eng serve MODEL_TAG",
    )


def test_the_call_after_the_fix_runs(net: Store, tmp_path: Path) -> None:
    """What the page says to write runs against the sample package itself, in a
    subprocess of its own (errdex never runs indexed code)."""
    fix = first_input(page_of(net, "Use either proxy")).fix
    assert fix is not None
    write_package(tmp_path, {k: v for k, v in NET.items() if k.startswith("net/")})
    # the "before" gives both arguments the check needs, the user's values named
    for code, ok in ((fix.before, False), (fix.after, True)):
        script = code.replace("PROXIES", "{'http': 'q'}").replace("PROXY", "'p'")
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True
        )
        assert (done.returncode == 0) is ok, done.stderr


def test_the_terminal_draws_each_solutions_fix(net: Store) -> None:
    """`errdex show`'s page: the first fix under "Example fix", a later solution's under
    it; an install has nothing to undo, so no "# before"."""
    page = page_of(net, "h2 is missing")
    console = Console(width=200, record=True, color_system=None)
    console.print(page_view(page))
    out = console.export_text()
    install = out.index("pip install 'net[http2]'")
    assert "# before" not in out[install - 40 : install]
    assert out.index("Solutions") < install


def test_an_upgrade_of_a_released_distribution_is_a_pip_line() -> None:
    versions = [
        VersionEntry(version="2.0", file="pkg/core.py", line=3, id="b" * 16, status="removed"),
        VersionEntry(version="1.0", file="pkg/core.py", line=3, id="a" * 16),
    ]

    def upgrades(installable: bool) -> list[Solution]:
        return upgrade_solutions(
            "pkg", "1.0", versions, [], lambda *_: None, lambda _: False, installable=installable
        )

    (upgrade,) = upgrades(installable=True)
    assert upgrade.fix is not None
    assert (upgrade.fix.before, upgrade.fix.after) == ("", "pip install --upgrade 'pkg>=2.0'")
    # a folder's or a git repository's labels are no releases pip knows
    (unreleased,) = upgrades(installable=False)
    assert unreleased.fix is None
