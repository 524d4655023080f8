"""A sibling check's advice on a test both checks hold ("Use READ mode" beside `self.mode ==
Mode.WRITE`): its clause naming another member of the compared class is a way out of this
check too; the clause for the sibling's other tests is not offered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain import build_page
from errdex.facts import SiteKind
from errdex.store import Store

CONN = {
    "conn/__init__.py": "",
    "conn/scheduler.py": """
        import enum


        class Mode(enum.Enum):
            READ = "read"
            WRITE = "write"


        def pick_mode(extra):
            return Mode.READ if extra.get("read_mode") else Mode.WRITE


        class Scheduler:
            def __init__(self, extra, windows, speculative, hybrid):
                self.mode = pick_mode(extra)
                if self.mode == Mode.READ and hybrid:
                    raise ValueError("READ mode needs one attention group")
                if self.mode == Mode.WRITE and windows:
                    raise NotImplementedError(
                        "WRITE mode does not support sliding windows. Use READ mode, "
                        "or pass --no-hybrid."
                    )
                if self.mode == Mode.WRITE and speculative and hybrid:
                    raise NotImplementedError(
                        "speculative decoding is not yet supported for hybrid models"
                    )
                if speculative and hybrid:
                    raise NotImplementedError("speculation needs a full-attention model")


        class Transfer:
            def check(self, role, layout, blocks):
                if role == "consumer" and layout:
                    raise ValueError("a consumer cannot pull this layout; use role producer")
                if role == "consumer" and blocks > 8:
                    raise ValueError("too many blocks to pull")
                if role == "producer":
                    return
                assert not (role == "consumer" and blocks < 0)
        """,
}


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("conn"), "conn", CONN)


def test_the_siblings_clause_on_the_shared_test_is_a_way_out(conn: Store) -> None:
    page = page_with_message(conn, "conn", "speculative decoding is not yet supported")
    first = page.solutions[0].text
    assert first.startswith("Use READ mode, as the check at line 20 of the same function")
    assert "(so that `self.mode` does not equal `Mode.WRITE`)" in first
    assert not any("--no-hybrid" in s.text for s in page.solutions)


def test_a_check_that_holds_no_member_test_gets_no_sibling_advice(conn: Store) -> None:
    page = page_with_message(conn, "conn", "speculation needs a full-attention model")
    assert not any("READ mode" in s.text for s in page.solutions)


def test_another_literal_the_same_test_compares_with_is_a_way_out(conn: Store) -> None:
    page = page_with_message(conn, "conn", "too many blocks to pull")
    assert page.solutions[0].text.startswith("Use role producer, as the check at line 35")


def test_an_assert_gets_no_sibling_advice(conn: Store) -> None:
    # an `assert` holds the program's own state: another check's advice is no way out
    stored = next(s for s in conn.list_sites(project="conn") if s.site.kind == SiteKind.ASSERT)
    page = build_page(conn, stored.id)
    assert not any("producer" in s.text for s in page.solutions)


KV = {
    "kv/__init__.py": "",
    "kv/config.py": """
        from dataclasses import dataclass, field


        @dataclass
        class KVConfig:
            extra: dict = field(default_factory=dict)


        @dataclass
        class EngineConfig:
            kv_config: KVConfig | None = None


        @dataclass
        class EngineArgs:
            kv_config: KVConfig | None = None
        """,
    "kv/common.py": """
        import enum

        from kv.config import KVConfig


        class Mode(enum.Enum):
            READ = "read"
            WRITE = "write"


        def pick_mode(kv_config: KVConfig) -> Mode:
            if not isinstance(kv_config.extra, dict):
                raise TypeError("extra must be a dict")  # a site: the store keeps the file
            read_mode = str(kv_config.extra.get("read_mode", "false")).lower() in ("true", "1")
            if read_mode:
                return Mode.READ
            return Mode.WRITE
        """,
    "kv/scheduler.py": """
        from kv.common import Mode, pick_mode


        class Scheduler:
            def __init__(self, engine_config, windows, speculative):
                if engine_config.kv_config is None:
                    raise ValueError("a kv_config is needed")
                self.mode = pick_mode(engine_config.kv_config)
                if self.mode == Mode.READ and windows > 8:
                    raise ValueError("too many windows to read")
                if self.mode == Mode.WRITE and windows:
                    raise NotImplementedError("WRITE mode lacks windows. Use READ mode.")
                if self.mode == Mode.WRITE and speculative:
                    raise NotImplementedError("speculative decoding is not yet supported")
        """,
}


@pytest.fixture(scope="module")
def kv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kv"), "kv", KV)


def test_the_flags_key_that_picks_the_advised_member_is_named_with_a_fix(kv: Store) -> None:
    page = page_with_message(kv, "kv", "speculative decoding is not yet supported")
    first = page.solutions[0]
    assert first.text.startswith(
        'Use READ mode: pass `--kv-config \'{"extra": {"read_mode": "true"}}\'`'
    )
    assert first.fix is not None and first.fix.after.endswith(
        '--kv-config \'{"extra": {"read_mode": "true"}}\''
    )
