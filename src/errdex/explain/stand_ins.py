"""Which of the members a selection offers in place of the site's one run where it runs,
and for which of its values.

"Choose another attention backend: `--attention-backend TRITON_MLA` (or ...)" names members
of a registry whose classes declare what they run on: the values of a setting they take
(`supported_kv_cache_dtypes = ["auto", "fp8"]`, `supports_kv_cache_dtype(cls, x)` testing
`x` against literals), the device (`supports_compute_capability(cls, capability)` returning
`capability.major == 10`), the sizes (`get_supported_head_sizes` returning `[64, 128]`). A
member whose class refuses what the site's class takes leads the user who runs the site's
class into the selection's own refusal (a backend for compute capability 9 on the user's 10).
What the user cannot change (the device, the model's head sizes) the member must take in
full. A value of a setting the user picks with a flag of the version named as the
declaration is (`supported_dtypes`, `--dtype`) it may take in part: the member is offered
for the values of the site's class it takes ("for `--dtype bfloat16` only"), and not at all
where it takes none. Sizes are read as the weaker of "one of" and "a multiple of one of" (a
kernel's block sizes are the latter).

Where the site's own conditions test such a value (`self.kv_cache_dtype.startswith("fp8")`),
the failure is about it, and a member is offered only where its class is known to take a
value on which the check fails: a member that decides that setting by calls (the platform,
a kernel's version), or declares it not at all, may refuse the very value the user has. A
`supports_x` that refuses what its class's list does not hold before it calls anything still
tells what the member refuses: the values outside the list.

Where the site's class decides a setting by calls among the values it lists (FlashInfer's
`supports_kv_cache_dtype` asking the device for an NVFP4 cache), the list still bounds what
the user may have reached it with: a member is offered for the listed values it declares
("for `--kv-cache-dtype` `auto`, ... only"), or, where it decides by calls within its own
list as well, not with the listed values outside its list ("not with `--kv-cache-dtype`
`nvfp4`"): a backend offered must take the user's value, the cache's included.

A member whose class is not followed, or whose declarations are not literal, is kept as
the registry names it.
"""

from __future__ import annotations

import ast
import itertools
import re

from errdex.explain.class_declarations import (
    MOST_HOPS,
    assigned,
    class_named,
    is_name,
    member_classes,
    method_body,
    own_values,
    startswith_argument,
    supports_value,
)
from errdex.explain.name_scan import whole_word
from errdex.explain.picked_value import Taken
from errdex.facts import BRANCH_KINDS, ConditionKind
from errdex.link.expression_texts import parse_expression
from errdex.store.base import Store, StoredSite

_DECLARED = re.compile(
    r"supports_(?P<a>[a-z]\w*)|supported_(?P<b>[a-z]\w*?)s|get_supported_(?P<c>[a-z]\w*?)s"
)

# what a class declares of one name: ("values", the values, a prefix), ("bound", the
# values outside which it refuses, None), ("calls", the values it lists, None: a method
# deciding among them by calls) or ("test", the argument, the expression its method
# returns); None where it declares it some other way
_Declared = tuple[str, object, object] | None


def standing_in(store: Store, stored: StoredSite) -> dict[str, dict[str, tuple[Taken, ...]]]:
    """A selection's setting → the members, of those it offers, whose class runs where the
    class of the member picking the site's code runs and takes some of its values, each
    with the values it takes where it takes only some (none: it takes all). Only the
    settings whose registry names the site's member by a class path the version holds."""
    out: dict[str, dict[str, tuple[Taken, ...]]] = {}
    flags = _Flags(store, stored.version_id)
    for link in stored.selections:
        if link.how != "choose" or link.file is None or not link.others:
            continue
        classes = member_classes(store, stored, link.file, (link.value, *link.others))
        own = classes.get(link.value)
        if own is None:
            continue
        mine = _declarations(store, stored, *own)
        failing = _failing_tests(stored, mine, flags)
        checked = _checking_too(store, stored, [classes[m][0] for m in link.others if m in classes])
        kept: dict[str, tuple[Taken, ...]] = {}
        for member in link.others:
            if member not in classes:
                kept[member] = ()
                continue
            if classes[member][0] in checked:
                continue  # its own code makes the same check: the same input fails there
            taken = _taken(_declarations(store, stored, *classes[member]), mine, flags, failing)
            if taken is not None:
                kept[member] = taken
        out[link.setting] = kept
    return out


