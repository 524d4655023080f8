"""The fields of a configuration class declared as a dict (`ClassFact.dict_valued`): the
ones whose keys a JSON flag's key may hold, alone or as a member of a union."""

from __future__ import annotations

from extract_samples import facts_of


def test_a_dict_field_is_read_through_unions_and_mappings() -> None:
    facts = facts_of(
        """
        import typing
        from typing import Any, Dict, Mapping, Optional, Union


        class LoadConfig:
            plain: dict[str, Any] | None = None
            left: None | dict = None
            optional: Optional[dict[str, Any]] = None
            dotted: typing.Optional[Dict[str, int]] = None
            either: Union[dict, "TensorizerConfig"] = None
            mapping: Mapping[str, int] = None
            quoted: "dict[str, str] | None" = None
            name: str | None = None
            names: list[dict] = None
            count: Optional[int] = None
        """
    )
    (config,) = [c for c in facts.classes if c.name == "LoadConfig"]
    assert config.dict_valued == (
        "plain",
        "left",
        "optional",
        "dotted",
        "either",
        "mapping",
        "quoted",
    )
