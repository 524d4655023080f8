"""The keyword of the user's call behind `self.attr` where no `__init__` of the class says it.

The extraction maps `self.attr` to a constructor keyword from the class's own `__init__`
(`init_params`). Two classes a user makes have none to read, and their checks used to read as
the program's own state:

- a class whose annotated fields are its keywords (`@dataclass`, a `msgspec.Struct`, a
  `NamedTuple`): `LoRARequest(lora_name, lora_int_id, lora_path)` checks `self.lora_path` in
  its `__post_init__`, which sees the fields as the call gave them until it assigns one;
- a class whose `__init__` hands its other keywords on to its base's with `**kwargs`
  (click's `Option(..., **attrs)` → `Parameter.__init__(nargs=...)`, which sets
  `self.nargs = nargs`), and assigns the attribute nowhere itself.

Either way the attribute is the keyword the user wrote, as the input rules take it.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts, class_in_file
from errdex.explain.item_fields import own_init
from errdex.explain.library_export import library_export, module_all
from errdex.explain.outside_writes import written_outside
from errdex.extract.setters import init_params
from errdex.extract.shapes import self_attribute, tested_absent
from errdex.facts import KnobKind

__all__ = [
    "base_name",
    "class_named",
    "declared_fields",
    "declared_keyword",
    "declared_required",
    "exported_record",
    "fields_class",
    "self_assignments",
    "super_init_call",
]

_STRUCT_BASES = frozenset({"Struct", "NamedTuple"})
_MAX_DOTS = 2  # `vllm.sampling_params.SamplingParams`: a class its users make
_HEADER_WINDOW = 300  # characters before and after a class's header its decorators fit in
_MAX_BASES = 3  # how many fields classes up a class's bases its inherited fields are read


def declared_keyword(
    facts: Facts, owner: str, attribute: str, *, record: bool = False
) -> str | None:
    """The keyword of `owner`'s call that `self.<attribute>` is as given at the site, or
    None when the class's code may have changed it (or none is known). With `record`, a
    record its module exports at any depth (`exported_record`) is a class users make too:
    for a rule the message itself states, not one read off the check (a record's check of
    one field against another, `rank != 0`, tells which of the two is the user's to change
    no more than depth does), and a field no code of the class writes, nor code outside it
    on an object it holds (`outside_writes`), is as given to whichever of its methods checks
    it."""
    if "." in owner or attribute.startswith("_"):
        return None
    if any(k.kind == KnobKind.FLAG for k in facts.knobs):
        return None  # a config class whose fields are flags: the user sets those instead
    if not _users_class(facts) and not (record and exported_record(facts)):
        return None  # a class of the package's internals: no call a user writes
    method = facts.stored.site.function.rpartition(".")[2]
    # what the text says first: most methods are none of these, and their class (thousands
    # of lines at times) is not parsed then
    if method == "__init__":
        function = facts.site_function()
        if function is None or function.args.kwarg is None:
            return None
    else:
        text = facts.source_text or ""
        if "__post_init__" not in text:
            return None
        if method != "__post_init__" and f"self.{method}(" not in text:
            return None
        if not _header_may_declare(text, owner):
            return None
    cls = class_in_file(facts, owner)
    if cls is None:
        return None
    if method == "__init__":
        return _handed_to_base(facts, cls, attribute)
    if not fields_class(cls) or attribute not in _record_fields(facts, cls, attribute):
        return None
    if _assigned_before(facts, attribute):
        return None
    if method == "__post_init__":
        return attribute
    # a check `__post_init__` runs itself (`self._verify_args()`), before it sets the field
    called = _called_from_post_init(cls, method)
    if called is None:
        # a check run after construction (`params.verify()`, by the code the record is
        # handed to) sees the field as the call gave it, for a rule the message states,
        # when no code of the class ever writes it, nor code outside it on the object
        # (`job.token_ids = tokenize(prompt)` before `job.verify()`)
        if not record or self_assignments(cls, attribute) != 0:
            return None
        return None if written_outside(facts, attribute) else attribute
    post, line = called
    if self_assignments(post, attribute, line) > len(_normalized(post, attribute, line)):
        return None
    return attribute


def _called_from_post_init(cls: ast.ClassDef, method: str) -> tuple[ast.FunctionDef, int] | None:
    """(`__post_init__`, the line of its call) when the class's `__post_init__` calls
    `self.<method>()` itself."""
    post = _post_init(cls)
    if post is None:
        return None
    for node in walk(post):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == method
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"
        ):
            return post, node.lineno
    return None


def _post_init(cls: ast.ClassDef) -> ast.FunctionDef | None:
    return next(
        (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__post_init__"),
        None,
    )


def _users_class(facts: Facts) -> bool:
    """Whether users make the site's class: the package exports it at most `_MAX_DOTS`
    dots deep (`vllm.sampling_params.SamplingParams`, `click.Option`), or one more when it
    re-exports it from its module (`vllm.v1.engine.LoRARequest` of `vllm.lora.request`), or
    a library exports it at any depth (`library_export`)."""
    stored = facts.stored
    path = stored.public_path()
    method = stored.site.function.rpartition(".")[2]
    if path is None or not path.endswith(f".{method}"):
        return False
    dots = path.count(".") - 1
    exported = bool(stored.public) and not path.startswith(f"{stored.module}.")
    shallow = dots <= _MAX_DOTS or (exported and dots <= _MAX_DOTS + 1)
    return shallow or library_export(facts)


def exported_record(facts: Facts) -> bool:
    """Whether the site's class is a record its users fill in, however deep in the package:
    a fields class (a `@dataclass`, a `Struct`, a `NamedTuple`) its module lists in
    `__all__` (vllm's `vllm.distributed.weight_transfer.m2n_trainer.M2NTrainerInitInfo`,
    which a trainer builds and hands to the package). The depth gates stand in for "the
    package hands it to its users"; a module's `__all__` says so outright, and a record's
    fields are what its maker gives. A class of another kind listed there is as often the
    package's own to make (a model a registry builds by name), so depth still decides it."""
    function = facts.stored.site.function
    owner, dot, _ = function.partition(".")
    if not dot or facts.stored.public_path() is None:
        return False
    text = facts.source_text or ""
    if "__all__" not in text or not _header_may_declare(text, owner):
        return False  # what the text says first: most classes are no exported record
    listed = facts.once("module_all", lambda: module_all(text))
    if listed is None or owner not in listed:
        return False
    cls = class_in_file(facts, owner)
    return cls is not None and fields_class(cls)