class _Flags:
    """Whether a flag is one of the version's: its names read once, and only when asked
    (a page whose members take all its values asks nothing)."""

    def __init__(self, store: Store, version_id: int) -> None:
        self._store, self._version_id = store, version_id
        self._names: frozenset[str] | None = None

    def __contains__(self, flag: str) -> bool:
        if self._names is None:
            self._names = self._store.defined_names(self._version_id)
        return flag in self._names


def _checking_too(store: Store, stored: StoredSite, files: list[str]) -> set[str]:
    """The files, of `files`, holding a check that fails where the site's own does: its
    test as written (`self.` aside: `sinks.shape[0] == num_heads` is `self.sinks.shape[0]
    == num_heads`), or an `or` one of whose parts it is (`output_scale is not None or
    output_block_scale is not None` fails where `output_block_scale is not None` does)."""
    mine = _own_check(stored)
    if mine is None or not files:
        return set()
    test, holds = mine
    found = set()
    for other in store.sites_in_files(files, project=stored.project, version=stored.version):
        theirs = _own_check(other)
        if theirs is None or other.file in found:
            continue
        either = isinstance(theirs[0], ast.BoolOp) and isinstance(theirs[0].op, ast.Or)
        parts = theirs[0].values if either and holds else [theirs[0]]  # type: ignore[attr-defined]
        if theirs[1] == holds and any(_same(p, test) for p in parts):
            found.add(other.file)
    return found


def _own_check(stored: StoredSite) -> tuple[ast.expr, bool] | None:
    """The test of the site's own check, the nearest `if` or `assert` above it, and
    whether it holds where the site fails; None where the nearest branch is an `else` or
    an early exit (what it tests is not the check's own)."""
    own = [c for c in stored.site.conditions if c.kind in _BRANCHES]
    if not own:
        return None
    nearest = max(own, key=lambda c: c.line)
    if nearest.kind not in (ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ASSERT):
        return None
    tree = parse_expression(nearest.test)
    return (tree, nearest.holds) if tree is not None else None


_BRANCHES = BRANCH_KINDS | {ConditionKind.ASSERT}


def _same(one: ast.expr, other: ast.expr) -> bool:
    return _unselfed(one) == _unselfed(other)


def _unselfed(node: ast.expr) -> str:
    """The test's text with `self.` taken off its attributes."""
    return re.sub(r"\bself\.", "", ast.unparse(node))


def _declarations(
    store: Store, stored: StoredSite, file: str, text: str, cls: ast.ClassDef
) -> dict[str, _Declared]:
    """Name → what the class declares of it, its own first, then its nearest base's."""
    out: dict[str, _Declared] = {}
    current: ast.ClassDef | None = cls
    for _ in range(MOST_HOPS + 1):
        if current is None:
            break
        for name, declared in _own(current).items():
            out.setdefault(name, declared)
        bases = [b.id for b in current.bases if isinstance(b, ast.Name)]
        if len(bases) != 1 or len(current.bases) != 1:
            break
        found = class_named(store, stored, file, text, bases[0])
        if found is None:
            break
        file, text, current = found
    return out


def _own(cls: ast.ClassDef) -> dict[str, _Declared]:
    """What the class's own body declares: values of a setting (`own_values`), a test of
    the argument's attributes against numbers, a literal list of sizes. A method deciding
    some other way by calls (`supports_kv_cache_dtype` asking the platform) makes it None,
    hiding its list and its base's; one that only reads the list (no call) leaves it, and
    one that first refuses what the list does not hold bounds it ("bound")."""
    out: dict[str, _Declared] = {}
    hidden: set[str] = set()
    bounded: set[str] = set()
    for statement in cls.body:
        name = statement.name if isinstance(statement, ast.FunctionDef) else assigned(statement)[0]
        matched = _DECLARED.fullmatch(name or "")
        if matched is None:
            continue
        key = matched["a"] or matched["b"] or matched["c"]
        if isinstance(statement, ast.FunctionDef):
            declared = _number_test(statement) if matched["a"] else _returned_list(statement)
            if declared is None and (
                matched["c"] or any(isinstance(n, ast.Call) for n in ast.walk(statement))
            ):
                hidden.add(key)
                if matched["a"] and _refuses_unlisted(statement, f"supported_{key}s"):
                    bounded.add(key)
        else:
            value = assigned(statement)[1]
            values = _constants(value) if value is not None else None
            declared = ("values", values, None) if values else None
        if declared is not None or key not in out:
            out[key] = declared
    decided = own_values(cls)  # a method testing literals decides, calls or not
    for key, (values, prefix, _) in decided.items():
        out[key] = ("values", values, prefix)
    for key in hidden - decided.keys():
        listed = out.get(key)
        if listed is None or listed[0] != "values":
            out[key] = None
        else:
            out[key] = ("bound" if key in bounded else "calls", listed[1], None)
    return out


