"""A validator of a flag's value whose check is no shape the input rules put in words says
the value's form in the message's own words, before leaving the flag out; not for a
requirement of something else, nor for a validator that reads more than the value."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store
from samples import BACKEND_ARGS

CONFIG = """
    from pydantic import field_validator


    class AttentionConfig:
        @field_validator("backend", mode="after")
        @classmethod
        def _check_backend(cls, backend):
            if backend is None:
                return None
            for part in backend.split("+"):
                head, tail = part.split(":", 1)
                if len(head) > len(tail):
                    raise ValueError(f"backend parts must be written short:long, but got {part!r}.")
                if head == tail:
                    raise ValueError("the kernel cache must be rebuilt after an upgrade.")
            return backend
    """


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {"eng/__init__.py": "", "eng/args.py": BACKEND_ARGS, "eng/config.py": CONFIG}
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", files)


def test_the_messages_requirement_is_the_flags_form_first(eng: Store) -> None:
    page = page_with_message(eng, "eng", "backend parts must be")
    assert page.solutions[0].text == (
        "Give `--attention-backend` a value in the form its check asks for: "
        "“backend parts must be written short:long.”"
    )


def test_a_sentence_that_is_no_requirement_of_the_value_is_not_its_form(eng: Store) -> None:
    page = page_with_message(eng, "eng", "the kernel cache")
    assert not any("in the form its check asks for" in s.text for s in page.solutions)
