"""A raise its own function's `try` catches: "What it means" says which `except` takes it and
what that handler does instead (logs, returns, raises another error), and no longer sends the
user to a traceback that does not exist. A handler that raises the error again, hands it on,
or raises only on some paths, and a raise outside the `try`'s body, keep the page as it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.explain.page import Page
from errdex.facts import SiteKind
from errdex.store import Store

PARSE = {
    "parse/__init__.py": "",
    "parse/tools.py": """
        import ast
        import logging

        logger = logging.getLogger(__name__)


        class UnexpectedAstError(Exception):
            pass


        def extract(text):
            try:
                parsed = ast.parse(text).body[0]
                if not isinstance(parsed, ast.Expr):
                    raise UnexpectedAstError("Tool output must be a list of calls")
                return parsed
            except Exception:
                logger.exception("Error in extracting tool call from response.")
                return None


        def defaults(cls, name):
            try:
                default = getattr(cls, name, None)
                if default is None:
                    raise AttributeError
            except AttributeError:
                default = 0
            return default


        def metadata(value):
            try:
                if not isinstance(value, dict):
                    raise ValueError("metadata must be a mapping")
                return dict(value)
            except (KeyError, ValueError) as error:
                raise ValueError(f"invalid metadata: {error}") from error


        def again(value):
            try:
                if value < 0:
                    raise ValueError("value must not be negative")
            except ValueError as error:
                logger.error("bad value: %s", error)
                raise
            return value


        def kept(self, value):
            try:
                if value < 0:
                    raise RuntimeError("value must not be negative")
            except Exception as error:
                self.error = error
            return value


        def other_class(value):
            try:
                if value < 0:
                    raise RuntimeError("negative value")
            except KeyError:
                return None
            return value


        def in_handler(value):
            try:
                number = int(value)
            except ValueError:
                raise TypeError("value must be a number")
            return number


        async def received(self, audio, limit):
            try:
                if len(audio) > limit:
                    raise ValueError("Maximum file size exceeded")
                self.queue.put_nowait(audio)
            except Exception as e:
                logger.error("Failed to decode audio: %s", e)
                await self.send_error("Invalid audio data", "invalid_audio")


        def retried(value, attempts):
            try:
                if value is None:
                    raise RuntimeError("no value yet")
            except RuntimeError:
                if attempts > 3:
                    raise
                logger.warning("retrying")
            return value
        """,
    "parse/platform.py": """
        import sys
        try:
            if sys.platform != "win32":
                raise ImportError("Not windows")
            import winreg
        except ImportError:
            winreg = None
        """,
    "parse/more.py": """
        import asyncio
        import logging
        import socket
        import sys

        logger = logging.getLogger(__name__)


        def strict_exit(value, strict):
            try:
                if value is None:
                    raise ValueError("no value")
            except ValueError:
                if strict:
                    sys.exit(1)
                return None
            return value


        def lenient(value, lenient):
            try:
                if value is None:
                    raise KeyError("no value")
            except KeyError:
                if lenient:
                    return None
                raise RuntimeError("no value at all")
            return value


        def ignored(value):
            try:
                if value is None:
                    raise LookupError("no value")
            except LookupError:
                pass
            return value


        def text_kept(value):
            error = None
            try:
                if value is None:
                    raise TypeError("no value")
            except TypeError as exc:
                error = f"{type(exc).__name__}: {exc}"
            if error is not None:
                raise RuntimeError(error)
            return value


        async def cancelled(task):
            try:
                if task.done():
                    raise asyncio.CancelledError()
            except Exception:
                return None
            return task


        def sent(sock, data):
            try:
                if not data:
                    raise OSError("nothing to send")
                sock.send(data)
            except socket.error:
                return False
            except Exception:
                raise RuntimeError("send failed")
            return True


        def called_back(loop, fut, value):
            try:
                if value is None:
                    raise ValueError("no value")
            except ValueError as e:
                loop.call_soon(lambda: fut.set_exception(e))


        def kept_info(self, value):
            try:
                if value is None:
                    raise ValueError("no value")
            except ValueError:
                self._exc = sys.exc_info()


        def logged_error(value):
            try:
                if value is None:
                    raise ValueError("no value")
            except ValueError as e:
                logger.error(e)
                return None
            return value


        def logged_level(value):
            try:
                if value is None:
                    raise IndexError("no value")
            except IndexError:
                logger.log(logging.ERROR, "no value to read", exc_info=False)
                return None
            return value


        def nested(value):
            try:
                try:
                    if value is None:
                        raise KeyError("no value")
                except ValueError:
                    return 1
            except KeyError:
                return 2
            return value


        def raised_again(value):
            try:
                if value is None:
                    raise ValueError("no value")
            except ValueError as e:
                logger.warning("bad value")
                raise e


        def safe(session, value):
            try:
                if value is None:
                    raise ValueError("no value")
            except ValueError:
                with util.safe_reraise():
                    session.rollback()


        def skipped(values):
            for value in values:
                try:
                    if value is None:
                        raise ValueError("no value")
                except ValueError:
                    continue


        def stopped(values):
            for value in values:
                try:
                    if value is None:
                        raise ValueError("no value")
                except ValueError:
                    break


        def wrapped(value, verbose):
            try:
                if value is None:
                    raise ValueError("no value")
            except ValueError as e:
                if verbose:
                    text = f"{type(e).__name__}: {e}"
                    logger.info("failed: %s", text)
                raise LookupError("no value to look up") from e
        """,
    "parse/bound.py": """
        import asyncio
        import logging
        import sys
        import traceback

        from parse import errors

        logger = logging.getLogger(__name__)
        ParseError = ValueError


        class Cancelled(asyncio.CancelledError):
            pass


        class Stopped(Cancelled):
            pass


        class Failed(KeyError):
            pass


        def cancel(task):
            try:
                if task.done():
                    raise Stopped("already done")
            except Exception:
                return None
            return task


        def aliased(text):
            try:
                if not text:
                    raise ValueError("no text")
            except ParseError:
                raise
            except Exception:
                logger.error("failed")
                return None
            return text


        def dotted(sock):
            try:
                if sock is None:
                    raise ConnectionError("no socket")
            except errors.ConnectionError:
                return None
            except Exception:
                raise
            return sock


        def formatted(value):
            error = None
            try:
                if value is None:
                    raise TypeError("no value")
            except Exception:
                error = traceback.format_exc()
            if error is not None:
                raise RuntimeError(error)
            return value


        def logged_info(value):
            try:
                if value is None:
                    raise TypeError("no value")
            except TypeError:
                logger.error("no value", exc_info=sys.exc_info())
                return None
            return value


        def failed(table, key):
            try:
                if key not in table:
                    raise Failed(key)
            except Exception:
                return None
            return table[key]


        def awaited(future):
            try:
                if future is None:
                    raise ValueError("no future")
            except asyncio.InvalidStateError:
                raise
            except Exception:
                return None
            return future
        """,
    "parse/errors.py": """
        class ConnectionError(Exception):
            pass
        """,
}


@pytest.fixture(scope="module")
def parse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("parse"), "parse", PARSE)


def _page(store: Store, function: str, exception: str) -> Page:
    (site,) = [
        s
        for s in store.list_sites("parse")
        if s.site.function == function
        and s.site.kind == SiteKind.RAISE
        and (s.site.exception or "").endswith(exception)
    ]
    return build_page(store, site.id)


def test_a_raise_its_handler_logs_says_the_log_and_the_return(parse: Store) -> None:
    page = _page(parse, "extract", "UnexpectedAstError")
    assert (
        "The `except Exception` at line 18 of the same `try` catches it: its handler "
        "(lines 18-20) logs “Error in extracting tool call from response.” with the "
        "traceback and returns `None`. So the error does not leave `extract` as itself: what "
        "a user meets instead is what that handler does." in page.what_it_means
    )
    assert "traceback's frames above" not in page.what_it_means


def test_a_bare_raise_to_jump_to_its_handler_is_said(parse: Store) -> None:
    page = _page(parse, "defaults", "AttributeError")
    assert (
        "The `except AttributeError` at line 28 of the same `try` catches it: its handler "
        "(lines 28-29) sets `default`." in page.what_it_means
    )
    assert "traceback's frames above" not in page.what_it_means


def test_a_handler_raising_another_error_names_it(parse: Store) -> None:
    (page,) = [
        build_page(parse, s.id)
        for s in parse.list_sites("parse")
        if s.site.function == "metadata" and s.site.line == 36
    ]
    assert (
        "The `except (KeyError, ValueError)` at line 38 of the same `try` catches it and "
        "raises `ValueError` in its place (line 39): that is the error a user meets, not "
        "this one." in page.what_it_means
    )


def test_handlers_that_raise_it_again_or_keep_it_leave_the_page(parse: Store) -> None:
    # (beside a handler whose whole effect is read, which is said)
    assert (
        "of the same `try` catches it" in _page(parse, "defaults", "AttributeError").what_it_means
    )
    for function, exception in (
        ("again", "ValueError"),
        ("kept", "RuntimeError"),
        ("other_class", "RuntimeError"),
        ("retried", "RuntimeError"),
    ):
        page = _page(parse, function, exception)
        assert "of the same `try` catches it" not in page.what_it_means, function


def test_a_raise_inside_a_handler_is_not_caught_by_it(parse: Store) -> None:
    page = _page(parse, "in_handler", "TypeError")
    assert "of the same `try` catches it" not in page.what_it_means
    # the raise in `metadata`'s `try` is; the one in its handler is not
    said = [
        "of the same `try` catches it" in build_page(parse, s.id).what_it_means
        for s in parse.list_sites("parse")
        if s.site.function == "metadata"
    ]
    assert said == [True, False]


def test_a_module_s_own_try_says_the_module(parse: Store) -> None:
    page = _page(parse, "<module>", "ImportError")
    assert (
        "The `except ImportError` at line 7 of the same `try` catches it: its handler "
        "(lines 7-8) sets `winreg`. So the error does not leave the module `parse.platform` "
        "as itself" in page.what_it_means
    )


def test_an_async_function_s_handler_and_the_call_it_makes(parse: Store) -> None:
    page = _page(parse, "received", "ValueError")
    assert (
        "its handler (lines 83-85) logs “Failed to decode audio: %s” and calls "
        "`self.send_error`." in page.what_it_means
    )
    # the way out of the check stays: the user meets the handler's reply
    assert page.solutions


def test_a_handler_that_swallows_it_offers_no_solution_and_no_traceback(parse: Store) -> None:
    page = _page(parse, "defaults", "AttributeError")
    assert "So no solution is offered." in page.what_it_means + " ".join(page.why or [])
    assert "traceback's frames above" not in page.what_it_means


def test_a_handler_with_a_branch_or_a_loop_is_not_read(parse: Store) -> None:
    # `if strict: sys.exit(1)`, `if lenient: return None` before a raise: some paths only
    said = [
        function
        for function, exception in (("strict_exit", "ValueError"), ("lenient", "KeyError"))
        if "of the same `try` catches it" in _page(parse, function, exception).what_it_means
    ]
    assert said == []


def test_a_handler_of_only_pass_does_nothing(parse: Store) -> None:
    page = _page(parse, "ignored", "LookupError")
    assert "its handler (lines 36-37) does nothing." in page.what_it_means


def test_a_handler_keeping_the_error_s_text_or_exc_info_is_not_read(parse: Store) -> None:
    # `error = f"{exc}"` is raised later; `sys.exc_info()` is kept; `e` in a callback
    said = []
    for function, exception in (
        ("text_kept", "TypeError"),
        ("kept_info", "ValueError"),
        ("called_back", "ValueError"),
        ("raised_again", "ValueError"),
        ("safe", "ValueError"),
    ):
        if "of the same `try` catches it" in _page(parse, function, exception).what_it_means:
            said.append(function)
    assert said == []


def test_which_handler_takes_it_is_unknown_for_unresolved_names(parse: Store) -> None:
    # `asyncio.CancelledError` is no `Exception`; `socket.error` is `OSError`
    said = [
        function
        for function, exception in (("cancelled", "CancelledError"), ("sent", "OSError"))
        if "of the same `try` catches it" in _page(parse, function, exception).what_it_means
    ]
    assert said == []


def test_a_log_call_of_the_error_itself_is_said(parse: Store) -> None:
    assert "its handler (lines 94-96) logs `e` and returns `None`." in (
        _page(parse, "logged_error", "ValueError").what_it_means
    )
    assert (
        "its handler (lines 104-106) logs “no value to read” and returns `None`."
        in _page(parse, "logged_level", "IndexError").what_it_means
    )


def test_the_outer_try_a_loop_s_continue_and_break(parse: Store) -> None:
    assert (
        "The `except KeyError` at line 117 of the same `try` catches it: its handler "
        "(lines 117-118) returns `2`." in _page(parse, "nested", "KeyError").what_it_means
    )
    assert (
        "goes on with the loop's next item" in _page(parse, "skipped", "ValueError").what_it_means
    )
    assert "leaves the loop" in _page(parse, "stopped", "ValueError").what_it_means


def test_a_branch_that_only_logs_before_the_last_raise_keeps_what_it_raises(
    parse: Store,
) -> None:
    # `if verbose:` leaves on no path of its own, and its local text is read by the log
    page = _page(parse, "wrapped", "ValueError")
    assert "catches it and raises `LookupError` in its place" in page.what_it_means


def _caught(store: Store, function: str, exception: str) -> bool:
    return "of the same `try` catches it" in _page(store, function, exception).what_it_means


def test_a_class_whose_chain_ends_in_an_unresolved_class_is_not_known_to_be_caught(
    parse: Store,
) -> None:
    # `Stopped(Cancelled(asyncio.CancelledError))` is no `Exception`; `Failed(KeyError)` is
    assert not _caught(parse, "cancel", "Stopped")
    assert _caught(parse, "failed", "Failed")


def test_a_handler_s_name_is_read_by_what_the_file_binds_to_it(parse: Store) -> None:
    # `ParseError = ValueError` may take the `ValueError` (and raise it again);
    # `errors.ConnectionError` is the package's own class, not the built-in one
    assert not _caught(parse, "aliased", "ValueError")
    assert not _caught(parse, "dotted", "ConnectionError")
    # a module's class not named as a built-in one takes no built-in error
    assert _caught(parse, "awaited", "ValueError")


def test_a_traceback_s_text_kept_is_not_read_and_a_logged_exc_info_is(parse: Store) -> None:
    assert not _caught(parse, "formatted", "TypeError")
    assert (
        "its handler (lines 73-75) logs “no value” with the traceback and returns `None`."
        in _page(parse, "logged_info", "TypeError").what_it_means
    )
