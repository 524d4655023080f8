"""Plain flags that write a field of a JSON-valued flag's object over what the JSON says."""

from __future__ import annotations

import ast

from errdex.explain.page import Knob


def overriding_flag(knob: Knob, field: str, value: object) -> tuple[str, str, str] | None:
    """The plain flag that writes `field` of a JSON-valued flag's object to another value
    when given, as (flag, value assigned, `file:line`): `--enable-return-routed-experts` sets
    `enable_return_routed_experts` back to True whatever `--aux-output-config` says, so the
    JSON's value alone does not hold."""
    for written, flag, assigned, where in knob.json_set_by:
        if written != field:
            continue
        try:
            same = ast.literal_eval(assigned) == value
        except (ValueError, SyntaxError, RecursionError):
            same = False
        if not same:
            return flag, assigned, where
    return None


def plain_flag_overrides(knob: Knob, field: str, value: object) -> str:
    """What to leave out beside the JSON (see `overriding_flag`)."""
    found = overriding_flag(knob, field, value)
    if found is None:
        return ""
    flag, assigned, where = found
    return (
        f", and leave `{flag}` out: given, it sets `{field}` to `{assigned}` "
        f"whatever the JSON says ({where})"
    )
