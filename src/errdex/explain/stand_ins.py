"""Which of the members a selection offers in place of the site's one run where it runs.

"Choose another attention backend: `--attention-backend TRITON_MLA` (or ...)" names members
of a registry whose classes declare what they run on: the values of a setting they take
(`supported_kv_cache_dtypes = ["auto", "fp8"]`, `supports_kv_cache_dtype(cls, x)` testing
`x` against literals), the device (`supports_compute_capability(cls, capability)` returning
`capability.major == 10`), the sizes (`get_supported_head_sizes` returning `[64, 128]`). A
member whose class refuses a value the site's class takes leads the user who runs the site's
class into the selection's own refusal (a backend for compute capability 9 on the user's 10).
So a member stands in only where every declaration both classes make (their own, else their
nearest base's) admits on its side all the site's class admits; a member whose class is not
followed, or whose declarations are not literal, is kept as the registry names it. Sizes
are read as the weaker of "one of" and "a multiple of one of" (a kernel's block sizes are
the latter): a size none of the member's divides is refused either way.
"""

from __future__ import annotations

import ast
import itertools
import re

from errdex.explain.value_picked import (
    _MOST_HOPS,
    _assigned,
    _body,
    _class_named,
    _own_values,
    _supports,
    member_classes,
)
from errdex.store.base import Store, StoredSite

_DECLARED = re.compile(
    r"supports_(?P<a>[a-z]\w*)|supported_(?P<b>[a-z]\w*?)s|get_supported_(?P<c>[a-z]\w*?)s"
)

# what a class declares of one name: ("values", the values, a prefix) or ("test", the
# argument, the expression its method returns); None where it declares it some other way
_Declared = tuple[str, object, object] | None


def standing_in(store: Store, stored: StoredSite) -> dict[str, tuple[str, ...]]:
    """A selection's setting → the members, of those it offers, whose class admits what
    the class of the member picking the site's code admits. Only the settings whose
    registry names the site's member by a class path the version holds."""
    out: dict[str, tuple[str, ...]] = {}
    for link in stored.selections:
        if link.how != "choose" or link.file is None or not link.others:
            continue
        classes = member_classes(store, stored, link.file, (link.value, *link.others))
        own = classes.get(link.value)
        if own is None:
            continue
        mine = _declarations(store, stored, *own)
        out[link.setting] = tuple(
            member
            for member in link.others
            if member not in classes
            or _admits_all(_declarations(store, stored, *classes[member]), mine)
        )
    return out


def _declarations(
    store: Store, stored: StoredSite, file: str, text: str, cls: ast.ClassDef
) -> dict[str, _Declared]:
    """Name → what the class declares of it, its own first, then its nearest base's."""
    out: dict[str, _Declared] = {}
    current: ast.ClassDef | None = cls
    for _ in range(_MOST_HOPS + 1):
        if current is None:
            break
        for name, declared in _own(current).items():
            out.setdefault(name, declared)
        bases = [b.id for b in current.bases if isinstance(b, ast.Name)]
        if len(bases) != 1 or len(current.bases) != 1:
            break
        found = _class_named(store, stored, file, text, bases[0])
        if found is None:
            break
        file, text, current = found
    return out


def _own(cls: ast.ClassDef) -> dict[str, _Declared]:
    """What the class's own body declares: values of a setting (`_own_values`), a test of
    the argument's attributes against numbers, a literal list of sizes. A method deciding
    some other way by calls (`supports_kv_cache_dtype` asking the platform) makes it None,
    hiding its list and its base's; one that only reads the list (no call) leaves it."""
    out: dict[str, _Declared] = {}
    hidden: set[str] = set()
    for statement in cls.body:
        name = statement.name if isinstance(statement, ast.FunctionDef) else _assigned(statement)[0]
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
        else:
            value = _assigned(statement)[1]
            values = _constants(value) if value is not None else None
            declared = ("values", values, None) if values else None
        if declared is not None or key not in out:
            out[key] = declared
    decided = _own_values(cls)  # a method testing literals decides, calls or not
    for key, (values, prefix, _) in decided.items():
        out[key] = ("values", values, prefix)
    for key in hidden - decided.keys():
        out[key] = None
    return out


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
    body = _body(method)
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
    body = _body(method)
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


def _admits_all(theirs: dict[str, _Declared], mine: dict[str, _Declared]) -> bool:
    """Whether every declaration both make admits on their side all mine admits."""
    for key, declared in mine.items():
        other = theirs.get(key)
        if declared is None or other is None or declared[0] != other[0]:
            continue  # one of them not read: nothing to tell
        if declared[0] == "values" and not _values_within(declared, other):
            return False
        if declared[0] == "test" and not _test_within(declared, other):
            return False
    return True


def _values_within(mine: tuple[str, object, object], theirs: tuple[str, object, object]) -> bool:
    values, prefix, given = theirs[1], theirs[2], mine[1]
    assert isinstance(values, tuple) and isinstance(given, tuple)
    if all(isinstance(v, str) and v.isdigit() for v in (*values, *given)):
        # sizes: a size is taken where it is one listed (`head_size in sizes`) or a
        # multiple of one (`block_size % size == 0`); refused only where it is neither
        return all(any(int(v) % int(t) == 0 for t in values if int(t)) for v in given)
    held = prefix if isinstance(prefix, str) else None
    if not all(_supports(v, values, held) for v in given):
        return False
    return mine[2] is None or (held is not None and str(mine[2]).startswith(held))


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
