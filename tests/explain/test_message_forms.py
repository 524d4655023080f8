"""Messages that say what the input must be or what must have happened first: "Field
definitions should be a ..." of a public function's `**field_definitions` is a change of
what the user passes; "may only be accessed after the reply has been read or closed" of a
property is a call of the class's own `read()` first, drawn as the fix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FORMS = {
    "forms/__init__.py": """
        from forms.models import Reply, make_model, merge
        """,
    "forms/models.py": """
        class Reply:
            def __init__(self, body=None):
                self.body = body

            @property
            def elapsed(self):
                if not hasattr(self, "_elapsed"):
                    raise RuntimeError(
                        "'.elapsed' may only be accessed after the reply has been read or closed."
                    )
                return self._elapsed

            @property
            def size(self):
                if not hasattr(self, "_size"):
                    raise RuntimeError(
                        "'.size' may only be accessed after the stream has been opened."
                    )
                return self._size

            def read(self):
                self._elapsed = 1
                return self.body

            def close(self):
                self._elapsed = 1


        def make_model(name, **field_definitions):
            for key, value in field_definitions.items():
                if not isinstance(value, tuple):
                    raise TypeError("Field definitions should be a (<type>, <default>) tuple")
            return name


        def _helper(field_definitions):
            if not field_definitions:
                raise ValueError("Field definitions should be a non-empty mapping")


        def merge(tensors, warmup):
            if warmup.pending:
                raise RuntimeError("all compilation should be complete before the run")
            return tensors
        """,
    "forms/ops/__init__.py": "",
    "forms/ops/kernels/__init__.py": "",
    "forms/ops/kernels/impl.py": """
        def run_decode(q):
            if not hasattr(q, "shape"):
                raise TypeError("q must be a tensor")
            return q
        """,
}


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("forms"), "forms", FORMS)


def test_a_stated_form_of_a_public_parameter_is_what_to_pass(forms: Store) -> None:
    page = page_in_function(forms, "forms", "make_model")
    assert page.solutions[0].text.startswith(
        "Change what you pass for `field_definitions` of `make_model` as the message says"
    )


def test_no_stated_form_for_a_private_function_or_a_subject_passed_nowhere(forms: Store) -> None:
    for function in ("_helper", "merge"):
        page = page_in_function(forms, "forms", function)
        assert not any(s.text.startswith("Change what you pass") for s in page.solutions)


def test_no_stated_form_for_a_function_deep_in_the_package(forms: Store) -> None:
    # `forms.ops.kernels.impl`: the package's internals take their arguments from itself
    page = page_in_function(forms, "forms", "run_decode")
    assert not any(s.text.startswith("Change what you pass") for s in page.solutions)


def test_read_or_closed_first_draws_the_call_of_the_class_own_method(forms: Store) -> None:
    page = page_in_function(forms, "forms", "Reply.elapsed")
    fix = page.solutions[0].fix
    assert fix is not None, page.solutions
    assert fix.after == "reply.read()"
    assert "`forms.Reply`" in fix.note


def test_no_first_call_when_the_sentence_speaks_of_another_object(forms: Store) -> None:
    page = page_in_function(forms, "forms", "Reply.size")
    assert all(s.fix is None for s in page.solutions)
