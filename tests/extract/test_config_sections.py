"""A configuration class's keys that are sections (`hisparse_config: HiSparseConfig | None`)
and the keys it requires (no default): whether `{}` is a value of a section."""

from __future__ import annotations

from extract_samples import facts_of


def test_sections_and_required_keys_are_listed() -> None:
    facts = facts_of(
        """
        from typing import Optional

        from pydantic import Field


        class AttentionConfig:
            sparse_config: SparseConfig | None = None
            old_config: Optional["OldConfig"] = None
            either: SparseConfig | OldConfig | None = None
            plain: int = 1
            size: int = Field(default=None, gt=0)
            made: list[int] = Field(default_factory=list)
            needed: int
            bounded: int = Field(gt=0)
            given: int = Field(...)
        """
    )
    (cls,) = facts.classes
    assert cls.sections == {"sparse_config": "SparseConfig", "old_config": "OldConfig"}
    assert cls.required == ("needed", "bounded", "given")


def test_a_section_written_through_union_or_its_module() -> None:
    facts = facts_of(
        """
        from typing import Union

        from eng import sparse


        class AttentionConfig:
            a_config: Union[SparseConfig, None] = None
            b_config: sparse.SparseConfig | None = None
            c_config: "sparse.SparseConfig | None" = None
        """
    )
    (cls,) = facts.classes
    assert cls.sections == {
        "a_config": "SparseConfig",
        "b_config": "SparseConfig",
        "c_config": "SparseConfig",
    }