def _refuses_unlisted(method: ast.FunctionDef, attribute: str) -> bool:
    """`supports_x(cls, x)` opening (after an `if x is None: return ...`) with `if x not in
    cls.supported_xs: return False`: whatever it asks after, it refuses what the list does
    not hold."""
    params = [a.arg for a in method.args.args]
    if len(params) != 2:
        return False
    for statement in method_body(method)[:2]:
        if not (isinstance(statement, ast.If) and not statement.orelse):
            return False
        test, then = statement.test, statement.body
        if not (len(then) == 1 and isinstance(then[0], ast.Return)):
            return False
        returned = then[0].value
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            return False
        if not is_name(test.left, params[1]):
            return False
        right = test.comparators[0]
        if isinstance(test.ops[0], ast.Is):
            continue  # `if x is None: return ...`: a value of none, not the user's
        return (
            isinstance(test.ops[0], ast.NotIn)
            and isinstance(right, ast.Attribute)
            and is_name(right.value, params[0])
            and right.attr == attribute
            and isinstance(returned, ast.Constant)
            and returned.value is False
        )
    return False


def _constants(node: ast.expr) -> tuple[str, ...] | None:
    """The elements of a literal list, tuple or set of constants or dotted names, as
    written; None for anything else or an empty one (the base's "any")."""
    if not isinstance(node, ast.List | ast.Tuple | ast.Set) or not node.elts:
        return None
    if not all(isinstance(e, ast.Constant) or _dotted(e) for e in node.elts):
        return None
    return tuple(
        e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else ast.unparse(e)
        for e in node.elts
    )


def _dotted(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _returned_list(method: ast.FunctionDef) -> _Declared:
    """`return [64, 128]`: the values."""
    body = method_body(method)
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    values = _constants(body[0].value)
    return ("values", values, None) if values else None


def _number_test(method: ast.FunctionDef) -> _Declared:
    """`supports_x(cls, arg)` returning a constant truth, or comparisons of the argument
    (or its attributes) with numbers joined by `and`, `or`, `not`."""
    params = [a.arg for a in method.args.args]
    if len(params) != 2 or method.args.vararg or method.args.kwarg:
        return None
    body = method_body(method)
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    test = body[0].value
    return ("test", params[1], test) if _readable(test, params[1]) else None


def _readable(node: ast.expr, arg: str) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, bool)
    if isinstance(node, ast.BoolOp):
        return all(_readable(v, arg) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _readable(node.operand, arg)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        right = node.comparators[0]
        numbers = right.elts if isinstance(right, ast.Tuple | ast.List | ast.Set) else [right]
        return _variable(node.left, arg) is not None and all(
            isinstance(n, ast.Constant) and type(n.value) is int for n in numbers
        )
    return False


def _variable(node: ast.expr, arg: str) -> str | None:
    """`arg` → "", `arg.major` → "major"; None for anything else."""
    if isinstance(node, ast.Name) and node.id == arg:
        return ""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == arg
    ):
        return node.attr
    return None


def _taken(
    theirs: dict[str, _Declared],
    mine: dict[str, _Declared],
    flags: _Flags,
    failing: dict[str, list[tuple[ast.expr, bool]]],
) -> tuple[Taken, ...] | None:
    """What a member takes of the values mine takes, where it takes only some of a
    setting's (none: all); None where it is no way out: a declaration both make refuses on
    its side something mine admits that the user cannot pick otherwise (a device, a head
    size), all of a setting's values mine takes, or the values the site's check fails on."""
    out: list[Taken] = []
    for key, declared in mine.items():
        other = theirs.get(key)
        if key in failing and not _takes_failing(other, declared, key, failing[key]):
            return None
        if other is not None and other[0] == "calls":
            other = None  # its list only bounds what it takes: nothing to tell
        if declared is not None and declared[0] == "calls":
            # the site's class decides by calls among the values it lists, which bound
            # what the user may have: a member is offered for those it lists, or, where it
            # decides by calls within its own list too, not with those outside that list
            declared = ("values", declared[1], None)
        if declared is None or other is None:
            continue  # one of them not read: nothing to tell
        if declared[0] == "test" or other[0] == "test":
            if declared[0] == other[0] == "test" and not _test_within(declared, other):
                return None
            continue
        shared, whole = _shared(declared, other)
        if whole:
            continue
        flag = "--" + key.replace("_", "-")
        if not shared or flag not in flags:
            return None  # none of the values, or a value the user does not pick
        if other[0] == "bound":
            given = declared[1]
            assert isinstance(given, tuple)
            refused = tuple(_as_given(v) for v in given if v not in shared)
            kept = tuple(_as_given(v) for v in shared)
            out.append(Taken(flag=flag, values=refused, refused=True, shared=kept))
        else:
            out.append(Taken(flag=flag, values=tuple(_as_given(v) for v in shared)))
    return tuple(out)


