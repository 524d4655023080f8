"""What a thing "does not support" is the way out where nothing else is said: use it
without that; not beside another way out, nor for a warning."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.advice import message_advice
from errdex.store import Store

FILES = {
    "roots/__init__.py": """
        from roots.models import Root, compile_only
        """,
    "roots/models.py": """
        class Root:
            config = {}

            def __init_subclass__(cls, **kwargs):
                if cls.config.get("extra") is not None:
                    raise TypeError("`Root` does not support setting `config['extra']`")


        def compile_only(q, dropout=0.0):
            if dropout:
                raise ValueError("The compile-only wrapper does not support dropout")
            return q
        """,
}


@pytest.fixture(scope="module")
def roots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("roots"), "roots", FILES)


def test_what_the_users_class_may_not_set_is_left_unset(roots: Store) -> None:
    page = page_with_message(roots, "roots", "`Root` does not support")
    assert [s.text for s in page.solutions] == [
        "Use `Root` without setting `config['extra']`, as the message says: “`Root` does not "
        "support setting `config['extra']`”"
    ]
    # said again beside the argument that avoids it: left to the argument
    page = page_with_message(roots, "roots", "The compile-only wrapper")
    assert page.solutions
    assert not any("without dropout" in s.text for s in page.solutions)


def test_a_passive_use_is_what_not_to_have_done() -> None:
    (advice,) = message_advice(
        "The tuple type does not support being fetched as a column in a result row."
    )
    assert advice.solution.startswith(
        "Do not have the tuple type fetched as a column in a result row, as the message says"
    )
    # a clause that says something else first, or what is not supported yet: no rule
    assert message_advice("X=1 is enabled but PyTorch does not support 'aot' here.") == []
    assert message_advice("FlexAttention backend does not support quantized kv-cache yet.") == []
    assert message_advice("Mori backend does not support it.") == []
