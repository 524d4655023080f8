"""Ways out through the environment: the package to install, the platform to run on.

A condition that finds an optional package's name None (the linker's `package` knob: its
`try: import` failed) is avoided by installing that package. A condition on a platform
test (`current_platform.is_cuda()`, `has_device_capability(100)`, a function that returns
`torch.cuda.is_available()`) is avoided only on a machine where the test comes out the
other way: the page names that machine in words, and says so only when every part of the
test is put in words exactly.
"""

from __future__ import annotations

import ast
import re
import sys

from errdex.explain.advice import message_advice
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, Knob, Solution
from errdex.explain.plain import code
from errdex.extract.conditions import negate
from errdex.facts import ConditionKind, KnobKind

# `<receiver>.is_<name>()`: the machine each names.
_IS_PLATFORM = {
    "is_cuda": "an NVIDIA GPU with CUDA",
    "is_cuda_alike": "a CUDA or ROCm GPU",
    "is_rocm": "an AMD GPU with ROCm",
    "is_cpu": "the CPU backend",
    "is_tpu": "a TPU",
    "is_xpu": "an Intel GPU (XPU)",
    "is_hpu": "an Intel Gaudi (HPU)",
    "is_neuron": "AWS Neuron",
    "is_mps": "an Apple GPU (MPS)",
}
# What reads the device's compute capability, as written before a comparison.
_DEVICE_CAPABILITY = re.compile(r"\bget_device_capability\(\)(?:\.to_int\(\)|\[0\])?$")
# calls whose value is their one argument's truth
_PASS_THROUGH = frozenset({"bool", "const_expr", "constexpr"})
# How a way out through the platform test says so (`platform_solution`).
MACHINE_TESTED = "tests the machine, not your input"
_SYS_PLATFORMS = {"win32": "Windows", "linux": "Linux", "darwin": "macOS", "cygwin": "Cygwin"}


def package_solution(
    condition: ConditionView,
    knobs: list[Knob],
    facts: Facts | None = None,
) -> tuple[str, Knob] | None:
    """ "Install the package that provides `pkg`", when the condition finds the optional
    name missing (`x is None`, `not HAS_X`) on the path to the site. The site's file
    (`facts`) tells a missing submodule of a package the file imports unguarded: that
    package is installed, a version without the submodule; when the message says what to
    do, such a case is left to its words."""
    node = _parse(condition.text)
    if node is None:
        return None
    for knob in knobs:
        if knob.kind != KnobKind.PACKAGE or not knob.behind or not knob.same_value:
            continue
        if any(_missing(part, knob.behind) for part in all_of(node)):
            failed = [m.strip() for m in knob.name.split(",")]
            tops = list(dict.fromkeys(m.split(".")[0] for m in failed))
            modules = ", ".join(code(t) for t in tops)
            submodules = len(tops) == 1 and all("." in m for m in failed)
            if submodules and facts is not None and tops[0] in _unguarded_imports(facts):
                # `import cutlass` at the top of the file ran: what is missing is the
                # submodule, which installing `cutlass` again does not bring
                message = facts.stored.site.message
                if message_advice(message.text if message is not None else None):
                    return None
                subs = ", ".join(code(m) for m in failed)
                text = (
                    f"Install a version or build of {modules} that ships {subs} (the file "
                    f"imports {modules} unguarded, so it is installed; {code(knob.behind)} is "
                    f"unset here: importing {subs} failed)"
                )
                return text, knob
            if all(t in sys.stdlib_module_names for t in tops):
                # a standard module a Python build left out (`cProfile` on some builds)
                text = f"Use a Python build that includes the standard module {modules}"
            elif len(tops) == 1:
                text = f"Install the package that provides the module {modules}"
            else:
                text = f"Install the packages that provide the modules {modules}"
            text += f" ({code(knob.behind)} is unset here: importing {code(knob.name)} failed)"
            return text, knob
    return None


def _unguarded_imports(facts: Facts) -> set[str]:
    """The top-level packages the site's file imports at its top level outside a `try`:
    those are installed wherever the module runs at all."""
    tree = facts.source_tree()
    found: set[str] = set()
    for statement in tree.body if tree is not None else []:
        if isinstance(statement, ast.Import):
            found.update(alias.name.split(".")[0] for alias in statement.names)
        elif isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
            found.add(statement.module.split(".")[0])
    return found


def platform_solution(
    condition: ConditionView, knobs: list[Knob], locals_: dict[str, str] | None = None
) -> str | None:
    """ "Run it on <machine>", when the way out is the platform test coming out the other
    way. `locals_` (a local → the source it was assigned) lets `capability < 90` be read
    as the device's capability it was set from."""
    node = _parse(condition.text)
    if node is None:
        return None
    tests = {
        k.behind: k.name for k in knobs if k.kind == KnobKind.PLATFORM and k.behind and k.same_value
    }
    node = _Inline(tests).visit(node)
    for _ in range(2):  # `capability` = `capability_tuple.to_int()` = `...get_device_capability()`
        node = _InlineLocals(locals_ or {}).visit(node)
    # the condition holds on the path to the site: the way out is its opposite, or that
    # of one of its parts when all must hold
    parts = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) else []
    words = next(
        (w for w in (machine_words(negate(p)) for p in [node, *parts]) if w is not None), None
    )
    if words is None:
        return None
    return f"Run it on {words}: the check at line {condition.line} {MACHINE_TESTED}"


