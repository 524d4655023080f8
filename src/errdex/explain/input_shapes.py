"""More condition shapes on the input, in words: a multiple (`x % n != 0`), a range
(`x < a or x > b`, `not a <= x <= b`), several requirements on one input joined by `or`
(`not isinstance(x, list) or len(x) < 2`), and a pattern the value must match
(`not PATTERN.fullmatch(x)`, `not re.match(r"...", x)`, with the pattern the module compiles).
Each says what the code accepts, with the bound or pattern read from the condition."""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.explain.input_words import Instead, _described, _value
from errdex.explain.path_tests import PATH_WORDS, same_file
from errdex.explain.plain import code
from errdex.extract.conditions import dotted_name

_MATCHERS = {"fullmatch": "matches as a whole", "match": "matches from its start"}
_INCLUSIVE = {ast.Lt: "at least", ast.LtE: "above", ast.Gt: "at most", ast.GtE: "below"}
_SHOWN_PATTERN = 80
# A test of the value (or of what its path names) by a method or `os.path` function: what
# passes it.
_PREDICATES = {
    "is_dir": PATH_WORDS["isdir"],
    "isdir": PATH_WORDS["isdir"],
    "is_file": PATH_WORDS["isfile"],
    "isfile": PATH_WORDS["isfile"],
    "exists": PATH_WORDS["exists"],
    "is_absolute": "an absolute path",
    "isabs": "an absolute path",
    "is_contiguous": "a contiguous tensor (`.contiguous()` gives one)",
    "isidentifier": "a valid Python identifier",
    "isdigit": "a string of digits",
    "isdecimal": "a string of digits",
    "isascii": "ASCII text",
}

Words = Callable[[ast.expr], Instead | None]


