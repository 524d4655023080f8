"""Ways out that are none, and checks the user causes that are no bug to report: a re-raise
whose other path shows the same error and exits, a usage error caught only as `TypeError`
(no command line's), a flag another parser declares for an attribute of another object, a
flag that only feeds one argument of a call, an assert on a re-exported class's arguments."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_in_function, page_with_message

from errdex.store import Store

FILES = {
    "tool/__init__.py": "from tool._config import Limits\n",
    "tool/exceptions.py": """
        class ClickException(Exception):
            pass


        class UsageError(ClickException):
            pass


        class BadParameter(UsageError):
            pass
        """,
    "tool/core.py": """
        import sys

        from tool.exceptions import BadParameter, ClickException


        class Command:
            def main(self, args=None, standalone_mode=True):
                try:
                    return self.invoke(args)
                except ClickException as e:
                    if not standalone_mode:
                        raise
                    print(e)
                    sys.exit(1)

            def load(self, path, strict=False):
                try:
                    return self.read(path)
                except ClickException:
                    if strict:
                        raise
                    return None

            def invoke(self, args):
                return args

            def read(self, path):
                return path


        def check_iter(value):
            try:
                return iter(value)
            except TypeError:
                raise BadParameter("Value must be an iterable.") from None


        class Spec:
            def __init__(self, name, path):
                self.name = name
                self.path = path


        def parse_spec(fields):
            try:
                return Spec(**fields)
            except TypeError:
                raise BadParameter("Invalid fields for --spec.") from None
        """,
    "tool/_config.py": """
        UNSET = object()


        class Limits:
            def __init__(self, limit=None, *, soft=UNSET):
                if isinstance(limit, Limits):
                    assert soft is UNSET
                    self.soft = limit.soft
                else:
                    self.soft = soft
        """,
    "tool/transport.py": """
        class Transport:
            def __init__(self, app, raise_app_exceptions=True):
                self.app = app
                self.raise_app_exceptions = raise_app_exceptions

            def handle(self, request):
                seen = []
                body = self.app(request, seen.append)
                if seen and self.raise_app_exceptions:
                    raise seen[0]
                return body
        """,
    "tool/offload.py": """
        import logging

        logger = logging.getLogger(__name__)


        class Offloader:
            def register(self, caches):
                if not caches:
                    logger.warning("Nothing to offload.")
                    return
                for name in caches:
                    code = self.pin(caches[name])
                    if code != 0:
                        raise RuntimeError(f"pinning {name} failed: {code}")

            def mark(self, enabled):
                if not enabled:
                    return
                code = self.pin(None)
                if code != 0:
                    raise RuntimeError(f"marking failed: {code}")

            def pin(self, tensor):
                return 0
        """,
    "tool/requests.py": """
        from collections.abc import AsyncGenerator


        class Engine:
            async def add(self, prompt, queue):
                if isinstance(prompt, AsyncGenerator):
                    return await self.stream(prompt)
                try:
                    await self.submit(prompt, queue)
                except BaseException:
                    await self.abort(prompt)
                    raise
                return queue

            async def stream(self, prompt):
                return prompt

            async def submit(self, prompt, queue):
                return queue

            async def abort(self, prompt):
                return None
        """,
    "tool/bench.py": """
        import argparse


        def bench_main(argv):
            parser = argparse.ArgumentParser()
            parser.add_argument("--temperature", type=float, default=0.0)
            parser.add_argument("--host", default="localhost")
            return parser.parse_args(argv)
        """,
    "tool/serve.py": """
        import logging

        logger = logging.getLogger(__name__)


        class SnapshotError(Exception):
            pass


        def check_request(config):
            if config.temperature == 0:
                logger.warning("Greedy requests cannot be watermarked.")


        def restore(args, manifest, tools):
            actual = tools.request(args.host, manifest)
            if not tools.matches(manifest, actual):
                raise SnapshotError("snapshot mismatch")
        """,
}


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("tool"), "tool", FILES)


def test_turning_off_a_re_raise_whose_other_path_exits_is_no_way_out(tool: Store) -> None:
    page = page_in_function(tool, "tool", "Command.main")
    # not "pass standalone_mode=True": that prints and exits; what failed is the call of the
    # `try`, on the arguments given, as the error's own message says
    assert [s.text for s in page.solutions] == [
        "Fix what this error's own message names: `self.invoke(args)` (the `try` at line 10) "
        "raised `ClickException`, passed on here as it was, "
        "and its message says what failed and with which value."
    ]
    assert "no way out" in page.what_it_means
    assert "worth reporting" not in page.what_it_means


@pytest.mark.parametrize(
    ("function", "switch", "instead"),
    [
        # `strict=False` makes `load` return None in place of the error
        ("Command.load", "strict", "returns None instead of raising"),
        # the app reported its own exception; `raise_app_exceptions=False` returns its body
        # as if nothing had failed (before: "Pass `False` for the argument
        # `raise_app_exceptions` of `Transport` (it is on by default)." with a fix)
        ("Transport.handle", "raise_app_exceptions", "goes on without raising the exception"),
    ],
)
def test_a_switch_that_only_hides_the_error_is_said_not_offered(
    tool: Store, function: str, switch: str, instead: str
) -> None:
    page = page_in_function(tool, "tool", function)
    assert not any(switch in s.text for s in page.solutions)
    assert page.example_fix is None
    assert "A switch would only hide the error" in page.what_it_means
    assert f"`{switch}`" in page.what_it_means
    assert instead in page.what_it_means


def test_an_empty_value_that_makes_the_function_return_before_its_work_is_no_way_out(
    tool: Store,
) -> None:
    # `if not caches: return` skips the registering the caller asked for: no way out
    page = page_with_message(tool, "tool", "pinning {name} failed: {code}")
    # not offered: "Pass an empty (false) value for the argument `caches` of
    # `Offloader.register`."
    assert not any("`caches`" in s.text for s in page.solutions)
    assert offered(page) == [] and checks(page)
    # nor a switch that hides it: the work is what the caller asked for
    assert "would only hide" not in page.what_it_means
    # a switch the function reads nothing of past its exit is not what it works on
    page = page_with_message(tool, "tool", "marking failed: {code}")
    assert any("`enabled`" in s.text for s in page.solutions)


def test_another_input_that_returns_before_the_failed_try_is_no_way_out(tool: Store) -> None:
    # what `submit` raised is passed on: a streaming prompt takes another path and never
    # runs it, so the request the user made still fails
    page = page_in_function(tool, "tool", "Engine.add")
    # not offered: "Pass the argument `prompt` of `Engine.add` as an instance of
    # `AsyncGenerator`." after "Fix what this error's own message names"
    assert not any("AsyncGenerator" in s.text for s in page.solutions)
    assert [s.text.split(":")[0] for s in page.solutions] == [
        "Fix what this error's own message names"
    ]
    assert "would only hide" not in page.what_it_means


def test_a_usage_error_caught_only_as_type_error_is_the_codes_value(tool: Store) -> None:
    texts = [s.text for s in page_in_function(tool, "tool", "check_iter").solutions]
    assert texts and texts[0].startswith("Fix the value set in code (“Value must be an iterable.”)")
    assert not any("change your command line" in t for t in texts)


def test_a_type_error_from_what_was_built_of_the_text_is_the_command_lines(tool: Store) -> None:
    texts = [s.text for s in page_in_function(tool, "tool", "parse_spec").solutions]
    assert texts and texts[0].startswith("If you ran a command and it printed this: ")


def test_a_flag_of_another_parser_is_no_setting_of_another_objects_attribute(
    tool: Store,
) -> None:
    page = page_in_function(tool, "tool", "check_request")
    assert not any("--temperature" in s.text for s in page.solutions)
    assert not any(k.name == "--temperature" for k in page.knobs)
    assert offered(page) == [
        "Pass the argument `config` of `check_request` with a `.temperature` other than `0`."
    ]


def test_a_flag_feeding_one_argument_of_a_call_is_no_way_out(tool: Store) -> None:
    page = page_in_function(tool, "tool", "restore")
    assert any(k.name == "--host" for k in page.knobs)  # still linked, and read
    assert not any("--host" in s.text for s in page.solutions)
    assert offered(page) == [] and checks(page)


def test_an_assert_on_a_re_exported_classs_arguments_is_no_bug_to_report(tool: Store) -> None:
    page = page_in_function(tool, "tool", "Limits.__init__")
    assert "worth reporting" not in page.what_it_means
    # `soft` given beside a `Limits`: one or the other (`explain/given_together.py`)
    assert "Leave `soft` out of the call" in page.solutions[0].text


STATE = {
    "store/__init__.py": "",
    "store/registry.py": """
        class Registry:
            def __init__(self):
                self._closed = False
                self._items = {}

            def add(self, name):
                if self._closed:
                    raise RuntimeError("Cannot add to a closed registry.")
                self._items[name] = True

            def check(self):
                if self._items is None:
                    raise SystemError("The registry lost its items.")
        """,
}


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("store"), "store", STATE)


def test_a_use_the_code_refuses_is_no_bug_to_report(registry: Store) -> None:
    means = page_in_function(registry, "store", "Registry.add").what_it_means
    assert "worth reporting" not in means
    assert "`RuntimeError` is raised here for what the code was handed or met" in means


def test_an_invariant_on_an_attribute_is_not_sent_to_the_project(registry: Store) -> None:
    means = page_in_function(registry, "store", "Registry.check").what_it_means
    # an attribute may hold what a constructor or an earlier call was given: no evidence
    # that the program's own state alone decides it, so the page says no more than what
    # errdex did not find (see test_own_state)
    assert "worth reporting" not in means
    assert "errdex followed none of these conditions to a setting" in means
