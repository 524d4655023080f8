"""A value every call passes: when each call of an internal function (or class) in the
package gives the parameter a check tests a value that makes the check's condition false
(a literal, a default left as it is, an expression never None), the check is never reached
failing. No way out is offered and "What it means" lists the calls. A call that passes
something else, a `**kwargs`, or a function users are handed keeps the page as it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

KERNELS = {
    "kernels/__init__.py": "",
    "kernels/ops/__init__.py": "",
    "kernels/third_party/__init__.py": "",
    "kernels/third_party/helpers.py": """
        def gemm_partial(op, mbar_ptr=None, mbar_phase=None):
            if mbar_ptr is not None:
                assert mbar_phase is not None, "mbar_phase must be provided with mbar_ptr"
            return op


        def normalize(tensors, spt=None):
            if spt is not None and not isinstance(spt, bool):
                raise ValueError("spt must be a bool when provided")
            return tensors


        class Processor:
            def __init__(self, tokenizer, max_pixels=None):
                assert max_pixels is not None, "max_pixels must be set"
                self.tokenizer = tokenizer
                self.max_pixels = max_pixels


        def reshape(x, dim=None):
            if dim is None:
                raise ValueError("dim must be given")
            return x


        def scale(x, factor=None):
            if factor is None:
                raise ValueError("factor must be given")
            return x


        def shift(x, by=1):
            if by is None:
                raise ValueError("by must not be None")
            return x
        """,
    # more callers than a page keeps (`caller_links`), the one passing something else last
    "kernels/ops/many.py": """
        from kernels.third_party.helpers import scale, shift
        """
    + "".join(
        f"""

        def fixed_{n}(x):
            return scale(x, factor={n + 1})
        """
        for n in range(8)
    )
    + """

        def given(x, factor):
            return scale(x, factor=factor)


        def spread(x, opts):
            shift(x, by=1)
            return shift(x, **opts)


        def checked_many(x):
            assert x, "x is empty here"  # a site: the store keeps this file
            return x
        """,
    "kernels/ops/types.py": """
        class Stamp:
            def __init__(self, timezone=False, local_timezone=False):
                if timezone and local_timezone:
                    raise ValueError("timezone and local_timezone are mutually exclusive")
                self.timezone = timezone
        """,
    "kernels/ops/users.py": """
        from kernels.ops.types import Stamp
        from kernels.third_party.helpers import Processor, gemm_partial, normalize, reshape


        def run(op, ptr, phase):
            gemm_partial(op)
            gemm_partial(op, mbar_ptr=ptr, mbar_phase=phase + 1)


        def attend(tensors):
            return normalize(tensors)


        def build(tokenizer, max_pixels=None, unit=14):
            return Processor(tokenizer, max_pixels=max_pixels or (4096 * unit * unit))


        def flat(x, dim):
            return reshape(x, dim=dim)


        def stamps():
            return [Stamp(timezone=True), Stamp(local_timezone=True)]


        def checked(x):
            # a site of its own: the store keeps the files that hold sites
            assert x, "x is empty"
            return x
        """,
}


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kernels"), "kernels", KERNELS)


def test_every_call_passes_a_value_that_is_never_none(kernels: Store) -> None:
    page = page_in_function(kernels, "kernels", "gemm_partial")
    assert page.solutions == []
    assert page.example_fix is None
    assert "Every call of `gemm_partial` in kernels rules this out:" in page.what_it_means
    assert "`run` passes no `mbar_ptr` (its default is `None`)" in page.what_it_means
    assert "`run` passes `mbar_phase=phase + 1`" in page.what_it_means
    assert "it fails only when `gemm_partial` is called from elsewhere" in page.what_it_means


def test_a_default_left_as_it_is_rules_the_check_out(kernels: Store) -> None:
    page = page_in_function(kernels, "kernels", "normalize")
    assert page.solutions == []
    assert "The one call of `normalize` in kernels rules this out:" in page.what_it_means


def test_a_constructor_given_a_value_or_a_fallback(kernels: Store) -> None:
    page = page_in_function(kernels, "kernels", "Processor.__init__")
    assert page.solutions == []
    assert "passes `max_pixels=max_pixels or 4096 * unit * unit`" in page.what_it_means


def test_a_call_passing_on_its_own_argument_keeps_the_page(kernels: Store) -> None:
    page = page_in_function(kernels, "kernels", "reshape")
    assert "rules this out" not in page.what_it_means
    assert page.solutions


def test_a_public_class_of_a_public_module_keeps_the_page(kernels: Store) -> None:
    # the user may write `Stamp(timezone=True, local_timezone=True)` in their own code
    page = page_in_function(kernels, "kernels", "Stamp.__init__")
    assert "rules this out" not in page.what_it_means
    assert page.solutions


def test_a_call_beyond_those_the_page_keeps_is_counted(kernels: Store) -> None:
    # eight calls pass a number; the ninth passes on its own argument: the page reads the
    # calls it keeps, and only says "every call" when they are all the linker counted
    page = page_in_function(kernels, "kernels", "scale")
    assert "rules this out" not in page.what_it_means
    assert page.solutions


def test_keyword_arguments_passed_on_keep_the_page(kernels: Store) -> None:
    # `shift(x, **opts)` may pass `by=None`: its default (1) is not what that call gives
    page = page_in_function(kernels, "kernels", "shift")
    assert "rules this out" not in page.what_it_means
