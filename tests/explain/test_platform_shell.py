"""A fix for a check met only on Windows is written for PowerShell, with cmd.exe's line in
the note; elsewhere, and on a path that holds off Windows, it stays a POSIX shell's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.page import ExampleFix, Page
from errdex.explain.platform_shell import powershell_form
from errdex.store import Store

SHELL = {
    "shell/__init__.py": "",
    "shell/console.py": """
        import os
        import platform
        import sys

        WINDOWS = platform.system() == "Windows"


        def flush(text, stream):
            if WINDOWS:
                try:
                    stream.write(text)
                except UnicodeEncodeError:
                    raise ValueError(
                        "win: you may need to add PYTHONIOENCODING=utf-8 to your environment"
                    )
            else:
                try:
                    stream.write(text)
                except UnicodeEncodeError:
                    raise ValueError(
                        "posix: you may need to add PYTHONIOENCODING=utf-8 to your environment"
                    )


        def spawn(args):
            if os.name != "nt":
                return args
            raise ValueError("nt: you may need to add PYTHONIOENCODING=utf-8 to your environment")


        def pipe(args):
            if sys.platform.startswith("win"):
                raise ValueError("win32: add PYTHONIOENCODING=utf-8 to your environment")
            return args
        """,
}


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shell"), "shell", SHELL)


def _fix(page: Page) -> ExampleFix:
    assert page.example_fix is not None, page.solutions
    return page.example_fix


def test_a_check_under_a_windows_constant_getspowershell_form(shell: Store) -> None:
    fix = _fix(page_with_message(shell, "shell", "win: "))
    assert fix.after == "$env:PYTHONIOENCODING = 'utf-8'"
    assert fix.note is not None and "`set PYTHONIOENCODING=utf-8`" in fix.note
    page = page_with_message(shell, "shell", "win: ")
    assert all(s.fix is None or "export" not in s.fix.after for s in page.solutions)


def test_a_check_off_windows_keeps_the_posix_shell(shell: Store) -> None:
    assert _fix(page_with_message(shell, "shell", "posix: ")).after == (
        "export PYTHONIOENCODING=utf-8"
    )


def test_an_os_name_early_exit_and_a_platform_prefix_are_windows_too(shell: Store) -> None:
    assert _fix(page_with_message(shell, "shell", "nt: ")).after.startswith("$env:")
    assert _fix(page_with_message(shell, "shell", "win32: ")).after.startswith("$env:")


def test_each_posix_form_has_itspowershell_form_line() -> None:
    fix = ExampleFix(before="unset A_B", after="X=1 prog run\nenv -u Y prog\nexport Z='a b'")
    out = powershell_form(fix)
    assert out.before == "Remove-Item Env:A_B"
    assert out.after.split("\n") == [
        "$env:X = '1'; prog run",
        "Remove-Item Env:Y; prog",
        "$env:Z = 'a b'",
    ]
    assert out.note is not None
    assert "`set X=1 && prog run; set Y= && prog; set Z=a b`" in out.note


def test_a_line_not_read_leaves_the_whole_fix_as_it_was() -> None:
    # `X='a b' prog` is no `X=V cmd` of one word: half a fix in each shell runs in neither
    fix = ExampleFix(before="", after="X='a b' prog\nexport Z=1")
    assert powershell_form(fix) is fix
