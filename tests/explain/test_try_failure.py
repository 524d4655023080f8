"""A raise under `except`: the page says what the `try` did that failed and with which
input, never offers a test of the caught error negated nor a switch that only swallows
it, and says of a raise `from` the caught error that it wraps that failure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.store import Store

FILES = {
    "files/__init__.py": "",
    "files/io.py": """
        import errno
        import os


        class ConfigError(Exception):
            pass


        def open_atomic(filename):
            tmp = os.path.join(os.path.dirname(filename), ".tmp-" + os.path.basename(filename))
            try:
                fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
            except OSError as e:
                if e.errno == errno.EEXIST or (os.name == "nt" and os.path.isdir(e.filename)):
                    return None
                raise
            return fd


        def read_config(path):
            try:
                with open(path) as f:
                    text = f.read()
            except OSError as e:
                raise ConfigError(f"cannot read the config {path}") from e
            return text


        class Loader:
            def __init__(self, source):
                self.source = source

            def load(self, name, raise_errors=True):
                try:
                    value = self.source.fetch(name)
                except LookupError:
                    if raise_errors:
                        raise
                    self.mock(name)
                    return False
                return value

            def mock(self, name):
                pass


        def connect(attempts):
            for attempt in range(attempts):
                try:
                    return os.open("/dev/null", os.O_RDONLY)
                except OSError:
                    if attempt == attempts - 1:
                        raise
            return None


        class Server:
            def __init__(self, port):
                self.port = port

            def bind(self):
                try:
                    number = int(self.port)
                except ValueError as e:
                    raise ConfigError(f"bad port {self.port}") from e
                return number


        NAMES = {}


        def name_of(rgb, fallback=False):
            try:
                return NAMES[rgb]
            except KeyError as e:
                if fallback:
                    return "#%02x%02x%02x" % rgb
                else:
                    raise ValueError("no named color found, use fallback=True") from e


        def remove(path, missing_ok=False):
            try:
                os.remove(path)
            except OSError as e:
                if missing_ok and e.errno == errno.ENOENT:
                    return
                raise


        def load_plugin(name):
            import importlib

            try:
                return importlib.import_module(name)
            except ImportError as e:
                raise RuntimeError(f"no plugin {name}") from e


        def claim(path):
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError as e:
                raise RuntimeError(f"{path} is taken") from e
            return fd


        def save(path, text):
            try:
                with open(path, "w") as f:
                    f.write(text)
            except PermissionError:
                raise ConfigError(f"no write access to {path}")
        """,
    "files/lazy.py": """
        import os

        from files.streams import open_stream


        class FileError(Exception):
            pass


        class LazyFile:
            def __init__(self, filename, mode="r"):
                self.name = os.fspath(filename)
                self.mode = mode
                self._f = None

            def open(self):
                if self._f is not None:
                    return self._f
                try:
                    self._f = open_stream(self.name, self.mode)
                except OSError as e:
                    raise FileError(f"cannot open {self.name}") from e
                return self._f
        """,
    "files/stores.py": """
        from files.streams import open_stream


        def _shm_path(engine_id):
            return f"/dev/shm/{engine_id}.mmap"


        class Store:
            def __init__(self, engine_id):
                self.path = _shm_path(engine_id)

            def open(self):
                try:
                    return open_stream(self.path, "rb")
                except OSError as e:
                    raise RuntimeError(f"no store file at {self.path}") from e


        def read_member(archive, member):
            try:
                return archive.open_file(member)
            except OSError as e:
                raise RuntimeError(f"no member {member}") from e


        class Lock:
            def __init__(self, filename):
                self.lockname = filename

            def take(self):
                self.lockname += ".lock"
                try:
                    return open_stream(self.lockname, "w")
                except OSError as e:
                    raise RuntimeError(f"cannot take the lock {self.lockname}") from e


        class Cache:
            path = "cache.db"

            def __init__(self, filename=None):
                if filename is not None:
                    self.path = filename

            def load(self):
                try:
                    return open_stream(self.path, "rb")
                except OSError as e:
                    raise RuntimeError(f"no cache at {self.path}") from e


        class Journal:
            def __init__(self, filename):
                self.target = filename

            def rotate(self, suffix):
                setattr(self, "target", suffix)

            def replay(self):
                try:
                    return open_stream(self.target, "r")
                except OSError as e:
                    raise RuntimeError(f"no journal at {self.target}") from e


        class Segment:
            def __init__(self, filename):
                self.filename = filename
                self.reader = None
                self.writer = None

            def close(self):
                for attr in ("reader", "writer"):
                    setattr(self, attr, None)

            def read(self):
                try:
                    return open_stream(self.filename, "rb")
                except OSError as e:
                    raise RuntimeError(f"no segment at {self.filename}") from e
        """,
    "files/spools.py": """
        from files.streams import open_stream


        class Spool:
            def __init__(self, filename):
                self.filename = filename

            def reset(self, value):
                for attr in ("filename", "size"):
                    setattr(self, attr, value)

            def read(self):
                try:
                    return open_stream(self.filename, "rb")
                except OSError as e:
                    raise RuntimeError(f"no spool at {self.filename}") from e
        """,
    "files/streams.py": """
        def open_stream(filename, mode="r"):
            return open(filename, mode)
        """,
    "files/_private.py": """
        def complete(source, name, raise_errors=True):
            try:
                value = source.fetch(name)
            except LookupError:
                if raise_errors:
                    raise
                return False
            return value
        """,
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("files"), "files", FILES)


def test_a_test_of_the_caught_error_is_no_way_out(files: Store) -> None:
    page = page_in_function(files, "files", "open_atomic")
    assert not any("errno" in s.text or "Run it where" in s.text for s in page.solutions)
    assert "reads the error the `try` raised: it picks which failures" in page.what_it_means


def test_a_failed_file_call_says_what_its_path_needs(files: Store) -> None:
    page = page_in_function(files, "files", "open_atomic")
    assert page.solutions[0].text.startswith(
        "Check the path given to `os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 438)`, "
        "which failed: the directory `tmp` is in must exist and the user running the "
        "program must be allowed to write there"
    )


def test_a_file_read_names_the_argument_it_was_given(files: Store) -> None:
    page = page_with_message(files, "files", "cannot read the config")
    assert page.solutions[0].text.startswith(
        "Check the path given to `open(path)`, which failed: `path` (the argument `path` of "
        "`read_config`) must exist and the user running the program must be allowed to read it"
    )
    # the raise `from` the caught error wraps it
    assert (
        "(the `try` at line 23) raised `OSError`; the input of that call is what to check. "
        "This error wraps that failure: the traceback shows the `OSError` above this one as "
        "its cause"
    ) in page.what_it_means


def test_a_switch_that_only_swallows_the_failure_is_no_way_out(files: Store) -> None:
    page = page_in_function(files, "files", "Loader.load")
    assert not any("raise_errors" in s.text for s in page.solutions)
    assert (
        "The `if` at line 38 (`raise_errors` is set (not empty, zero or None)) only picks "
        "whether the failure is raised: otherwise the handler returns `False` instead, which "
        "hides the failure rather than avoiding it"
    ) in page.what_it_means
    # what failed is the call of the `try`, with what its error names
    assert page.solutions[0].text.startswith(
        "Fix what this error's own message names: `self.source.fetch(name)` (the `try` at "
        "line 36) raised `LookupError`, passed on here as it was, and its message says what "
        "failed and with which value."
    )


def test_a_retry_loop_is_no_swallowing(files: Store) -> None:
    page = page_in_function(files, "files", "connect")
    assert "only picks whether the failure is raised" not in page.what_it_means
    # a file opened to read: it must exist, nothing is written
    assert page.solutions[0].text.startswith(
        "Check the path given to `os.open('/dev/null', os.O_RDONLY)`, which failed: "
        "`'/dev/null'` must exist and the user running the program must be allowed to read it"
    )


def test_a_number_read_names_what_must_be_a_number(files: Store) -> None:
    page = page_in_function(files, "files", "Server.bind")
    assert page.solutions[0].text.startswith(
        "Make sure `self.port` is a whole number written out (`int('12')`): `int(self.port)` "
        "failed on it"
    )
    assert page.solutions[0].text.endswith(" `self.port` is the argument `port` given to `Server`.")


def test_another_way_to_the_result_is_no_swallowing(files: Store) -> None:
    # the other branch works out another value (a hex code), which the message advises
    page = page_with_message(files, "files", "no named color found")
    assert "only picks whether the failure is raised" not in page.what_it_means
    assert any("fallback" in s.text for s in page.solutions)


def test_a_test_of_the_caught_error_and_an_argument_keeps_its_way_out(files: Store) -> None:
    page = page_in_function(files, "files", "remove")
    assert "reads the error the `try` raised" not in page.what_it_means
    assert page.solutions[0].text.startswith(
        "Check the path given to `os.remove(path)`, which failed: `path` (the argument `path` "
        "of `remove`) must exist"
    )


def test_a_private_function_says_no_more_than_the_message(files: Store) -> None:
    # what its parameters hold is the package's own to pass: no input of the user's named
    page = page_in_function(files, "files", "complete")
    assert not any("raise_errors" in s.text for s in page.solutions)
    assert not any(s.text.startswith("Fix what") for s in page.solutions)
    assert "only picks whether the failure is raised" in page.what_it_means


def test_a_failed_import_names_the_module_to_install(files: Store) -> None:
    page = page_with_message(files, "files", "no plugin")
    assert page.solutions[0].text.startswith(
        "Install the module `name` (the argument `name` of `load_plugin`) names, or make it "
        "importable: `importlib.import_module(name)` failed on it"
    )


def test_a_caught_file_exists_error_says_the_path_must_not_be_there(files: Store) -> None:
    # an exclusive create fails only because the path exists: "its directory must be
    # writable" holds already and would send the user nowhere
    page = page_in_function(files, "files", "claim")
    first = page.solutions[0].text
    assert first.startswith("Check the path given to `os.open(path, os.O_CREAT")
    assert "`path` (the argument `path` of `claim`) must not exist yet" in first
    assert "writable" not in first and "allowed to write" not in first


def test_a_caught_permission_error_says_only_the_access_needed(files: Store) -> None:
    page = page_with_message(files, "files", "no write access to")
    first = page.solutions[0].text
    assert (
        "the user running the program must be allowed to write in the directory `path` "
        "(the argument `path` of `save`) is in"
    ) in first
    assert "must exist" not in first


def test_a_function_named_to_open_a_file_says_what_its_path_needs(files: Store) -> None:
    # `open_stream(path, mode)` opens as `open` does; `self.name` is the constructor's
    # `filename`, the path the user gave
    page = page_with_message(files, "files", "cannot open")
    first = page.solutions[0].text
    assert first.startswith(
        "Check the path given to `open_stream(self.name, self.mode)`, which failed: "
        "`self.name` must exist and allow the access asked for"
    ), first
    assert first.endswith(" `self.name` is the argument `filename` given to `LazyFile`."), first


def test_a_path_built_changed_or_set_on_some_paths_is_no_argument_given(
    files: Store,
) -> None:
    # `_shm_path(engine_id)` builds another path; `+= ".lock"` changes the one given; a
    # store under an `if` leaves the class's own default on the other path; another method
    # sets it again with `setattr`, by name or in a loop over names
    for message in (
        "no store file at",
        "cannot take the lock",
        "no cache at",
        "no journal at",
        "no spool at",
    ):
        page = page_with_message(files, "files", message)
        texts = [s.text for s in page.solutions]
        assert any(t.startswith("Check the path given to `open_stream(") for t in texts), texts
        assert not any("is the argument" in t for t in texts), texts


def test_an_opener_called_on_an_object_is_no_file_call(files: Store) -> None:
    # `archive.open_file(member)`: what the object holds decides what is opened
    page = page_with_message(files, "files", "no member")
    assert not any("Check the path given to" in s.text for s in page.solutions)


def test_a_setattr_over_other_names_leaves_the_argument_given(files: Store) -> None:
    # `for attr in ("reader", "writer"): setattr(self, attr, None)` stores no `filename`
    page = page_with_message(files, "files", "no segment at")
    first = page.solutions[0].text
    assert first.endswith(" `self.filename` is the argument `filename` given to `Segment`."), first
