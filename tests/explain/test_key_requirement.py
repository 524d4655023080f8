"""One key of a mapping the user hands a public function (`params.extra_args.get("k")`),
checked against what the message says it must be: the way out is that key with the
message's requirement, before emptying the whole mapping; nothing for a key of a mapping
the function builds itself, or for a message that speaks of something else."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

DIFF = {
    "diff/__init__.py": "",
    "diff/requests.py": """
        def validate(params, *, width_limit):
            extra = params.extra_args
            if not extra:
                return

            read_only = extra.get("read_only")
            if read_only is not None:
                if not (isinstance(read_only, (bool, int)) and read_only in (0, 1)):
                    raise ValueError("read_only must be a boolean (or 0/1).")

            seed = extra.get("seed_canvas")
            if seed is not None:
                if not all(0 <= t < width_limit for t in seed):
                    raise ValueError("seed_canvas ids must be below the limit.")
                if len(seed) != len(extra.get("pins") or ()):
                    raise ValueError("seed_canvas must be pinned.")

            made = {"steps": params.steps}
            steps = made.get("steps")
            if steps is not None and steps < 1:
                raise ValueError("steps must be positive.")


        class Reader:
            def read(self, options):
                size = options.get("size")
                if size is not None:
                    if not self.accepts(size):
                        raise ValueError("size must be one the reader accepts.")
        """,
}


@pytest.fixture(scope="module")
def diff(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("diff"), "diff", DIFF)


def _texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "diff", message).solutions]


def test_the_key_with_the_message_s_requirement_comes_first(diff: Store) -> None:
    texts = _texts(diff, "read_only must be")
    assert texts[0] == (
        "Give the key `'read_only'` of `params.extra_args` (the argument `params` of "
        "`validate`) a value as the message says: “read_only must be a boolean (or 0/1).”"
    )
    assert not any("extra_args` is false (empty)" in t for t in texts)


def test_the_function_s_own_arguments_and_the_key_s_items_may_take_part(diff: Store) -> None:
    assert _texts(diff, "seed_canvas ids")[0].startswith("Give the key `'seed_canvas'` of")


@pytest.mark.parametrize(
    "message",
    [
        "seed_canvas must be pinned",  # reads a second key: the message's subject is not all
        "steps must be positive",  # a mapping the function made itself
        "size must be one",  # the object's own state decides it too
    ],
)
def test_nothing_for_another_mapping_or_more_than_one_key(diff: Store, message: str) -> None:
    texts = _texts(diff, message)
    assert not any(t.startswith("Give the key") for t in texts)
    # the mapping's or the option's own way out instead
    assert [t.split(" of ")[0] for t in texts] == [_INSTEAD[message]], texts


_INSTEAD = {
    "seed_canvas must be pinned": "Pass for the argument `params`",
    "steps must be positive": "Pass for the argument `params`",
    "size must be one": "Pass None for the field `size`",
}


READ = {
    "ng/__init__.py": "",
    "ng/procs.py": """
        from collections.abc import Iterable

        from ng.state import LIMITS


        class Processor:
            @classmethod
            def validate_params(cls, params):
                size = params.extra_args and params.extra_args.get("size")
                allowed = params.extra_args and params.extra_args.get("allowed_ids", None)
                if size is None:
                    return None
                if allowed is not None and not isinstance(allowed, Iterable):
                    raise ValueError(f"`allowed_ids` has to be a sequence of ints, got {allowed}.")
                if isinstance(size, int) and size > LIMITS.most:
                    raise ValueError(f"`size` has to be at most the limit, got {size}.")
        """,
    "ng/state.py": """
        class Limits:
            most = 4

        LIMITS = Limits()
        """,
}


@pytest.fixture(scope="module")
def read(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("ng"), "ng", READ)


def test_the_class_a_key_s_value_is_tested_against_is_no_state(read: Store) -> None:
    texts = [s.text for s in page_with_message(read, "ng", "`allowed_ids` has").solutions]
    assert texts[0].startswith(
        "Give the key `'allowed_ids'` of `params.extra_args` (the argument `params` of "
        "`Processor.validate_params`) a value as the message says"
    ), texts
    # an object the program holds, beside the key: not the key alone
    texts = [s.text for s in page_with_message(read, "ng", "`size` has").solutions]
    assert not any(t.startswith("Give the key") for t in texts), texts
    assert texts[0].startswith("Change what you pass for `params` of `Processor.validate_params`")
