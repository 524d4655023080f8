"""A field of a JSON-valued flag's object tested in an `if`/`elif` chain: the value of an
earlier branch picks other code with checks of its own, no way out of this one; a flag's
truth tested earlier, and the `if` of a plain `else` that raises, stay ways out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class SpecConfig:
            method: str = "ngram"
            backend: str = "fast"
            fast_path: bool = False


        class Runner:
            def propose(self):
                if self.spec_config.method == "ngram":
                    drafts = 1
                elif self.spec_config.method == "custom":
                    drafts = 2
                elif self.spec_config.method == "suffix":
                    raise ValueError("suffix drafts need a cache")
                return drafts

            def slow(self):
                if self.spec_config.fast_path:
                    return 1
                elif self.spec_config.method == "ngram":
                    raise ValueError("ngram runs slow here")

            def pick(self):
                if self.spec_config.backend == "fast":
                    return 1
                else:
                    raise ValueError("only the fast backend is built")
        """,
    "eng/args.py": """
        from dataclasses import dataclass, field

        from eng.config import SpecConfig


        @dataclass
        class EngineArgs:
            spec_config: SpecConfig = field(default_factory=SpecConfig)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_an_earlier_branch_of_an_elif_chain_is_no_way_out(eng: Store) -> None:
    page = page_with_message(eng, "eng", "suffix drafts need a cache")
    texts = " ".join(s.text for s in page.solutions)
    assert '"ngram"' not in texts
    assert '"custom"' not in texts
    # the branch's own test stays the way out (the page is not left empty)
    assert "`--spec-config`" in texts
    assert "does not equal `'suffix'`" in texts
    # a flag's truth in an earlier branch may be the way the code asks for: it stays
    page = page_with_message(eng, "eng", "ngram runs slow here")
    texts = " ".join(s.text for s in page.solutions)
    assert "Pass `--spec-config '{\"fast_path\": true}'`" in texts
    # the `if` of a plain `else` that raises stays the way out
    page = page_with_message(eng, "eng", "only the fast backend is built")
    texts = " ".join(s.text for s in page.solutions)
    assert 'Pass `--spec-config \'{"backend": "fast"}\'`' in texts
