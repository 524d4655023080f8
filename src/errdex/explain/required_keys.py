"""The keys a JSON-valued flag's object is not built without, given in its example fix.

vllm's `--speculative-config '{"method": "draft_model", "use_heterogeneous_vocab": true}'`
never reaches the vocabulary check it fixes: building `SpeculativeConfig` first raises
"num_speculative_tokens must be provided" (`_verify_args`: `if self.num_speculative_tokens
is None: raise`), and with a count given, `__post_init__` raises again where `self.model is
None` and no branch of the method `draft_model` fills it in. Each such key is written with
the user's own value named for it (`"num_speculative_tokens": NUM_SPECULATIVE_TOKENS`,
`"model": "MODEL"`), as a command's `MODEL_TAG` is: in both lines, or in the "after" alone
where only the fix's own value makes the object need it (`--profiler-config '{"profiler":
"torch"}'` needs `torch_profiler_dir`, which another profiler refuses).

Read from the methods that run as the object is built (`__post_init__`, pydantic's
`model_validator(mode="after")`), statement by statement, with the values the fix's JSON
gives and the class's defaults for the others: a check reached on every path, whose body
raises on every path, whose test holds as the fix writes the JSON and fails once a key left
at its default None is given (any value) makes that key required. Only keys the class
declares as a text, a number or a yes/no with a literal default (`not self.key` asks a
text alone, which the user's own value fills): a field holding another configuration
object (`target_model_config`) is the program's to fill, not known to be None while the
object is built, and a method of the object called leaves what it writes unknown. A field
the path to the site holds equal to a literal (`self.method == "draft_model"`) keeps that
value through the methods where every assignment of it in the class writes a literal, and
the ones writing the same literal only fill it in where it is None: it cannot leave the
value and come back. A test the walk cannot decide leaves the keys it reads alone; a check
that raises as written with no such key to give leaves the fix as it was.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import and_parts, self_attribute, tested_absent

__all__ = ["UNKNOWN", "BuiltClass", "OwnValue", "built_class", "required_keys"]

_ROUNDS = 4  # keys found needed may make another check reach: read again, a few times
_BUILT = frozenset({"__post_init__", "__attrs_post_init__"})
_SCALARS = {"str": True, "int": False, "float": False, "bool": False}


@dataclass(frozen=True)
class OwnValue:
    """The user's own value of a key (`NUM_SPECULATIVE_TOKENS`), written as its name: in
    quotes for a text."""

    name: str
    text: bool = False

    def __repr__(self) -> str:
        return repr(self.name) if self.text else self.name


class _Unknown:
    """A value the walk does not know."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
_GIVEN = OwnValue("GIVEN")  # a key given some value, never None
_GIVEN_TEXT = OwnValue("GIVEN", text=True)  # a text given: the user's own, not empty
# the walk's values: a key as its name, a local as `$name`, the key a local holds as read
# (`x = self.key`, the key not written before) as `@name`, a key written as `!key`
_LOCAL, _ALIAS, _WRITTEN = "$", "@", "!"


@dataclass(frozen=True)
class BuiltClass:
    """What the walk reads of a flag's object class, read once a page (`built_class`)."""

    fields: dict[str, tuple[object, bool | None]]
    methods: list[ast.FunctionDef]
    assigned: dict[str, list[tuple[ast.expr, bool]]]
    written: dict[str, set[str]]


def built_class(owner: ast.ClassDef) -> BuiltClass | None:
    """The class's fields with literal defaults, the methods that build its object and
    what its methods write; None where it has no such fields or methods."""
    fields = _fields(owner)
    methods = _built_by(owner)
    if fields is None or not methods:
        return None
    return BuiltClass(fields, methods, _assignments(owner), _written(owner))


def required_keys(
    built: BuiltClass | None, given: dict[str, object], held: dict[str, object]
) -> dict[str, OwnValue]:
    """The keys of a flag's object (its class `built`), in the class's order, that a JSON
    giving `given` must give too or building the object raises; each with the placeholder
    of the user's own value. `held`: the fields the path to the site holds equal to a
    literal."""
    if built is None:
        return {}
    fields = built.fields
    pinned = {
        k for k, v in held.items() if k in given and given[k] == v and _stays(k, v, built.assigned)
    }
    needed: dict[str, OwnValue] = {}
    for _ in range(_ROUNDS):
        values = {**given, **needed}
        found = _Walk(fields, pinned, built.methods, built.written).needed(values)
        if found is None:
            return {}  # a check raises as written, with no key to give: nothing is sure
        fresh = [k for k in found if k not in needed]
        if not fresh:
            break
        for key in fresh:
            needed[key] = OwnValue(key.upper(), text=fields[key][1] is True)
    order = list(fields)
    return {k: needed[k] for k in sorted(needed, key=order.index)}


