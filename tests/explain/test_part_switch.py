"""A setting's name is read by a part of a condition only as a whole name: through the
local a part reads, `envs.X` is not read by `envs.X_STRICT` (a substring of another name)."""

from __future__ import annotations

import ast

from errdex.explain.part_switch import _reads


def part(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_a_local_bound_to_the_setting_reads_it() -> None:
    bound = {"always": "envs.WAYS_ALWAYS and not forced", "field": "envs.WAYS_ALWAYS.size"}
    assert _reads(part("not always"), "envs.WAYS_ALWAYS", bound)
    assert _reads(part("field > 2"), "envs.WAYS_ALWAYS", bound)


def test_a_local_bound_to_a_longer_name_does_not_read_it() -> None:
    bound = {"strict": "envs.WAYS_ALWAYS_STRICT", "other": "cfg.envs.WAYS_ALWAYS"}
    assert not _reads(part("not strict"), "envs.WAYS_ALWAYS", bound)
    assert not _reads(part("other is None"), "envs.WAYS_ALWAYS", bound)
    assert not _reads(part("x"), "tools", {"x": "constrained_tools is None"})
