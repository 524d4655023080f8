"""What type the code takes a setting as: a number, a boolean, optional, a JSON object.

Read from the type it declares the knob with (`int | None`), else from how it converts
the value it reads (`int(os.environ[...])`): the action on a knob follows its type.
"""

from __future__ import annotations

from errdex.explain.page import Knob
from errdex.linked_facts import PASSED_KEY, own_key


def numeric(knob: Knob) -> bool:
    """Whether the code declares or converts the knob as a number (not a JSON object of
    fields, whose value no order compares)."""
    declared = (knob.value_type or "").replace(" ", "")
    if declared:
        return declared in ("int", "float", "int|None", "float|None", "None|int", "None|float")
    reads = knob.reads or ""
    return "int(" in reads or "float(" in reads


def optional(knob: Knob) -> bool:
    """`bool | None`: None lets the code choose, so leaving the flag out decides nothing."""
    return "None" in (knob.value_type or "")


def boolish(knob: Knob) -> bool:
    """Whether the code declares or converts the knob as a boolean."""
    declared = (knob.value_type or "").replace(" ", "")
    if declared:
        return declared in ("bool", "bool|None", "Optional[bool]", "None|bool")
    reads = (knob.reads or "").lower()
    return "bool" in reads or knob.name.startswith(("--no-", "--enable-", "--disable-"))


def json_valued(knob: Knob) -> bool:
    """A flag whose value is a JSON object of fields (`--compilation-config '{...}'`): the
    code declares it as a configuration class or a dict."""
    declared = knob.value_type or ""
    return "Config" in declared or declared.startswith(("dict", "Dict"))


def negative_flag(flag: str) -> str | None:
    """`--no-x` of `--x`: the form that gives a `bool | None` field False, where the flag
    pair is made from the field (argparse's `BooleanOptionalAction`); None for a flag that
    is a negative form already, or no long option."""
    if not flag.startswith("--") or flag.startswith("--no-"):
        return None
    return "--no-" + flag[2:]


def held_key(knob: Knob) -> bool:
    """A key of a JSON-valued flag's object that a name of the function holds (`mode =
    compilation_config.mode`, `self.kv_role` set in `__init__`): not a configuration
    class's own key, nor a parameter its callers give."""
    return knob.json_key is not None and not own_key(knob.json_key, knob.via) and not knob.passed_by


def passed_dict_key(knob: Knob) -> bool:
    """A key of a JSON-valued flag's dict that a caller reads and passes as the parameter
    (`resolve(backend)`, the caller's `backend` being `additional_config.get("k",
    "auto")`): the parameter holds that key as it is."""
    return (
        bool(knob.passed_by)
        and knob.json_key is not None
        and not own_key(knob.json_key, knob.via)
        and PASSED_KEY in (knob.via or "")
    )


def valueless_key(knob: Knob) -> bool:
    """A held key that is no yes/no: no value of it is written, only its name. A mode value
    alone may be refused by its class's validator (`profiler` "torch" needs
    `torch_profiler_dir`), and the user's other keys are not known."""
    return held_key(knob) and knob.key_default is None


def nested_key(knob: Knob) -> bool:
    """A key of a free dict that is itself one key of the flag's object (`cpu_bytes` of
    `kv_connector_extra_config`, `--kv-transfer-config`): the JSON nests the two."""
    return knob.dict_key is not None and knob.dict_key != knob.json_key


def key_place(knob: Knob) -> str:
    """Where a held key sits, as the page names it: "`mode` in the JSON of
    `--compilation-config`", "`cpu_bytes` in `kv_connector_extra_config` in the JSON of
    `--kv-transfer-config`"."""
    if nested_key(knob):
        return f"`{knob.dict_key}` in `{knob.json_key}` in the JSON of `{knob.name}`"
    return f"`{knob.json_key}` in the JSON of `{knob.name}`"


def key_json(knob: Knob, value: object) -> dict[str, object]:
    """The JSON object that gives the held key `value`, nested for a dict's key."""
    if nested_key(knob):
        return {knob.json_key or "": {knob.dict_key: value}}
    return {knob.json_key or "": value}