def _shared(
    mine: tuple[str, object, object], theirs: tuple[str, object, object]
) -> tuple[list[str], bool]:
    """The values of mine theirs takes, and whether that is all mine takes."""
    values, prefix, given = theirs[1], theirs[2], mine[1]
    assert isinstance(values, tuple) and isinstance(given, tuple)
    if all(isinstance(v, str) and v.isdigit() for v in (*values, *given)):
        # sizes: a size is taken where it is one listed (`head_size in sizes`) or a
        # multiple of one (`block_size % size == 0`); refused only where it is neither
        shared = [v for v in given if any(int(v) % int(t) == 0 for t in values if int(t))]
        return shared, len(shared) == len(given)
    held = prefix if isinstance(prefix, str) else None
    shared = [v for v in given if supports_value(v, values, held)]
    family = mine[2] is None or (held is not None and str(mine[2]).startswith(held))
    return shared, len(shared) == len(given) and family


def _as_given(value: str) -> str:
    """A declared value as its flag takes it: `torch.bfloat16` → `bfloat16`."""
    return value.rpartition(".")[2] if _DOTTED_VALUE.fullmatch(value) else value


_DOTTED_VALUE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _failing_tests(
    stored: StoredSite, mine: dict[str, _Declared], flags: _Flags
) -> dict[str, list[tuple[ast.expr, bool]]]:
    """Name of a setting the user picks (a flag of the version named as it is) that mine
    declares values of → the site's conditions reading its field (`self.kv_cache_dtype`),
    each with whether it holds where the check fails. A field compared with a value
    (`.startswith("fp8")`, `== "bfloat16"`) tells which values fail; one handed to a call
    (`is_quantized_kv_cache(self.kv_cache_dtype)`) that some of them may."""
    out: dict[str, list[tuple[ast.expr, bool]]] = {}
    for key, declared in mine.items():
        if declared is not None and declared[0] == "test":
            continue  # a device: the conditions ask the platform, not the setting
        tests = [
            (tree, condition.holds)
            for condition in stored.site.conditions
            if whole_word(condition.test, key)
            and (tree := parse_expression(condition.test)) is not None
        ]
        if tests and "--" + key.replace("_", "-") in flags:
            out[key] = tests
    return out


def _takes_failing(
    theirs: _Declared, mine: _Declared, key: str, tests: list[tuple[ast.expr, bool]]
) -> bool:
    """Whether theirs is known to take a value the site's check fails on: the values of
    mine (else of theirs) on which no test of the field is told to go the other way; where
    none is told at all, every value mine takes. A failure on no value mine declares (a
    tensor's own dtype) is not about the setting."""
    if theirs is None or theirs[0] != "values":
        return False  # decided by calls, bounded only, or not declared: not known
    values, prefix = theirs[1], theirs[2]
    assert isinstance(values, tuple)
    held = prefix if isinstance(prefix, str) else None
    known = mine is not None and mine[0] in ("values", "bound")
    candidates = mine[1] if known and mine is not None else values
    assert isinstance(candidates, tuple)
    verdicts = {v: [_verdict(tree, key, v) for tree, _ in tests] for v in candidates}
    if all(r is None for results in verdicts.values() for r in results):
        if not known or mine is None:
            return False
        return _shared(mine, theirs)[1]
    failing = [
        v
        for v, results in verdicts.items()
        if all(r is None or r == holds for r, (_, holds) in zip(results, tests, strict=True))
    ]
    if known and not failing:
        return True
    return any(supports_value(v, values, held) for v in failing)


