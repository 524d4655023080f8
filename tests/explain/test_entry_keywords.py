"""A flag's field reached only through a public class that builds the arguments from its
own `**kwargs` (`LLM(**kwargs)` → `EngineArgs(**kwargs)`): the page offers that class's
keyword with the value written out, not the flag, and says the class's own default."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store
from kept_attribute_samples import ENGINE

ENG = {
    "eng/__init__.py": "",
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            model: str = "m"
            disable_log_stats: bool = False

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--disable-log-stats", action="store_true")
                return parser
        """,
    "eng/engine.py": ENGINE,
    "eng/client.py": """
        from eng.args import EngineArgs
        from eng.engine import Engine


        class Client:
            def __init__(self, model: str, seed: int = 0, **kwargs):
                if "disable_log_stats" not in kwargs:
                    kwargs["disable_log_stats"] = True
                engine_args = EngineArgs(model=model, **kwargs)
                self.engine = Engine.from_engine_args(engine_args=engine_args)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_the_public_class_keyword_is_offered_with_its_value(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Stat logging disabled")
    first = page.solutions[0]
    assert first.text.startswith(
        "Pass `disable_log_stats=False` to `eng.client.Client` (left out, `Client` gives it `True`)"
    ), first.text
    assert not any("--disable-log-stats" in s.text for s in page.solutions)
    assert page.example_fix is not None
    assert "Client(model=MODEL, disable_log_stats=False)" in page.example_fix.after