def _fields(owner: ast.ClassDef) -> dict[str, tuple[object, bool | None]] | None:
    """Each field the class declares with a literal default: (the default, whether it is a
    text: True, another scalar: False, neither: None)."""
    found: dict[str, tuple[object, bool | None]] = {}
    for node in owner.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        if node.value is None:
            continue
        default = _default(node.value)
        if default is UNKNOWN:
            continue
        found[node.target.id] = (default, _scalar(node.annotation))
    return found or None


def _default(node: ast.expr) -> object:
    """The literal a field's default writes (`None`, `Field(default=None, gt=0)`)."""
    if isinstance(node, ast.Call) and (dotted_name(node.func) or "").endswith("Field"):
        given = [k.value for k in node.keywords if k.arg == "default"]
        if not given and node.args:
            given = [node.args[0]]
        if len(given) != 1:
            return UNKNOWN
        node = given[0]
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        return UNKNOWN
    return value if value is None or isinstance(value, str | int | float | bool) else UNKNOWN


def _scalar(annotation: ast.expr) -> bool | None:
    """Whether a field's type is a text (True), a number or a yes/no (False), or another
    type (None): `int | None` is a number, `ModelConfig` another type."""
    parts: list[ast.expr] = []
    stack = [annotation]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            stack += [node.left, node.right]
        elif isinstance(node, ast.Subscript) and dotted_name(node.value) in (
            "Optional",
            "typing.Optional",
        ):
            stack.append(node.slice)
        elif not (isinstance(node, ast.Constant) and node.value is None):
            parts.append(node)
    names = [dotted_name(p) if isinstance(p, ast.Name) else None for p in parts]
    if len(names) != 1 or names[0] not in _SCALARS:
        return None
    return _SCALARS[names[0]]


def _built_by(owner: ast.ClassDef) -> list[ast.FunctionDef]:
    """The methods run as the object is built: `__post_init__` first, then the model's
    validators run after it, in the class's order."""
    methods = [n for n in owner.body if isinstance(n, ast.FunctionDef)]
    first = [m for m in methods if m.name in _BUILT]
    after = [m for m in methods if m.name not in _BUILT and _validates_after(m)]
    return first + after


def _validates_after(method: ast.FunctionDef) -> bool:
    """`@model_validator(mode="after")`."""
    for decorator in method.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        if (dotted_name(decorator.func) or "").rpartition(".")[2] != "model_validator":
            continue
        modes = [k.value for k in decorator.keywords if k.arg == "mode"]
        if modes and isinstance(modes[0], ast.Constant) and modes[0].value == "after":
            return True
    return False


def _assignments(owner: ast.ClassDef) -> dict[str, list[tuple[ast.expr, bool]]]:
    """Each `self.key = value` of the class's methods: (the value, whether it sits under a
    test that holds only where the key is None: filled in when unset)."""
    found: dict[str, list[tuple[ast.expr, bool]]] = {}

    def visit(nodes: list[ast.stmt], unset: frozenset[str]) -> None:
        for node in nodes:
            if isinstance(node, ast.If):
                none_of = unset | _none_tests(node.test)
                visit(node.body, none_of)
                visit(node.orelse, unset)
                continue
            for key, value in _self_writes(node):
                found.setdefault(key, []).append((value, key in unset))
            for child in _blocks(node):
                visit(child, unset)

    for method in owner.body:
        if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
            visit(method.body, frozenset())
    return found


def _written(owner: ast.ClassDef) -> dict[str, set[str]]:
    """The keys each method of the class writes (`self.key = ...` anywhere in it)."""
    found: dict[str, set[str]] = {}
    for method in owner.body:
        if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
            keys = found.setdefault(method.name, set())
            for node in walk(method):
                if isinstance(node, ast.stmt):
                    keys.update(key for key, _ in _self_writes(node))
    return found


