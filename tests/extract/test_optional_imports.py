"""Optional imports: a module-level `try: import` whose handler binds a name to None or
False, also when it catches `ModuleNotFoundError` and re-raises for other modules."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file


def optional(source: str) -> dict[str, str]:
    text = textwrap.dedent(source)
    return dict(extract_file("pkg/mod.py", text.encode()).optional_imports)


def test_a_re_raise_for_other_modules_still_leaves_the_name_none() -> None:
    found = optional(
        """
        try:
            import cutlass.utils.rubin_helpers as rubin_utils
        except ModuleNotFoundError as error:
            if error.name != "cutlass.utils.rubin_helpers":
                raise
            rubin_utils = None
        """
    )
    assert found == {"rubin_utils": "cutlass.utils.rubin_helpers"}


def test_a_handler_that_only_re_raises_leaves_no_optional_name() -> None:
    found = optional(
        """
        try:
            import fastlib
        except ImportError:
            raise RuntimeError("fastlib is required")
        """
    )
    assert found == {}
