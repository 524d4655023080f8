"""A permission switch turned off (a config's validation calls a check only `if not
self.<switch>:`, the switch documented "Allow ..."): no way out, said in "What it means"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/config.py": """
        from dataclasses import dataclass

        from pydantic import model_validator


        @dataclass
        class DraftConfig:
            mixed_vocab: bool = False
            '''Allow the draft model's vocabulary to differ from the target's.'''
            strict: bool = False
            '''Check every drafted token.'''
            eager: bool = False
            '''Draft without graphs.'''
            method: str = "draft"

            @model_validator(mode="after")
            def _verify_args(self):
                if not self.strict and self.method == "eagle":
                    raise ValueError("eagle drafting needs strict mode")
                if not self.mixed_vocab:
                    self.check_same_vocab()
                if not self.eager:
                    self.check_graphs()

            def check_graphs(self):
                if self.method == "draft" and not self.eager and self.graph_sizes is None:
                    raise ValueError("graph sizes are needed to draft with graphs")

            def check_same_vocab(self):
                if self.method == "draft" and self.target_vocab != self.draft_vocab:
                    raise ValueError("target and draft vocabularies differ")


        class Proposer:
            def __init__(self, draft_config: DraftConfig):
                self.draft_config = draft_config
                self.mixed_vocab = self.draft_config.mixed_vocab
                self.eager = self.draft_config.eager
                self.strict = self.draft_config.strict

            def first_pass(self):
                if self.mixed_vocab:
                    if self.mapping is None:
                        raise RuntimeError("no vocabulary mapping was built")

            def cached(self):
                if self.eager:
                    if self.cache is None:
                        raise RuntimeError("eager drafting needs a cache")

            def budget(self):
                if self.strict:
                    if self.limit is None:
                        raise RuntimeError("strict drafting needs a limit")
        """,
    "eng/args.py": """
        from dataclasses import dataclass, field

        from eng.config import DraftConfig


        @dataclass
        class EngineArgs:
            draft_config: DraftConfig = field(default_factory=DraftConfig)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_permission_whose_check_applies_off_is_not_offered_turned_off(eng: Store) -> None:
    page = page_with_message(eng, "eng", "no vocabulary mapping was built")
    assert not any('"mixed_vocab": false' in s.text for s in page.solutions), page.solutions
    assert page.example_fix is None or "mixed_vocab" not in page.example_fix.after
    assert (
        "Turning `mixed_vocab` of `--draft-config` off is no way out: it allows what "
        "`DraftConfig.check_same_vocab` refuses (eng/config.py:32), which "
        "`DraftConfig._verify_args` checks only when it is off."
    ) in page.what_it_means


def test_a_check_that_tests_the_setting_among_others_does_not_count(eng: Store) -> None:
    # `if not self.strict and self.method == "eagle"` refuses another value with it: no
    # permission, and no check called only with it off
    page = page_with_message(eng, "eng", "strict drafting needs a limit")
    assert any('"strict": false' in s.text for s in page.solutions), page.solutions
    assert "no way out" not in page.what_it_means


def test_a_switch_that_is_no_permission_is_still_offered_turned_off(eng: Store) -> None:
    # `eager` is documented as a mode, not as allowing anything: the check run with it off
    # (which reads it too) is the mode's own, not one the switch lets the user past
    page = page_with_message(eng, "eng", "eager drafting needs a cache")
    assert any('"eager": false' in s.text for s in page.solutions), page.solutions