def declared_required(facts: Facts, owner: str) -> tuple[str, ...] | None:
    """The fields a call of the fields class `owner` must give (those with no default);
    None when it is no such class or its bases may declare more."""
    cls = class_in_file(facts, owner) if owner and "." not in owner else None
    if cls is None or not fields_class(cls) or _other_bases(cls):
        return None
    needed = _needed(cls)
    return tuple(
        n for n, has_default in declared_fields(cls).items() if not has_default or n in needed
    )


def _needed(cls: ast.ClassDef) -> set[str]:
    """The fields whose default `__post_init__` refuses (`assert self.path`, `if not
    self.path: raise ...`, `if self.path is None: raise ...`): a call gives them too."""
    post = _post_init(cls)
    out: set[str] = set()
    for node in post.body if post is not None else ():
        test = None
        if isinstance(node, ast.Assert):
            test = node.test
        elif isinstance(node, ast.If) and any(isinstance(b, ast.Raise) for b in node.body):
            test = tested_absent(node.test)
        if (
            isinstance(test, ast.Attribute)
            and isinstance(test.value, ast.Name)
            and test.value.id == "self"
        ):
            out.add(test.attr)
    return out


def _header_may_declare(text: str, owner: str) -> bool:
    """Whether the lines around `class <owner>` name a dataclass, a `Struct` or a
    `NamedTuple` (read before the class is parsed: most are none)."""
    at = text.find(f"class {owner}")
    while at != -1:
        if at == 0 or text[at - 1] == "\n":
            window = text[max(0, at - _HEADER_WINDOW) : at + _HEADER_WINDOW]
            return any(word in window for word in ("dataclass", *_STRUCT_BASES))
        at = text.find(f"class {owner}", at + 1)
    return False


def fields_class(cls: ast.ClassDef) -> bool:
    """A `@dataclass` (of any module, called or not), or a `Struct`/`NamedTuple` subclass."""
    for decorator in cls.decorator_list:
        node = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _last_name(node) == "dataclass":
            return True
    return any(_last_name(base) in _STRUCT_BASES for base in cls.bases)


def _other_bases(cls: ast.ClassDef) -> bool:
    """Whether a base other than `Struct`/`NamedTuple`/`object` may declare fields too."""
    return any(_last_name(b) not in _STRUCT_BASES | {"object"} for b in cls.bases)


def _last_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def declared_fields(cls: ast.ClassDef) -> dict[str, bool]:
    """The class's own fields the call takes → whether each has a default: annotated
    names, not `ClassVar`, not `field(init=False)`, not private."""
    out: dict[str, bool] = {}
    for node in cls.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        name = node.target.id
        if name.startswith("_") or "ClassVar" in ast.unparse(node.annotation):
            continue
        value = node.value
        if isinstance(value, ast.Call) and any(
            k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in value.keywords
        ):
            continue
        out[name] = value is not None
    return out