def more_shapes(
    node: ast.expr,
    described: dict[str, str],
    constants: dict[str, str],
    patterns: dict[str, str],
    words: Words,
    *,
    bare_paths: bool = False,
) -> Instead | None:
    """The sentence for a shape `input_words.what_to_pass` leaves unsaid (`words` is that
    function, for the parts of an `or`); None when it is none of these. With `bare_paths`,
    a path test on `Path(value)` is one on the value (else only on a path made to name a
    file on disk, `Path(value).resolve()`: `path_tests.same_file`)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return _every_part(node, described, words)
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    inner = node.operand if isinstance(node, ast.UnaryOp) and negative else node
    if isinstance(inner, ast.Compare):
        if negative and len(inner.ops) == 2:
            return _outside_range(inner, described, constants)
        if negative and len(inner.ops) == 1 and isinstance(inner.ops[0], ast.Eq):
            # `not (x % n == 0)` is `x % n != 0`
            flipped = ast.Compare(left=inner.left, ops=[ast.NotEq()], comparators=inner.comparators)
            return _not_multiple(flipped, described, constants)
        if not negative and len(inner.ops) == 1:
            return _not_multiple(inner, described, constants) or _no_match(
                inner, described, patterns
            )
    if negative and isinstance(inner, ast.Call):
        return _pattern(inner, described, patterns) or _predicate(inner, described, bare_paths)
    if negative and isinstance(inner, ast.BoolOp) and isinstance(inner.op, ast.Or):
        return _any_pattern(inner, described, patterns)
    if not negative and isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Mod):
        # `if n % BLOCK:` is `n % BLOCK != 0`
        zero = ast.Compare(left=inner, ops=[ast.NotEq()], comparators=[ast.Constant(0)])
        return _not_multiple(zero, described, constants)
    return None


def _every_part(node: ast.BoolOp, described: dict[str, str], words: Words) -> Instead | None:
    """`not isinstance(x, list) or len(x) < 2`: each part fails the check, so the value
    must meet every requirement; said once for the one input they all read."""
    texts: list[str] = []
    if not all(_requirement(part) for part in node.values):
        return None
    for part in node.values:
        found = words(part)
        if found is None or not found.text.startswith("Pass ") or " for " in found.text[:9]:
            return None
        texts.append(found.text[len("Pass ") :].rstrip("."))
    subjects = {d for d in described.values() if all(t.startswith(d) for t in texts)}
    if len(subjects) != 1 or len(texts) < 2:
        return None
    subject = _common_subject(texts, next(iter(subjects)))
    rests = [t[len(subject) :].strip() for t in texts]
    bounds = _range_words(rests)
    if bounds is not None:
        return Instead(f"Pass {subject} {bounds}.")
    return Instead(f"Pass {subject} {', and '.join(rests)}.")


def _common_subject(texts: list[str], root: str) -> str:
    """The words every part starts with, at a word's end outside a code span: the argument,
    or the attribute of it they all test (`... with a `.prompt``)."""
    shortest = min(len(t) for t in texts)
    differs = (i for i, chars in enumerate(zip(*texts, strict=False)) if len(set(chars)) > 1)
    common = texts[0][: next(differs, shortest)]
    for index in range(len(common), len(root) - 1, -1):
        at_end = all(len(t) == index or t[index] == " " for t in texts)
        head = common[:index]
        named = head == root or (head.endswith("`") and head.count("`") % 2 == 0)
        if at_end and named and all(t[index:].strip() for t in texts):
            return head
    return root


def _requirement(part: ast.expr) -> bool:
    """A part that says what the value lacks (a bound, a type, a form, a member of a set it
    must be in), not which of the code's branches was taken: `x == "a" or x == "b"` is
    an if/elif dispatch whose other side (`else: raise`) fails too, no way out."""
    if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not):
        return isinstance(part.operand, ast.Call)
    if isinstance(part, ast.Compare) and len(part.ops) == 1:
        return isinstance(part.ops[0], ast.Lt | ast.LtE | ast.Gt | ast.GtE | ast.NotEq | ast.NotIn)
    return False


def _range_words(rests: list[str]) -> str | None:
    """The words "at least `0`" and "at most `10`" (either order): "within [`0`, `10`]"."""
    if len(rests) != 2:
        return None
    lows = [r[len("at least ") :] for r in rests if r.startswith("at least ")]
    highs = [r[len("at most ") :] for r in rests if r.startswith("at most ")]
    if len(lows) == 1 and len(highs) == 1:
        return f"within [{lows[0]}, {highs[0]}] (both included)"
    return None


def _outside_range(
    inner: ast.Compare, described: dict[str, str], constants: dict[str, str]
) -> Instead | None:
    """`not a <= x <= b`: the input between the two bounds."""
    low, middle, high = inner.left, inner.comparators[0], inner.comparators[1]
    ops = [type(op) for op in inner.ops]
    if not all(op in (ast.Lt, ast.LtE) for op in ops):
        return None
    target = _described(middle, described)
    bounds = [described.get(dotted_name(b) or "") or _value(b, constants) for b in (low, high)]
    if target is None or None in bounds or _described(low, described):
        return None
    bounds = [_beside(target, b) if b else b for b in bounds]
    opening = "[" if ops[0] is ast.LtE else "("
    closing = "]" if ops[1] is ast.LtE else ")"
    return Instead(f"Pass {target} within {opening}{bounds[0]}, {bounds[1]}{closing}.")


def _not_multiple(
    inner: ast.Compare, described: dict[str, str], constants: dict[str, str]
) -> Instead | None:
    """`x % n != 0`: a multiple of `n`; `n % x != 0` with `n` fixed: a divisor of `n`."""
    left, right = inner.left, inner.comparators[0]
    zero = isinstance(right, ast.Constant) and right.value == 0
    if not (isinstance(inner.ops[0], ast.NotEq) and zero):
        return None
    if not (isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod)):
        return None
    target = _described(left.left, described)
    if target is not None:
        divisor = _fixed(left.right, described, constants)
        if divisor is None:
            return None
        return Instead(f"Pass {target} as a multiple of {_beside(target, divisor)}.")
    target = _described(left.right, described)
    dividend = _fixed(left.left, {}, constants)
    if target is None or dividend is None:
        return None
    return Instead(f"Pass {target} as a divisor of {dividend}.")


def _beside(target: str, other: str) -> str:
    """Another argument of the same call by its name alone: "the argument `pool_size`"."""
    owner = target[target.rfind(" of ") :] if " of " in target else None
    if owner and other.endswith(owner) and other.startswith("the argument "):
        return other.removesuffix(owner)
    return other


def _fixed(node: ast.expr, described: dict[str, str], constants: dict[str, str]) -> str | None:
    """A literal, a constant the index resolved (with its value), or another argument as
    it is: what the input is compared with, in words; None for what the code computes."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return code(repr(node.value))
    dotted = dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None
    if dotted is not None and dotted in constants:
        return _value(node, constants)
    return described.get(dotted) if dotted is not None else None


