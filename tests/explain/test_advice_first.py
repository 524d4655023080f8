"""The message's own advice comes before a way out through the argument of a function no
user calls (a model's processor deep in the package), and after the argument of one the
package hands to users."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

PROCESSOR = """
    class ImageProcessor:
        def apply(self, inputs, special_tokens):
            if inputs.mm_items and not all(t in special_tokens for t in inputs.prompt):
                raise ValueError(
                    "Accepts text-only or image-only inputs, not both! "
                    "You must pass an image with an empty token prompt."
                )
            return inputs
    """

API = """
    def open_it(path, mode=None):
        if mode is not None:
            raise ValueError("a mode is not taken here. Use open_other instead.")
        return path


    def open_other(path, mode):
        return path, mode
    """


RELATIONS = """
    class Comparator:
        def __init__(self, prop):
            self.prop = prop

        def __eq__(self, other):
            if other is None:
                return "NOT EXISTS"
            elif self.prop.uselist:
                raise TypeError(
                    "Can't compare a collection to an object or collection; "
                    "use contains() to test for membership."
                )
            return "="
    """


@pytest.fixture(scope="module")
def procs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {
        "procs/__init__.py": "",
        "procs/models/__init__.py": "",
        "procs/models/images.py": PROCESSOR,
        "procs/api.py": API,
        "procs/relations.py": RELATIONS,
    }
    yield from indexed_package(tmp_path_factory.mktemp("procs"), "procs", files)


def test_the_message_s_advice_comes_before_an_internal_function_s_argument(
    procs: Store,
) -> None:
    page = page_with_message(procs, "procs", "Accepts text-only")
    texts = [s.text for s in page.solutions]
    assert texts[0] == (
        "Do what the message says: “You must pass an image with an empty token prompt.”"
    )
    assert any("`inputs` of `ImageProcessor.apply`" in t for t in texts[1:])


def test_the_argument_of_a_function_users_call_keeps_its_place(procs: Store) -> None:
    page = page_with_message(procs, "procs", "a mode is not taken")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Leave the argument `mode` of `open_it` out")
    assert any("Use open_other instead." in t for t in texts[1:])


def test_the_operation_the_message_names_comes_before_a_constant_operand(procs: Store) -> None:
    page = page_with_message(procs, "procs", "Can't compare a collection")
    texts = [s.text for s in page.solutions]
    assert texts[0] == ("Do what the message says: “use contains() to test for membership.”")
    assert any(
        t.startswith("Pass None for the argument `other` of `Comparator.__eq__`") for t in texts[1:]
    )
