"""A check in an internal function on the argument a public call hands it as it is: the way
out names that call's argument and a value that passes the check, where the input rules can
say one; else the check is said as it is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "shop/__init__.py": "from shop.api import factory, hash_kwargs, run, score\n",
    "shop/_checks.py": """
        def _hasher(algorithm):
            if algorithm not in ("blake3", "sha256", "sha512"):
                raise ValueError(f"Unsupported hash algorithm: {algorithm}")
            return len(algorithm)


        def _distill(params):
            if params and not isinstance(params[0], tuple):
                raise TypeError("List argument must consist only of tuples")
            return params


        def _factory(kind):
            if kind == "blake3":
                import hashlib
                return hashlib.blake2b
            elif kind == "sha256":
                return 256
            elif kind == "sha512":
                return 512
            else:
                raise ValueError(f"Unsupported hasher kind: {kind}")


        def _multimodal(is_multimodal_model):
            if not is_multimodal_model:
                raise ValueError("Multimodal inputs are not supported for this model")
        """,
    "shop/api.py": """
        from shop._checks import _distill, _factory, _hasher, _multimodal


        def factory(data, kind="blake3"):
            if data is None:
                raise TypeError("data is required")
            made = _factory(kind)
            return made, data


        def hash_kwargs(data, algorithm="sha256"):
            if data is None:
                raise TypeError("data is required")
            size = _hasher(algorithm)
            return size, data


        def run(statement, parameters=None):
            if statement is None:
                raise TypeError("statement is required")
            rows = _distill(parameters)
            return statement, rows


        def score(data, is_multimodal_model=False):
            if data is None:
                raise TypeError("data is required")
            _multimodal(is_multimodal_model)
            return data
        """,
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shop"), "shop", FILES)


def test_the_values_the_check_takes_are_named_on_the_public_call(shop: Store) -> None:
    page = page_with_message(shop, "shop", "Unsupported hash algorithm")
    assert page.solutions[0].text == (
        "Pass the argument `algorithm` of `shop.hash_kwargs` (it reaches `_hasher`) as one of "
        "`'blake3'`, `'sha256'`, `'sha512'`."
    )


def test_a_value_taken_back_is_no_value_that_passes(shop: Store) -> None:
    # an empty `parameters` gets past `params and ...`, and drops the user's parameters:
    # the check is said as it is
    page = page_with_message(shop, "shop", "List argument must consist only of tuples")
    texts = [s.text for s in page.solutions]
    assert not any("empty (false) value" in t for t in texts)
    assert any(
        t.startswith("Change the argument `parameters` you pass to `shop.run`: it reaches")
        for t in texts
    )


def test_a_predicate_of_what_a_thing_is_is_not_turned_over(shop: Store) -> None:
    # `is_multimodal_model=True` says the model is what it is not
    page = page_with_message(shop, "shop", "Multimodal inputs are not supported")
    assert not any("non-empty (true) value" in s.text for s in page.solutions)


def test_the_values_earlier_arms_give_back_are_named_with_the_last(shop: Store) -> None:
    # `if kind == "blake3": ... return` and the other arms before the `else` that raises:
    # each value they take passes, not only the last arm's
    page = page_with_message(shop, "shop", "Unsupported hasher kind")
    assert page.solutions[0].text == (
        "Pass the argument `kind` of `shop.factory` (it reaches `_factory`) as one of "
        "`'blake3'`, `'sha256'`, `'sha512'`."
    )
