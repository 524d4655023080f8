"""A path the program made itself (a temporary or staging file) is not the user's to check:
a failed call of the `try` given only such a path offers no path to check, and a move of
one to the user's path asks only of the user's target."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "files/__init__.py": "",
    "files/upload.py": """
        import contextlib
        import os
        import tempfile


        def staging_file(folder):
            return tempfile.NamedTemporaryFile(dir=folder)


        def upload(url, data_or_file, from_file):
            try:
                with open(data_or_file, "rb") as file:
                    send(url, file)
            except Exception as e:
                raise RuntimeError(f"upload failed: {e}") from e


        def send(url, file):
            return url, file


        def writer(url, folder):
            with staging_file(folder) as f:
                upload(url, f.name, from_file=True)


        def atomic_write(path, text):
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
            try:
                with os.fdopen(fd, "w") as f:
                    f.write(text)
                os.replace(tmp, path)
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise


        def read_config(path):
            try:
                with open(path) as f:
                    return f.read()
            except OSError as e:
                raise RuntimeError(f"cannot read the config: {e}") from e
        """,
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("files"), "files", FILES)


def test_a_staging_file_its_callers_make_is_no_path_to_check(files: Store) -> None:
    page = page_in_function(files, "files", "upload")
    assert not any("Check the path" in s.text for s in page.solutions)
    assert (
        "`open(data_or_file, 'rb')` is given a path the program makes itself (a temporary or "
        "staging file), not one of yours to check. Another call of the `try` may have failed "
        "instead; the error's message says which."
    ) in page.what_it_means
    assert "the input of that call is what to check" not in page.what_it_means


def test_a_temporary_file_moved_to_the_users_path_asks_only_of_the_target(files: Store) -> None:
    page = page_in_function(files, "files", "atomic_write")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith(
        "Check the path given to `os.replace(tmp, path)`, which failed: the directory `path` "
        "(the argument `path` of `atomic_write`) goes in must exist and be writable"
    ), texts
    assert "`tmp` must exist" not in texts[0]


def test_a_path_the_user_gives_is_still_to_check(files: Store) -> None:
    page = page_in_function(files, "files", "read_config")
    assert page.solutions[0].text.startswith("Check the path given to `open(path)`")
