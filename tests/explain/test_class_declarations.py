"""What a class's own body declares it supports (`explain/class_declarations.py`), the
reading `value_picked` and `stand_ins` share."""

from __future__ import annotations

import ast
import textwrap

from errdex.explain.class_declarations import own_values, supports_value

BACKEND = """
    class OctaveBackend(AttentionBackend):
        supported_kv_cache_dtypes = ["octave_k3v4", "octave_k3v3"]
        supported_dtypes: list = ["float16", "bfloat16"]

        @classmethod
        def supports_block_size(cls, block_size):
            return block_size == "paged"

        def supports_head_size(cls, head_size):
            return head_size % 8 == 0
    """


def own(text: str) -> dict[str, tuple[tuple[str, ...], str | None, str]]:
    (cls,) = ast.parse(textwrap.dedent(text)).body
    assert isinstance(cls, ast.ClassDef)
    return own_values(cls)


def test_a_literal_list_and_a_method_testing_literals_declare_values() -> None:
    found = own(BACKEND)
    assert found["kv_cache_dtype"][:2] == (("octave_k3v4", "octave_k3v3"), None)
    assert found["dtype"][:2] == (("float16", "bfloat16"), None)
    assert "head_size" not in found  # a test of something else than literals: nothing told


def test_a_prefix_a_method_tests_stands_for_the_listed_values() -> None:
    found = own(
        BACKEND.replace(
            'return block_size == "paged"',
            'return block_size.startswith("octave_")',
        ).replace("supports_block_size", "supports_kv_cache_dtype")
    )
    values, prefix, where = found["kv_cache_dtype"]
    assert (values, prefix) == (("octave_k3v4", "octave_k3v3"), "octave_")
    assert "supports_kv_cache_dtype" in where
    assert supports_value("octave_k2", values, prefix)
    assert not supports_value("auto", values, prefix)
