"""The enum members a file writes as a value (code that picks the member), not those it
only tests."""

from __future__ import annotations

from errdex.extract.registries import member_picks


def test_a_member_returned_appended_or_looped_over_is_picked() -> None:
    text = (
        "def cpu():\n"
        "    return Backend.CPU.get_path()\n"
        "def rocm(backends):\n"
        "    backends.append(Backend.ROCM)\n"
        "    for b in (Backend.FLASH, Backend.TRITON):\n"
        "        pass\n"
    )
    assert member_picks(text) == ("Backend.CPU", "Backend.ROCM", "Backend.FLASH", "Backend.TRITON")


def test_a_member_compared_or_tested_for_membership_is_not_picked() -> None:
    text = (
        "if config.backend != Backend.HPC:\n"
        "    pass\n"
        "ok = backend is Backend.B12X or backend == Backend.FLEX\n"
        "if backend in (Backend.ONE, Backend.TWO):\n"
        "    pass\n"
    )
    assert member_picks(text) == ()
