"""A method's check of `self.rank`, which the constructor took from a field of the record
the user built, asks for that keyword of the record when the message names the field; an
attribute the class changes later, or a field no message names, gets no such way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_with_message

from errdex.store import Store

FILES = {
    "trainer/__init__.py": "",
    "trainer/base.py": """
        from dataclasses import dataclass, field


        @dataclass
        class InitInfo:
            rank: int = field(kw_only=True)


        class Engine:
            def __init__(self, *, client, rank: int = 0) -> None:
                self.client = client
                self.rank = rank

            def send(self, payload):
                if self.client is None:
                    raise RuntimeError("No client to send to.")
                self.client.send(payload)
        """,
    "trainer/sharded.py": """
        from dataclasses import dataclass
        from typing import Optional

        import torch

        from trainer.base import Engine, InitInfo


        @dataclass
        class ShardedInitInfo(InitInfo):
            consumers: int
            step: int = 0


        class ShardedEngine(Engine):
            def __init__(self, *, client, init_info: ShardedInitInfo) -> None:
                super().__init__(client=client, rank=init_info.rank)
                self.step = init_info.step
                self.consumers = init_info.consumers

            def world_and_rank(self):
                rank = self.rank
                if torch.distributed.get_rank() != rank:
                    raise ValueError(
                        f"Sharding needs InitInfo.rank ({rank}) to be the default group rank."
                    )
                return rank

            def advance(self):
                if self.step != torch.distributed.get_rank():
                    raise ValueError(f"ShardedInitInfo.step ({self.step}) is out of turn.")
                self.step += 1

            def sender(self):
                if self.rank != 0:
                    raise ValueError(f"Only InitInfo.rank 0 sends, not {self.rank}.")

            def consumers_left(self):
                if self.consumers != torch.distributed.get_world_size():
                    raise ValueError(f"Have {self.consumers} consumers for the group.")


        class ReplicaEngine(Engine):
            def __init__(self, *, client, init_info: Optional[ShardedInitInfo] = None) -> None:
                super().__init__(client=client, rank=init_info.rank)

            def check_rank(self):
                if torch.distributed.get_rank() != self.rank:
                    raise ValueError(f"Replicas need InitInfo.rank ({self.rank}) to match.")
        """,
}


@pytest.fixture(scope="module")
def trainer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("trainer"), "trainer", FILES)


def test_a_record_field_the_base_keeps_is_the_keyword_to_give(trainer: Store) -> None:
    page = page_with_message(trainer, "trainer", "Sharding needs")
    assert page.solutions[0].text == (
        "Build the `ShardedInitInfo` with `rank=` equal to `torch.distributed.get_rank()`: "
        "`ShardedEngine` keeps its `init_info.rank` as `self.rank` (line 18), and this check "
        "(line 24) needs the two to agree, as the message says of `InitInfo.rank`."
    )


def test_an_attribute_the_class_changes_later_is_no_keyword(trainer: Store) -> None:
    page = page_with_message(trainer, "trainer", "ShardedInitInfo.step")
    assert not any(s.text.startswith("Build the") for s in page.solutions)
    assert offered(page) == [] and checks(page)


def test_a_field_no_message_names_is_no_keyword(trainer: Store) -> None:
    page = page_with_message(trainer, "trainer", "Have ")
    assert not any(s.text.startswith("Build the") for s in page.solutions)
    assert offered(page) == [] and checks(page)


def test_a_literal_the_field_is_compared_with_is_no_value_to_give(trainer: Store) -> None:
    page = page_with_message(trainer, "trainer", "Only InitInfo.rank 0")
    assert not any(s.text.startswith("Build the") for s in page.solutions)
    assert offered(page) == [] and checks(page)


def test_a_record_annotated_as_optional_is_the_record(trainer: Store) -> None:
    # `Optional[ShardedInitInfo]` (or `ShardedInitInfo | None`) still names the record
    page = page_with_message(trainer, "trainer", "Replicas need")
    assert page.solutions[0].text.startswith(
        "Build the `ShardedInitInfo` with `rank=` equal to `torch.distributed.get_rank()`"
    ), page.solutions