def _verdict(node: ast.expr, key: str, value: str) -> bool | None:
    """The truth of a test where the field `key` holds `value` (written as declared: a
    string, or a dotted name such as `torch.bfloat16`), where the test tells it; None
    where it does not (another name, a call)."""
    if isinstance(node, ast.BoolOp):
        results = [_verdict(v, key, value) for v in node.values]
        if isinstance(node.op, ast.And):
            return False if False in results else (None if None in results else True)
        return True if True in results else (None if None in results else False)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _verdict(node.operand, key, value)
        return None if inner is None else not inner
    prefix = startswith_argument(node, lambda subject: _field(subject, key))
    if prefix is not None:
        prefixes = _written(prefix)
        return None if prefixes is None else value.startswith(tuple(prefixes))
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, op, right = node.left, node.ops[0], node.comparators[0]
        if _field(right, key) and isinstance(op, ast.Eq | ast.NotEq):
            left, right = right, left
        if not _field(left, key):
            return None
        if isinstance(op, ast.Is | ast.IsNot) and _is_none(right):
            return isinstance(op, ast.IsNot)  # a value the user gave is not None
        written = _written(right)
        if written is None:
            return None
        if isinstance(op, ast.Eq | ast.NotEq) and len(written) == 1:
            return (value == written[0]) == isinstance(op, ast.Eq)
        if isinstance(op, ast.In | ast.NotIn) and isinstance(right, ast.Tuple | ast.List | ast.Set):
            return (value in written) == isinstance(op, ast.In)
    return None


def _field(node: ast.expr, key: str) -> bool:
    """`kv_cache_dtype`, `self.kv_cache_dtype`, `spec.kv_cache_dtype`."""
    if isinstance(node, ast.Name):
        return node.id == key
    return isinstance(node, ast.Attribute) and node.attr == key


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _written(node: ast.expr) -> list[str] | None:
    """A string or dotted name, or a literal tuple, list or set of them, as declared
    values are written; None for anything else."""
    elements = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    out = []
    for e in elements:
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            out.append(e.value)
        elif isinstance(e, ast.Attribute) and _dotted(e):
            out.append(ast.unparse(e))
        else:
            return None
    return out


def _test_within(mine: tuple[str, object, object], theirs: tuple[str, object, object]) -> bool:
    """Whether every point my test admits, theirs does: tried at each number either test
    names, one less and one more, for each attribute they read."""
    tests = [(str(mine[1]), mine[2]), (str(theirs[1]), theirs[2])]
    names: set[str] = set()
    numbers: set[int] = {0}
    for arg, test in tests:
        assert isinstance(test, ast.expr)
        for node in ast.walk(test):
            if isinstance(node, ast.Compare):
                names.add(_variable(node.left, arg) or "")
            elif isinstance(node, ast.Constant) and type(node.value) is int:
                numbers.update((node.value - 1, node.value, node.value + 1))
    if len(names) > 3:
        return True  # too many to try: nothing to tell
    order = sorted(names)
    for point in itertools.product(sorted(numbers), repeat=len(order)):
        at = dict(zip(order, point, strict=True))
        if _holds(mine[2], str(mine[1]), at) and not _holds(theirs[2], str(theirs[1]), at):
            return False
    return True


def _holds(node: object, arg: str, at: dict[str, int]) -> bool:
    if isinstance(node, ast.Constant):
        return bool(node.value)
    if isinstance(node, ast.BoolOp):
        results = [_holds(v, arg, at) for v in node.values]
        return all(results) if isinstance(node.op, ast.And) else any(results)
    if isinstance(node, ast.UnaryOp):
        return not _holds(node.operand, arg, at)
    assert isinstance(node, ast.Compare)
    left = at[_variable(node.left, arg) or ""]
    right = node.comparators[0]
    op = node.ops[0]
    if isinstance(op, ast.In | ast.NotIn):
        assert isinstance(right, ast.Tuple | ast.List | ast.Set)
        inside = left in [e.value for e in right.elts if isinstance(e, ast.Constant)]
        return inside if isinstance(op, ast.In) else not inside
    assert isinstance(right, ast.Constant) and isinstance(right.value, int)
    value = right.value
    compared = {
        ast.Eq: left == value,
        ast.NotEq: left != value,
        ast.Lt: left < value,
        ast.LtE: left <= value,
        ast.Gt: left > value,
        ast.GtE: left >= value,
    }
    return compared.get(type(op), True)