def _blocks(node: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement lists a compound statement (not an `if`) holds."""
    for name in ("body", "orelse", "finalbody"):
        block = getattr(node, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield block
    for handler in getattr(node, "handlers", ()):
        yield handler.body
    for case in getattr(node, "cases", ()):
        yield case.body


def _self_writes(node: ast.stmt) -> Iterator[tuple[str, ast.expr]]:
    """(key, value) of the statement's own `self.key = value` (not its blocks')."""
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
        targets, value = [node.target], node.value
        if isinstance(node, ast.AugAssign):
            value = ast.Name(id="_", ctx=ast.Load())  # computed: no literal
    else:
        return
    for target in targets:
        key = self_attribute(target)
        if key is not None:
            yield key, value
        elif not isinstance(target, ast.Name | ast.Attribute):
            for part in walk(target):  # a tuple target: each key written, computed
                inner = self_attribute(part) if isinstance(part, ast.expr) else None
                if inner is not None:
                    yield inner, ast.Name(id="_", ctx=ast.Load())


def _none_tests(test: ast.expr) -> frozenset[str]:
    """The keys an `if` test holds None in every case it holds (`self.x is None and ...`)."""
    keys = set()
    for part in and_parts(test):
        tested = tested_absent(part) if isinstance(part, ast.Compare) else None
        key = self_attribute(tested) if tested is not None else None
        if key is not None:
            keys.add(key)
    return frozenset(keys)


def _stays(key: str, value: object, assigned: dict[str, list[tuple[ast.expr, bool]]]) -> bool:
    """Whether a key held `value` at the site held it all along: every assignment of it
    writes a literal, none None, and those writing `value` only fill it in where None."""
    for written, where_unset in assigned.get(key, ()):
        literal = _default(written)
        if literal is UNKNOWN or literal is None:
            return False
        if literal == value and not where_unset:
            return False
    return True


class _Walk:
    """One reading of the methods that build the object, with the values a JSON gives."""

    def __init__(
        self,
        fields: dict[str, tuple[object, bool | None]],
        pinned: set[str],
        methods: list[ast.FunctionDef],
        written: dict[str, set[str]],
    ) -> None:
        self.fields = fields
        self.pinned = pinned
        self.methods = methods
        self.written = written
        self.found: list[str] = []
        self.stuck = False  # a check raises as written, with no key to give

    def needed(self, given: dict[str, object]) -> list[str] | None:
        """The keys found needed, or None where a check raises with none to give."""
        # a field of another type left None (`target_model_config`) is the program's to
        # fill in as it builds the object: not known to be None
        values: dict[str, object] = {
            k: d if d is not None or text is not None else UNKNOWN
            for k, (d, text) in self.fields.items()
        }
        values.update(given)
        for method in self.methods:
            outcome = self._block(method.body, values, sure=True)
            if self.stuck or outcome == "raise":
                return None  # it raises on every path as written
            if outcome == "maybe":
                break  # a path may leave early: the checks of what follows may be skipped
        return self.found

    def _block(self, body: list[ast.stmt], values: dict[str, object], *, sure: bool) -> str:
        """Read the statements in order: "raise" / "return" where every path ends so,
        "next" where one goes on ("maybe" where a path may have left)."""
        going_on = "next"
        for node in body:
            if isinstance(node, ast.Raise):
                return "raise"
            if isinstance(node, ast.Return):
                return "return"
            if isinstance(node, ast.If):
                outcome = self._if(node, values, sure=sure)
                if outcome in ("raise", "return"):
                    return outcome
                if outcome == "maybe":
                    sure, going_on = False, "maybe"
                continue
            for key, value in _self_writes(node):
                self._write(values, key, value)
            local = _local_bound(node)
            for sub in walk(node):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    values[_LOCAL + sub.id] = UNKNOWN
                    values.pop(_ALIAS + sub.id, None)
                if sub is not node and isinstance(sub, ast.stmt):
                    for key, _ in _self_writes(sub):
                        self._write(values, key, None, known=False)
                    if isinstance(sub, ast.Return):
                        sure, going_on = False, "maybe"
                elif isinstance(sub, ast.Call):
                    # a method of the object called: what it writes is not known after
                    called = dotted_name(sub.func) if isinstance(sub.func, ast.Attribute) else None
                    if called is not None and called.startswith("self."):
                        for key in self.written.get(called[len("self.") :], ()):
                            self._write(values, key, None, known=False)
            if local is not None:
                name, value = local
                values[_LOCAL + name] = _value(value, values)
                read = self_attribute(value)
                if read is not None and _WRITTEN + read not in values:
                    values[_ALIAS + name] = read  # holds the key as the JSON gives it
        return going_on

    def _write(
        self, values: dict[str, object], key: str, value: ast.expr | None, *, known: bool = True
    ) -> None:
        values[_WRITTEN + key] = True
        if key in self.pinned:
            return
        literal = _default(value) if known and value is not None else UNKNOWN
        values[key] = literal

    def _if(self, node: ast.If, values: dict[str, object], *, sure: bool) -> str:
        holds = _truth(node.test, values)
        if holds is True:
            if sure and self._raises(node.body, values):
                self._give(node.test, values)
                if self.stuck:
                    return "raise"
                return self._if(node, values, sure=sure)  # read again with the key given
            return self._block(node.body, values, sure=sure)
        if holds is False:
            return self._block(node.orelse, values, sure=sure)
        then, other = dict(values), dict(values)
        went = self._block(node.body, then, sure=False)
        left = self._block(node.orelse, other, sure=False)
        if went in ("raise", "return"):
            values.clear()
            values.update(other)
            return "maybe" if went == "return" or left == "maybe" else left
        if left in ("raise", "return"):
            values.clear()
            values.update(then)
            return "maybe" if left == "return" or went == "maybe" else went
        for key in set(then) | set(other):
            if then.get(key, UNKNOWN) != other.get(key, UNKNOWN) or type(then.get(key)) is not type(
                other.get(key)
            ):
                values[key] = UNKNOWN
            else:
                values[key] = then[key]
        return "maybe" if "maybe" in (went, left) else "next"

    def _raises(self, body: list[ast.stmt], values: dict[str, object]) -> bool:
        """Whether the statements raise on every path, with these values."""
        trial = _Walk(self.fields, self.pinned, self.methods, self.written)
        return trial._block(body, dict(values), sure=False) == "raise"

    def _give(self, test: ast.expr, values: dict[str, object]) -> None:
        """Give the key whose None (or, for a text, emptiness) makes the check hold, or
        mark the walk stuck."""
        for part in and_parts(test):
            found = self._left_out(part, values)
            if found is None:
                continue
            key, locals_ = found
            text = self.fields[key][1] is True
            given: object = _GIVEN_TEXT if text else _GIVEN
            now = {key: given, **{_LOCAL + n: given for n in locals_}}
            if _truth(test, {**values, **now}) is False:
                values.update(now)
                self.found.append(key)
                return
        self.stuck = True

    def _left_out(self, part: ast.expr, values: dict[str, object]) -> tuple[str, list[str]] | None:
        """(the key, the locals holding it) a part tests left out: `self.key is None`
        (`key is None` of a local holding it) where it is None, `not self.key` of a text
        where it is None or empty; None for another part."""
        node = tested_absent(part)
        if node is None:
            return None
        # `not x` holds for an empty text too; `x is None` only for None
        empty: tuple[object, ...] = (None,) if isinstance(part, ast.Compare) else (None, "")
        key = self_attribute(node)
        if key is None and isinstance(node, ast.Name):
            held = values.get(_ALIAS + node.id)
            key = held if isinstance(held, str) else None
        if key is None or key in self.pinned or key not in self.fields:
            return None
        text = self.fields[key][1]
        if text is None or (empty != (None,) and text is not True):
            return None  # another object; or a truth test of a number or a yes/no
        if values.get(key, UNKNOWN) not in empty or isinstance(values.get(key), bool):
            return None
        if _WRITTEN + key in values:
            return None  # written on the way: what the JSON gives is not what is tested
        held_by = [
            name[len(_ALIAS) :]
            for name, value in values.items()
            if name.startswith(_ALIAS) and value == key
        ]
        return key, held_by


def _truth(node: ast.expr, values: dict[str, object]) -> bool | None:
    """Whether the test holds with these values; None when not known."""
    if isinstance(node, ast.BoolOp):
        seen = [_truth(v, values) for v in node.values]
        stop = isinstance(node.op, ast.Or)  # `or` settles on a True, `and` on a False
        if stop in seen:
            return stop
        return None if None in seen else not stop
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _truth(node.operand, values)
        return None if inner is None else not inner
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return _compare(node.ops[0], node.left, node.comparators[0], values)
    value = _value(node, values)
    if value is _GIVEN_TEXT:
        return True  # the user's own text: not empty
    if value is UNKNOWN or isinstance(value, OwnValue):
        return None
    return bool(value)


def _compare(
    op: ast.cmpop, left: ast.expr, right: ast.expr, values: dict[str, object]
) -> bool | None:
    """`a is None`, `a == "x"`, `a in ("x", "y")` with the values known."""
    first = _value(left, values)
    if first is UNKNOWN:
        return None
    if isinstance(op, ast.Is | ast.IsNot):
        if not (isinstance(right, ast.Constant) and right.value is None):
            return None
        is_none = first is None
        return is_none if isinstance(op, ast.Is) else not is_none
    if isinstance(first, OwnValue):
        return None
    if isinstance(op, ast.In | ast.NotIn):
        try:
            members = ast.literal_eval(right)
        except (ValueError, SyntaxError, RecursionError, MemoryError):
            return None
        if not isinstance(members, tuple | list | set | frozenset):
            return None
        inside = first in members
        return inside if isinstance(op, ast.In) else not inside
    second = _value(right, values)
    if second is UNKNOWN or isinstance(second, OwnValue):
        return None
    if isinstance(op, ast.Eq):
        return bool(first == second)
    if isinstance(op, ast.NotEq):
        return bool(first != second)
    return None


def _value(node: ast.expr, values: dict[str, object]) -> object:
    """A literal, a key of the object read on `self` or a local, as known; else UNKNOWN."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return values.get(_LOCAL + node.id, UNKNOWN)
    key = self_attribute(node)
    return values.get(key, UNKNOWN) if key is not None else UNKNOWN


def _local_bound(node: ast.stmt) -> tuple[str, ast.expr] | None:
    """(name, value) of `name = value`, one local bound."""
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
    ):
        return node.targets[0].id, node.value
    return None