def _no_match(
    inner: ast.Compare, described: dict[str, str], patterns: dict[str, str]
) -> Instead | None:
    """`PATTERN.match(x) is None`: as `not PATTERN.match(x)`."""
    right = inner.comparators[0]
    none = isinstance(right, ast.Constant) and right.value is None
    if none and isinstance(inner.ops[0], ast.Is) and isinstance(inner.left, ast.Call):
        return _pattern(inner.left, described, patterns)
    return None


def _predicate(call: ast.Call, described: dict[str, str], bare_paths: bool) -> Instead | None:
    """`not path.is_dir()`, `not os.path.isfile(path)`, `not callable(x)`: a value the test
    passes."""
    func = call.func
    if isinstance(func, ast.Name) and not call.keywords:
        wants = _builtin_test(func.id, call.args)
        target = _described(call.args[0], described) if wants else None
        if target is None or " with a " in target:
            return None
        return Instead(f"Pass {target} as {wants}.")
    if not isinstance(func, ast.Attribute) or func.attr not in _PREDICATES or call.keywords:
        return None
    if dotted_name(func.value) == "os.path" and len(call.args) == 1:
        value = call.args[0]
    elif not call.args:
        value = func.value
    else:
        return None
    # the path made of the value to name a file (`Path(value).resolve()`): the same file
    made = same_file(value, normalised=not bare_paths)
    target = _described(value, described) or _described(made, described)
    if target is None or " with a " in target:
        return None
    return Instead(f"Pass {target} as {_PREDICATES[func.attr]}.")


def _builtin_test(name: str, args: list[ast.expr]) -> str | None:
    """What passes `callable(x)`, in words. (Not `hasattr(x, "name")`: what has the
    attribute is most often an object the package itself builds, a layer or a config.)"""
    if name == "callable" and len(args) == 1:
        return "a callable (a function, a class, or an object with a `__call__` method)"
    return None


def _pattern(call: ast.Call, described: dict[str, str], patterns: dict[str, str]) -> Instead | None:
    """`PATTERN.fullmatch(x)` / `re.match(r"...", x)` failing: the form the pattern
    accepts, with the pattern itself."""
    if not isinstance(call.func, ast.Attribute) or call.func.attr not in _MATCHERS:
        return None
    verb = _MATCHERS[call.func.attr]
    owner = call.func.value
    if isinstance(owner, ast.Name) and owner.id == "re":
        if len(call.args) != 2:
            return None
        pattern_node, value = call.args
        shown = _pattern_source(pattern_node, patterns)
    elif isinstance(owner, ast.Name) and owner.id in patterns and len(call.args) == 1:
        value = call.args[0]
        shown = f"{code(owner.id)} ({shown_pattern(patterns[owner.id])})"
    else:
        return None
    target = _described(value, described)
    if target is None or shown is None:
        return None
    return Instead(f"Pass {target} in a form the pattern {shown} {verb}.")


