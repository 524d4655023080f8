"""A configuration class's keys declared a yes/no or None (`dp_shared_memory: bool | None =
None`): a key whose `true` and `false` its validator takes, whatever its default."""

from __future__ import annotations

from extract_samples import facts_of


def test_a_key_declared_bool_or_none_is_listed() -> None:
    facts = facts_of(
        """
        from typing import Optional


        class EngramConfig:
            shared: bool | None = None
            mirrored: Optional[bool] = None
            pinned: bool = False
            pool: str | None = None
        """
    )
    (cls,) = facts.classes
    assert cls.optional_bools == ("shared", "mirrored")