def machine_words(node: ast.expr) -> str | None:
    """A platform test in words (`an NVIDIA GPU with CUDA of compute capability 10.0 or
    newer`), or None when any part of it is not a platform test put in words exactly."""
    if isinstance(node, ast.BoolOp):
        parts = [machine_words(v) for v in node.values]
        if any(p is None for p in parts):
            return None
        joiner = " and " if isinstance(node.op, ast.And) else ", or "
        return joiner.join(p for p in parts if p)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        name = node.func.attr
        if name in _IS_PLATFORM and not node.args:
            return _IS_PLATFORM[name]
        if name == "is_available" and not node.args:
            owner = ast.unparse(node.func.value)
            if owner.endswith("cuda"):
                return "an NVIDIA GPU with CUDA"
            if owner.endswith("mps"):
                return "an Apple GPU (MPS)"
        capability = _capability(node.args[0]) if len(node.args) == 1 else None
        if capability is not None:
            if name == "has_device_capability":
                return f"a GPU of compute capability {capability} or newer"
            if name == "is_device_capability":
                return f"a GPU of compute capability {capability} exactly"
            if name == "is_device_capability_family":
                return f"a GPU of the compute capability {capability.split('.')[0]}.x family"
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return _compared(node)
    return None


def _compared(node: ast.Compare) -> str | None:
    left, op, right = node.left, node.ops[0], node.comparators[0]
    text = ast.unparse(left)
    if _DEVICE_CAPABILITY.search(text):
        return _capability_bound(text, op, right)
    if not isinstance(right, ast.Constant):
        return None
    if text == "sys.platform" and isinstance(right.value, str):
        name = _SYS_PLATFORMS.get(right.value, repr(right.value))
        if isinstance(op, ast.Eq):
            return name
        if isinstance(op, ast.NotEq):
            return f"a system other than {name}"
    return None


def _capability_bound(text: str, op: ast.cmpop, right: ast.expr) -> str | None:
    """`get_device_capability()[0] >= 10`, `capability.to_int() >= 90`,
    `capability >= min_capability`: the lowest capability that passes, in words."""
    if not isinstance(op, ast.GtE | ast.Gt):
        return None
    if isinstance(right, ast.Constant) and isinstance(right.value, int):
        if text.endswith("[0]"):  # the major version alone
            lowest = right.value + (1 if isinstance(op, ast.Gt) else 0)
            return f"a GPU of compute capability {lowest}.x or newer"
        bound = _capability(right)
        if bound is None or isinstance(op, ast.Gt):
            return None
        return f"a GPU of compute capability {bound} or newer"
    bound = _capability(right)
    if bound is not None and isinstance(op, ast.GtE):
        return f"a GPU of compute capability {bound} or newer"
    if isinstance(op, ast.GtE) and not isinstance(right, ast.Constant):
        # the bound is computed (`quant_config.get_min_capability()`): the message often
        # prints it
        return f"a GPU of compute capability at least {code(ast.unparse(right))}"
    return None


def _capability(node: ast.expr) -> str | None:
    """`100` → `10.0`, `(9, 0)` → `9.0`, `DeviceCapability(9, 0)`: how vLLM and torch write
    a compute capability."""
    if isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords:
        node = ast.Tuple(elts=list(node.args), ctx=ast.Load())
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and node.value >= 10:
        return f"{node.value // 10}.{node.value % 10}"
    if isinstance(node, ast.Tuple) and len(node.elts) == 2:
        major, minor = (e.value if isinstance(e, ast.Constant) else None for e in node.elts)
        if isinstance(major, int) and isinstance(minor, int):
            return f"{major}.{minor}"
    return None


def all_of(node: ast.expr) -> list[ast.expr]:
    """The condition and, when it is `a and b`, each part (every one holds on the path),
    seen through a wrapper that hands its one argument's truth on (`bool(x)`, the DSL's
    `const_expr(x)` that only evaluates `x` at compile time)."""
    while (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and not node.keywords
        and (_text(node.func) or "").rsplit(".", 1)[-1] in _PASS_THROUGH
    ):
        node = node.args[0]
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [node, *(p for v in node.values for p in all_of(v))]
    return [node]


def _missing(node: ast.expr, name: str) -> bool:
    """`name is None` or `not name`: the shapes that say an optional import failed."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _text(node.operand) == name
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        right = node.comparators[0]
        return (
            isinstance(node.ops[0], ast.Is | ast.Eq)
            and isinstance(right, ast.Constant)
            and right.value is None
            and _text(node.left) == name
        )
    return False


def _text(node: ast.expr) -> str | None:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return None


def _parse(text: str) -> ast.expr | None:
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None


class _InlineLocals(ast.NodeTransformer):
    """A local name → the expression it was assigned, where that names the device."""

    def __init__(self, values: dict[str, str]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        source = self.values.get(node.id)
        if source is None or "capability" not in source:
            return node
        return _parse(source) or node


class _Inline(ast.NodeTransformer):
    """`_has_sm100_cuda()` → the test the function returns."""

    def __init__(self, tests: dict[str, str]) -> None:
        self.tests = tests

    def visit_Call(self, node: ast.Call) -> ast.expr:
        name = _text(node.func)
        if name in self.tests and not node.args:
            found = _parse(self.tests[name])
            if found is not None:
                return found
        self.generic_visit(node)
        return node


_IMPORT_ERRORS = ("ImportError", "ModuleNotFoundError")


def failed_import_solutions(facts: Facts) -> list[Solution]:
    """A raise under `except ImportError`: the import its `try` made failed."""
    out: list[Solution] = []
    for condition in facts.conditions:
        if condition.kind != ConditionKind.EXCEPT or not any(
            e in condition.text for e in _IMPORT_ERRORS
        ):
            continue
        tried = facts.read.tries.get(condition.line)
        if tried is None or not tried.imports:
            continue
        modules = ", ".join(code(m) for m in tried.imports[:3])
        out.append(
            Solution(
                text=f"Install the package that provides {modules}: the import at line "
                f"{tried.line} failed, and this is raised in its place.",
                condition=condition.text,
                kind="environment",
            )
        )
    return out
