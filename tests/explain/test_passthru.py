"""Pages that need no switch of the package: a re-raise of the user's own failure (a command,
an app, a renderable the user passed), code that never runs (a type checker's branch, a
module's demo), a Ctrl-C, an error every caller catches, and a way out that another value
of the same input turns into the same check (a twin)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "harness/__init__.py": "",
    "harness/testing.py": """
        class Runner:
            def invoke(self, cli, args=None, catch_exceptions=True):
                try:
                    return cli.main(args=args)
                except SystemExit as e:
                    return e.code
                except Exception as e:
                    if not catch_exceptions:
                        raise
                    return e

            def load(self, path, strict=False):
                try:
                    return self._read(path)
                except Exception:
                    if strict:
                        raise
                    return None

            def _read(self, path):
                return open(path).read()


        def _call_quietly(fn, loud=False):
            try:
                return fn()
            except Exception:
                if loud:
                    raise
        """,
    "harness/files.py": """
        from pathlib import Path


        def save(save_path: Path, data, strict=True):
            try:
                with save_path.open("wb") as f:
                    f.write(data)
            except Exception:
                if strict:
                    raise


        def apply(fn, loud=True):
            try:
                return fn()
            except Exception:
                if loud:
                    raise


        def size_of_nothing():
            return apply(list)
        """,
    "harness/transport.py": """
        class AppTransport:
            def __init__(self, app, raise_app_exceptions=True):
                self.app = app
                self.raise_app_exceptions = raise_app_exceptions

            async def handle(self, scope):
                try:
                    await self.app(scope)
                except Exception:
                    if self.raise_app_exceptions:
                        raise
                return None
        """,
    "harness/live.py": """
        class Live:
            def __init__(self, renderable=None, get_renderable=None):
                self._renderable = renderable
                self._get_renderable = get_renderable
                self._started = False

            def get_renderable(self):
                if self._get_renderable is not None:
                    return self._get_renderable()
                return self._renderable

            @property
            def renderable(self):
                return self.get_renderable()

            def refresh(self):
                print(self.renderable)

            def start(self, refresh=False):
                if refresh:
                    try:
                        self.refresh()
                    except Exception:
                        self._started = False
                        raise
        """,
    "harness/quiet.py": """
        from typing import TYPE_CHECKING


        def check(value):
            if TYPE_CHECKING:
                assert isinstance(value, int)
            return value


        def ask(prompt):
            try:
                return input(prompt)
            except (KeyboardInterrupt, EOFError):
                raise SystemExit(1) from None


        def _parse_port(text):
            if not text.isdigit():
                raise ValueError(f"not a port: {text}")
            return int(text)


        def port_or_default(text):
            try:
                return _parse_port(text)
            except ValueError:
                return 80


        def _kinds(items):
            for item in items:
                if not isinstance(item, str):
                    raise TypeError(f"not a kind: {item!r}")
                yield item.lower()


        def first_kind(items):
            try:
                return next(_kinds(items))
            except Exception:
                return None


        def all_kinds(items):
            for kind in _kinds(items):
                print(kind)


        def _sizes(items):
            for item in items:
                if item < 0:
                    raise ValueError(f"not a size: {item}")
                yield item


        def sizes_or_none(items):
            try:
                found = _sizes(items)
            except ValueError:
                return None
            return list(found)


        def _names(items):
            for item in items:
                if not item:
                    raise ValueError("an empty name")
                yield item


        def first_name(items):
            try:
                return next(_names(items), None)
            except ValueError:
                return None


        def all_names(items):
            try:
                return sorted(_names(items))
            except ValueError:
                return []


        async def _fetched(url):
            if not url:
                raise ValueError("no url")
            return url


        def fetch_job(url):
            try:
                job = _fetched(url)
            except ValueError:
                return None
            return job


        if __name__ == "__main__":
            import sys

            if len(sys.argv) < 2:
                raise SystemExit("usage: quiet PORT")
        """,
    "harness/color.py": """
        import enum
        from typing import NamedTuple, Optional, Tuple


        class System(enum.IntEnum):
            STANDARD = 1
            EIGHT_BIT = 2
            TRUECOLOR = 3
            WINDOWS = 4


        class Color(NamedTuple):
            name: str
            type: System
            number: Optional[int] = None
            triplet: Optional[Tuple[int, int, int]] = None

            @property
            def system(self):
                return self.type

            def downgrade(self, system):
                if system == self.system:
                    return self
                if system == System.EIGHT_BIT and self.system == System.TRUECOLOR:
                    assert self.triplet is not None
                    return Color(self.name, system, number=16)
                elif system == System.STANDARD:
                    if self.system == System.TRUECOLOR:
                        assert self.triplet is not None
                    return Color(self.name, system, number=1)
                elif system == System.WINDOWS:
                    if self.system == System.TRUECOLOR:
                        assert self.triplet is not None  # windows
                    return Color(self.name, system, number=1)
                return self

            def get_code(self, system):
                if system == System.WINDOWS:
                    assert self.number is not None
                    return str(self.number)
                return "0"
        """,
}


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("harness"), "harness", FILES)


def page(store: Store, function: str, line_text: str | None = None) -> Page:
    if line_text is None:
        return page_in_function(store, "harness", function)
    sites = [s for s in store.list_sites("harness") if s.site.function == function]
    text = {s.file: store.file_text(s.version_id, s.file) or "" for s in sites}
    (site,) = [s for s in sites if line_text in text[s.file].splitlines()[s.site.line - 1]]
    return build_page(store, site.id)


def test_a_command_the_user_passed_is_their_failure_not_a_switch(harness: Store) -> None:
    shown = page(harness, "Runner.invoke", "raise")
    assert [s.text for s in shown.solutions] == [
        "Fix the failure in the `cli` you gave `Runner.invoke` (the `try` at line 4 ran it "
        "and passed on what it raised): the frames below this one in the traceback point "
        "to the line of your code."
    ]
    assert shown.example_fix is None
    assert "re-raises what your own code raised" in shown.what_it_means
    assert "a method of the `cli` you gave `Runner.invoke`" in shown.what_it_means
    # the switch is context, not a way out
    assert "`catch_exceptions` is empty" in shown.what_it_means
    assert "does not fix it" in shown.what_it_means


def test_an_app_given_to_the_constructor_is_the_users(harness: Store) -> None:
    shown = page(harness, "AppTransport.handle")
    assert len(shown.solutions) == 1
    first = shown.solutions[0].text
    assert first.startswith("Fix the failure in the `app` you gave `AppTransport`")
    assert "raise_app_exceptions" not in first
    assert shown.example_fix is None


def test_a_method_that_reaches_a_callable_the_user_gave(harness: Store) -> None:
    shown = page(harness, "Live.start")
    assert "`Live.refresh`, `Live.renderable`, `Live.get_renderable`" in shown.what_it_means
    assert shown.solutions[0].text.startswith(
        "Fix the failure in the `get_renderable` or `renderable` you gave `Live`"
    )
    assert not any("refresh" in s.text and "Pass" in s.text for s in shown.solutions)


def test_the_packages_own_code_or_a_private_helper_is_no_pass_through(harness: Store) -> None:
    loaded = page(harness, "Runner.load", "raise")
    assert "your own code" not in loaded.what_it_means
    helper = page(harness, "_call_quietly", "raise")
    assert "your own code" not in helper.what_it_means
    # a method of another library's object (`Path.open`) is that library's code
    saved = page(harness, "save", "raise")
    assert "your own code" not in saved.what_it_means
    # a function the package calls itself runs what the package gives it
    applied = page(harness, "apply", "raise")
    assert "your own code" not in applied.what_it_means


def test_code_that_never_runs_offers_nothing_and_reports_nothing(harness: Store) -> None:
    typed = page(harness, "check")
    assert typed.solutions == [] and typed.example_fix is None
    assert "never runs" in typed.what_it_means
    assert "worth reporting" not in typed.what_it_means
    demo = page(harness, "<module>", "usage: quiet PORT")
    assert "run as a script (`python -m harness.quiet`" in demo.what_it_means
    assert "worth reporting" not in demo.what_it_means


def test_ctrl_c_is_the_user_stopping_the_program(harness: Store) -> None:
    shown = page(harness, "ask")
    assert "presses Ctrl-C" in shown.what_it_means
    assert "the input ends" in shown.what_it_means
    assert "worth reporting" not in shown.what_it_means


def test_an_error_every_caller_catches_never_reaches_the_user(harness: Store) -> None:
    shown = page(harness, "_parse_port")
    assert "Every caller in harness catches it" in shown.what_it_means
    assert "`port_or_default`" in shown.what_it_means
    assert "worth reporting" not in shown.what_it_means


def test_a_generator_some_callers_catch_is_not_said_caught_by_every_caller(
    harness: Store,
) -> None:
    # `first_kind` catches it around `next(_kinds(items))`; `all_kinds` loops over it with
    # no `try`, a use the index records no call for: the page cannot say "every caller"
    shown = page(harness, "_kinds")
    assert "Every caller" not in shown.what_it_means
    assert "never reaches your code" not in shown.what_it_means


def test_a_generator_made_in_a_try_and_iterated_after_it_is_not_caught(harness: Store) -> None:
    # `found = _sizes(items)` in the `try` only makes the generator: its raise runs at
    # `list(found)`, after the `try`. Before: "Every caller in harness catches it"
    shown = page(harness, "_sizes")
    assert "Every caller" not in shown.what_it_means


def test_a_coroutine_made_in_a_try_is_not_caught_there(harness: Store) -> None:
    # its body runs where the coroutine is awaited, not at `job = _fetched(url)`
    shown = page(harness, "_fetched")
    assert "Every caller" not in shown.what_it_means


def test_a_generator_every_caller_iterates_in_its_try_is_caught(harness: Store) -> None:
    # `next(_names(items), None)` and `sorted(_names(items))`, each inside the `try`
    shown = page(harness, "_names")
    assert "Every caller in harness catches it" in shown.what_it_means


def test_another_value_that_meets_a_twin_check_is_no_way_out(harness: Store) -> None:
    windows = page(harness, "Color.downgrade", "assert self.triplet is not None  # windows")
    assert not any("System.WINDOWS" in s.text for s in windows.solutions)
    assert "is no way out: another value can take the branch" in windows.what_it_means
    # a check with no twin keeps its way out
    alone = page(harness, "Color.get_code")
    assert any("other than" in s.text and "System.WINDOWS" in s.text for s in alone.solutions)