def _record_fields(facts: Facts, cls: ast.ClassDef, attribute: str) -> dict[str, bool]:
    """The fields the class's call takes: its own, and those of the fields classes it
    derives from (in its file, or imported by name from another module of the package:
    `M2NTrainerInitInfo(TrainerInitInfo)` takes `TrainerInitInfo`'s `rank`), up to
    `_MAX_BASES` classes up, where none of them assigns `self.<attribute>` itself."""
    fields = declared_fields(cls)
    current = cls
    for _ in range(_MAX_BASES):
        if attribute in fields or len(current.bases) != 1:
            break
        named = current.bases[0]
        base = class_named(facts, named.id) if isinstance(named, ast.Name) else None
        if base is None or not fields_class(base) or self_assignments(base, attribute):
            break
        fields = {**declared_fields(base), **fields}
        current = base
    return fields


def class_named(facts: Facts, name: str) -> ast.ClassDef | None:
    """The class `name` of the site's file, or the one it imports by that name."""
    own = class_in_file(facts, name)
    if own is not None or facts.imported_class is None:
        return own
    return facts.imported_class(name)


def _assigned_before(facts: Facts, attribute: str) -> bool:
    """Whether the site's function assigns `self.<attribute>` before the site's line (or
    cannot be read)."""
    function = facts.site_function()
    return function is None or self_assignments(function, attribute, facts.stored.site.line) > 0


def self_assignments(root: ast.AST, attribute: str, before: int | None = None) -> int:
    """How many places under `root` (a function, a class) assign or delete
    `self.<attribute>` (before the line `before`), `setattr` calls too."""
    count = 0
    for node in walk(root):
        if before is not None and getattr(node, "lineno", before) >= before:
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            count += self_attribute(node) == attribute
        elif isinstance(node, ast.Call):
            # `object.__setattr__(self, "x", ...)` of a frozen class, `setattr(self, "x", ...)`
            named = _last_name(node.func) in ("setattr", "__setattr__")
            if named and any(
                isinstance(a, ast.Constant) and a.value == attribute for a in node.args
            ):
                count += 1
    return count


def _normalized(root: ast.AST, attribute: str, before: int) -> list[ast.If]:
    """The `if self.<attribute> is True: self.<attribute> = 1` statements before `before`:
    one constant the user may give swapped for another (`True` for `1`, `-1` for `None`),
    whose check still sees the value the user gave, or that constant in its place."""
    out = []
    for node in walk(root):
        if not isinstance(node, ast.If) or node.orelse or node.lineno >= before:
            continue
        test, body = node.test, node.body
        if not (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Is | ast.Eq)
            and self_attribute(test.left) == attribute
            and _constant(test.comparators[0])
        ):
            continue
        if (
            len(body) == 1
            and isinstance(body[0], ast.Assign)
            and len(body[0].targets) == 1
            and self_attribute(body[0].targets[0]) == attribute
            and _constant(body[0].value)
        ):
            out.append(node)
    return out


def _constant(node: ast.expr) -> bool:
    """A constant as written: `1`, `None`, or a negative number (`-1`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant)


def _handed_to_base(facts: Facts, cls: ast.ClassDef, attribute: str) -> str | None:
    """The base's keyword `self.<attribute>` is, when the class's `__init__` passes its
    `**kwargs` on to the base's (defined in the file or imported from another module of
    the package) and assigns no `self.<attribute>`
    itself, and the base's `__init__` assigns it its keyword."""
    init = own_init(cls)
    kwarg = init.args.kwarg if init is not None else None
    named = base_name(cls.bases[0]) if cls.bases else None
    if init is None or kwarg is None or named is None:
        return None
    own = {a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)}
    if not _passes_kwargs(init, kwarg.arg) or self_assignments(init, attribute):
        return None
    base = class_in_file(facts, named)
    if base is None and facts.imported_class is not None:
        base = facts.imported_class(named)  # a base of another module of the package
    base_init = own_init(base) if base is not None else None
    if base_init is None:
        return None
    param = init_params(base_init)[0].get(attribute)
    if param is None or param in own:
        return None  # a keyword the class takes itself: the extraction's to follow
    return param


def base_name(base: ast.expr) -> str | None:
    """The name a base is written by: `Query` of `Query` and of `Query[_T]` (a generic
    class's parameters say nothing of its constructor)."""
    if isinstance(base, ast.Subscript):
        base = base.value
    return base.id if isinstance(base, ast.Name) else None


def _passes_kwargs(init: ast.FunctionDef, kwarg: str) -> bool:
    """`super().__init__(..., **kwarg)` in the constructor."""
    call = super_init_call(init)
    return call is not None and any(
        k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwarg
        for k in call.keywords
    )


def super_init_call(init: ast.FunctionDef) -> ast.Call | None:
    """The constructor's first `super().__init__(...)` call, if any."""
    for node in walk(init):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__init__"
            and isinstance(node.func.value, ast.Call)
            and isinstance(node.func.value.func, ast.Name)
            and node.func.value.func.id == "super"
        ):
            return node
    return None
