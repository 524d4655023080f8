"""The key of a JSON-valued flag that makes a helper pick another member for an attribute.

vllm's MoRIIO connector sets `self.mode = get_moriio_mode(self.kv_transfer_config)`, and
`get_moriio_mode(kv_transfer_config: KVTransferConfig)` returns `MoRIIOMode.READ` when
`read_mode`, computed from `kv_transfer_config.kv_connector_extra_config.get("read_mode",
"false")` and tested `in ("true", "1")`, is true. So "Use READ mode" is `--kv-transfer-config
'{"kv_connector_extra_config": {"read_mode": "true"}}'`: the flag is the one whose value the
store's knobs on the sites of either file declare as that parameter's class. Read at page
time, only for a member a sibling check advises; nothing is offered where any step is not
found as written here.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.input_nodes import field_key
from errdex.explain.outline import any_import, defining, top_module
from errdex.explain.page import ExampleFix
from errdex.explain.table_lookup import imported_from
from errdex.facts import KnobKind
from errdex.store import Store
from errdex.store.base import StoredSite

__all__ = ["MemberSetting", "member_setting"]


@dataclass(frozen=True)
class MemberSetting:
    flag: str  # `--kv-transfer-config`
    field: str  # the object's dict field: `kv_connector_extra_config`
    key: str  # `read_mode`
    value: object  # what the key is given: `"true"`
    helper: str  # `get_moriio_mode`
    where: str  # `path:line` of the helper's return of the member
    command: str | None  # the program's command line, when known

    def _json(self, value: object) -> str:
        return json.dumps({self.field: {self.key: value}})

    def words(self) -> str:
        return (
            f"pass `{self.flag} '{self._json(self.value)}'` (with the rest of your "
            f"{self.flag} fields): `{self.helper}` returns that member then ({self.where})"
        )

    def fix(self) -> ExampleFix:
        command = self.command or "COMMAND"
        own = " `MODEL_TAG` stands for your own value." if "MODEL_TAG" in command else ""
        return ExampleFix(
            before=f"{command} {self.flag} '{self._json('VALUE')}'",
            after=f"{command} {self.flag} '{self._json(self.value)}'",
            note=f"`{self.key}` of `{self.field}` decides what `{self.helper}` returns.{own}",
        )


def member_setting(
    store: Store, stored: StoredSite, facts: Facts, left: str, cls: str, member: str
) -> MemberSetting | None:
    """The flag's JSON that makes `left` (set by a helper's call) `cls.member`."""
    source = facts.source_text
    if source is None:
        return None
    called = re.search(rf"^[ \t]*{re.escape(left)}[ \t]*=[ \t]*(\w+)\(", source, re.M)
    if called is None:
        return None
    helper = called[1]
    # the file's top-level imports and the helper's own file's definitions of it, parsed
    # alone where the store keeps their outlines (not two whole files)
    tree = facts.top_module(any_import)
    if tree is None:
        return None
    path = imported_from(tree, helper, stored.file)
    text = store.file_text(stored.version_id, path) if path else None
    outline = store.file_outline(stored.version_id, path) if path and text else None
    module = top_module(text, outline, defining(helper))
    function = next(
        (
            f
            for f in (module.body if module else [])
            if isinstance(f, ast.FunctionDef) and f.name == helper
        ),
        None,
    )
    if function is None or path is None:
        return None
    picked = _picked_by(function, cls, member)
    if picked is None:
        return None
    (param, field, key, value), line = picked
    declared = _annotation(function, param)
    flag = _flag_of(store, stored, [stored.file, path], declared) if declared else None
    if flag is None:
        return None
    name, command = flag
    return MemberSetting(name, field, key, value, helper, f"{path}:{line}", command)


def _picked_by(
    function: ast.FunctionDef, cls: str, member: str
) -> tuple[tuple[str, str, str, object], int] | None:
    """`(param, field, key, value)` of `param.field.get("key", ...)` behind the test under
    which the function returns `cls.member`, with the return's line."""
    assigned = {
        t.id: s.value
        for s in walk(function)
        if isinstance(s, ast.Assign)
        for t in s.targets
        if isinstance(t, ast.Name)
    }
    params = {a.arg for a in function.args.args}
    for node in walk(function):
        if not isinstance(node, ast.If) or not node.body:
            continue
        returned = node.body[0]
        if not (isinstance(returned, ast.Return) and _is_member(returned.value, cls, member)):
            continue
        test = node.test
        if isinstance(test, ast.Name):
            test = assigned.get(test.id, test)
        read = _key_read(test, params)
        if read is not None:
            return read, returned.lineno
    return None


def _is_member(node: ast.expr | None, cls: str, member: str) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == member
        and isinstance(node.value, ast.Name)
        and node.value.id == cls
    )


def _key_read(test: ast.expr, params: set[str]) -> tuple[str, str, str, object] | None:
    """The parameter's dict field and key the test reads, with the value that makes it
    true: the first string of `... in ("true", "1")`, else JSON true."""
    value: object = True
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In)
        and isinstance(test.comparators[0], ast.Tuple | ast.List | ast.Set)
    ):
        strings = [
            e.value
            for e in test.comparators[0].elts
            if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
        if not strings:
            return None
        value = strings[0]
    for node in walk(test):
        # `param.field.get("key")` or `param.field["key"]`
        read = field_key(node) if isinstance(node, ast.expr) else None
        if read is None:
            continue
        owner, key = read
        if (
            isinstance(owner, ast.Attribute)
            and isinstance(owner.value, ast.Name)
            and owner.value.id in params
        ):
            return owner.value.id, owner.attr, key, value
    return None


def _annotation(function: ast.FunctionDef, param: str) -> str | None:
    for arg in function.args.args:
        if arg.arg == param and isinstance(arg.annotation, ast.Name):
            return arg.annotation.id
    return None


def _flag_of(
    store: Store, stored: StoredSite, paths: list[str], declared: str
) -> tuple[str, str | None] | None:
    """The flag whose value the knobs of the files' sites declare as the class."""
    pattern = re.compile(rf"\b{re.escape(declared)}\b")
    for site in store.sites_in_files(paths, version=stored.version, project=stored.project):
        for knob in site.knobs:
            if knob.kind == KnobKind.FLAG and pattern.search(knob.value_type or ""):
                return knob.name, knob.command
    return None