def _any_pattern(
    node: ast.BoolOp, described: dict[str, str], patterns: dict[str, str]
) -> Instead | None:
    """`not (A.match(x) or B.match(x))`: a form one of the patterns accepts, each shown."""
    found = [
        _pattern(p, described, patterns) if isinstance(p, ast.Call) else None for p in node.values
    ]
    texts = [f.text for f in found if f is not None]
    if len(texts) != len(node.values):
        return None
    lead = texts[0].partition(" in a form the pattern ")[0]
    if not all(t.startswith(f"{lead} in a form the pattern ") for t in texts):
        return None  # the parts test different values
    forms = [t.removeprefix(f"{lead} in a form the pattern ").removesuffix(".") for t in texts]
    return Instead(
        f"{lead} in a form one of these accepts: the pattern "
        + ", or the pattern ".join(forms)
        + "."
    )


def _pattern_source(node: ast.expr, patterns: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return shown_pattern(node.value)
    if isinstance(node, ast.Name) and node.id in patterns:
        return f"{code(node.id)} ({shown_pattern(patterns[node.id])})"
    return None


def shown_pattern(pattern: str) -> str:
    """The pattern as a page shows it: in code, cut at 80 characters, raw where it holds a
    backslash."""
    text = pattern if len(pattern) <= _SHOWN_PATTERN else pattern[: _SHOWN_PATTERN - 1] + "…"
    raw = "\\" in text and "'" not in text and not text.endswith("\\")
    return code(f"r'{text}'") if raw else code(repr(text))


def module_patterns(tree: ast.Module | None) -> dict[str, str]:
    """The module's compiled patterns: `NAME = re.compile(r"...")` → its text; the pattern
    may be a string the module binds before (`re.compile(time_expr)`) or an f-string of
    such strings (`re.compile(f"{date_expr}[T ]{time_expr}")`)."""
    found: dict[str, str] = {}
    strings: dict[str, str] = {}  # the module's strings bound before, by name
    for statement in tree.body if tree is not None else []:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target, value = statement.targets[0], statement.value
        if not isinstance(target, ast.Name):
            continue
        text = _module_string(value, strings)
        if text is not None:
            strings[target.id] = text
            continue
        strings.pop(target.id, None)
        if not isinstance(value, ast.Call):
            continue
        func = value.func
        compiled = isinstance(func, ast.Attribute) and func.attr == "compile"
        if compiled and dotted_name(func) == "re.compile" and value.args:
            pattern = _module_string(value.args[0], strings)
            if pattern is not None:
                found[target.id] = pattern
    return found


def module_pattern_tables(tree: ast.Module | None) -> dict[str, dict[str, str]]:
    """The module's tables of compiled patterns by name: `TABLE = {"scheme":
    re.compile("..."), ...}` → {"scheme": its text, ...}; every value must be a pattern
    compiled from a string `_module_string` reads, every key a string."""
    found: dict[str, dict[str, str]] = {}
    for statement in tree.body if tree is not None else []:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target, value = statement.targets[0], statement.value
        if not isinstance(target, ast.Name) or not isinstance(value, ast.Dict) or not value.keys:
            continue
        table: dict[str, str] = {}
        for key, item in zip(value.keys, value.values, strict=True):
            pattern = _compiled(item)
            if (
                not (isinstance(key, ast.Constant) and isinstance(key.value, str))
                or pattern is None
            ):
                break
            table[key.value] = pattern
        else:
            found[target.id] = table
    return found


def _compiled(node: ast.expr) -> str | None:
    """The text of `re.compile("...")`, or None."""
    if not (isinstance(node, ast.Call) and dotted_name(node.func) == "re.compile" and node.args):
        return None
    return _module_string(node.args[0], {})


def _module_string(node: ast.expr, strings: dict[str, str]) -> str | None:
    """A string literal, a name of one the module bound before, or an f-string of those
    alone (no conversion, no format spec); else None."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.Name):
        return strings.get(node.id)
    if not isinstance(node, ast.JoinedStr):
        return None
    parts: list[str] = []
    for part in node.values:
        if isinstance(part, ast.FormattedValue):
            if part.conversion != -1 or part.format_spec is not None:
                return None
            part = part.value
        text = _module_string(part, strings) if isinstance(part, ast.Constant | ast.Name) else None
        if text is None:
            return None
        parts.append(text)
    return "".join(parts)
