"""Minimal reproductions for the second extraction check (RESULTS-2.md).

Usage (from the repository root):  .venv/bin/python bench/extraction_check/repro-2.py [NAME ...]

Each case is a small package given as {path: source}. It is run through `extract_file` and
`link_version`, the same two steps the indexer uses, and the resulting sites are printed.
B1-B6 are the bugs of the first check (RESULTS.md); B6-global and B7-B11 show what still
fails (B12 is visible in the B8 case `demo/layout.py`).
"""

from __future__ import annotations

import sys
import textwrap

from errdex.extract import extract_file
from errdex.link import link_version

# A site-free function of about 18 KB. Files of 12,000 bytes or more go through the skeleton
# (extract/skeleton.py), which blanks the bodies of functions that hold no site word.
PADDING = (
    "\n\ndef padding():\n"
    + "".join(
        f"    value_{i} = {i} * 2  # filler line to make the file large\n" for i in range(300)
    )
    + "    return value_0\n"
)

CASES: dict[str, dict[str, str]] = {
    "B1": {
        "demo/m.py": """
            def f(c):
                d = c.dtype
                if c is None:
                    d = "auto"
                raise ValueError(f"dtype {d}")


            def g(c):
                if c is not None:
                    d = c.dtype
                else:
                    d = "auto"
                assert d in ["auto", "bf16"], (
                    f"dtype was {d}"
                )
            """
    },
    "B2": {
        "demo/m.py": """
            def f(m):
                if "a" in m:
                    return 1
                elif "b" in m:
                    return 2
                raise AssertionError("unreachable")


            def g(c):
                if c:
                    return 1
                else:
                    log()
                raise ValueError("x")
            """
    },
    "B3": {
        "demo/m.py": """
            def f(n, h):
                with ctx():
                    if not n:
                        return None
                assert h is not None


            def g(n, h):
                try:
                    if not n:
                        return None
                finally:
                    pass
                assert h is not None


            def k(n, h):
                if n:
                    with ctx():
                        return 1
                assert h is not None
            """
    },
    "B4": {
        "demo/m.py": """
            def emit(out, kind, text):
                if kind == "text":
                    out.append(text)
                elif kind == "thinking":
                    out.append(text)
                else:
                    raise ValueError(f"unsupported part kind: {kind!r}")


            def render(out, t):
                emit(
                    out, "thinking", t
                )


            def validate(params):
                def check(valid, message):
                    if not valid:
                        raise ValueError(message)

                cap = params.get("cap")
                if cap is not None:
                    check(isinstance(cap, int) and cap > 0, "cap must be a positive integer.")
            """
    },
    "B5": {
        "demo/m.py": """
            def f(path, n):
                if n not in (1, 2):
                    raise ValueError(
                        "n must be in {1, 2}"
                    )
                raise KeyError(
                    f"placeholder '{{{path}}}' is missing"
                )
            """
    },
    "B6": {
        "demo/m.py": """
            try:
                from foo import BAR
            except ImportError:
                BAR = "missing"

            MODE = "a"
            MODE = compute()


            def f():
                raise ValueError(f"bar is {BAR}")


            def g():
                if MODE == "a":
                    raise ValueError(f"mode {MODE}")
            """
    },
    # B6, still open: a module name rebound through `global` inside a function.
    "B6-global": {
        "demo/backends.py": """
            model_tag: str = "backbone"


            def set_model_tag(tag):
                global model_tag
                assert tag != model_tag, f"Model tag {tag} is the current tag {model_tag}."
                model_tag = tag
            """
    },
    # A name declared only under `if TYPE_CHECKING:` (its value comes from `__getattr__`).
    "B11": {
        "demo/envs.py": """
            import os
            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                LOG_LEVEL: str = "DEBUG"

            environment_variables = {"LOG_LEVEL": lambda: os.getenv("LOG_LEVEL", "DEBUG")}


            def __getattr__(name):
                return environment_variables[name]()
            """,
        "demo/use.py": """
            import logging

            from demo import envs

            logger = logging.getLogger(__name__)


            def level():
                try:
                    return logging.getLevelNamesMapping()[envs.LOG_LEVEL]
                except KeyError:
                    logger.warning("Invalid logging level: %s.", envs.LOG_LEVEL)
            """,
    },
    # A helper defined in another module that raises a builtin exception.
    "B7": {
        "demo/host.py": """
            def check(grid, limit, what):
                if grid > limit:
                    raise RuntimeError(f"{what}: {grid} CTAs cannot be co-resident")
            """,
        "demo/runner.py": """
            from .host import check


            def prepare(n):
                check(n, 384, "MoE experts")
            """,
    },
    # A helper with two raises that use the parameter: no site from another module,
    # only the first raise from the same module.
    "B8": {
        "demo/parse.py": """
            class Items(dict):
                def get_items(self, modality, typ):
                    if modality not in self:
                        raise KeyError(f"Modality {modality!r} not found.")
                    items = self[modality]
                    if not isinstance(items, typ):
                        raise TypeError(f"Invalid type of data items for {modality=}.")
                    return items
            """,
        "demo/user.py": """
            def f(parsed):
                return parsed.get_items("image", list)
            """,
        "demo/layout.py": """
            def validate(shape, dim, factor, context):
                if dim >= len(shape):
                    raise ValueError(f"{context} shards dim {dim}, but rank is {len(shape)}")
                if shape[dim] % factor:
                    raise ValueError(f"{context} shards dim {dim} unevenly")


            def expected(meta):
                return validate(meta.shape, 0, 2, "parameter source layout")
            """,
    },
    # The same helper call, in a small file and in a large one (skeleton).
    "B9": {
        "demo/small.py": """
            def check(ok, msg):
                if not ok:
                    raise ValueError(msg)


            def f(x):
                check(x > 0, "x must be positive")
            """,
        "demo/large.py": """
            def check_large(ok, msg):
                if not ok:
                    raise ValueError(msg)


            def f(x):
                check_large(x > 0, "x must be positive")
            """
        + PADDING,
    },
    # A multi-line `def ...(...): ...` stub makes the skeleton blank the start of the next
    # function (large files only).
    "B10": {
        "demo/small.py": """
            from typing import TYPE_CHECKING


            class Mixin:
                if TYPE_CHECKING:

                    def _hook(
                        self,
                        modalities: set[str] | str,
                    ): ...

                @classmethod
                def placeholder(cls, modality: str) -> str | None:
                    if modality.startswith("image"):
                        return "<|patch|>"
                    raise ValueError(f"Unsupported modality: {modality}")
            """,
        "demo/large.py": """
            from typing import TYPE_CHECKING


            class Mixin:
                if TYPE_CHECKING:

                    def _hook(
                        self,
                        modalities: set[str] | str,
                    ): ...

                @classmethod
                def placeholder(cls, modality: str) -> str | None:
                    if modality.startswith("image"):
                        return "<|patch|>"
                    raise ValueError(f"Unsupported modality: {modality}")
            """
        + PADDING,
    },
}


def run(name: str) -> None:
    files = CASES[name]
    facts = []
    for path, text in files.items():
        head, padded, _ = text.partition(PADDING)
        source = textwrap.dedent(head).lstrip("\n") + padded
        facts.append(extract_file(path, source.encode()))
    print(f"== {name}")
    for s in link_version("demo", facts):
        site = s.site
        text = site.message.text if site.message is not None else None
        qual = s.exception.qualname if s.exception is not None else None
        where = f"{s.file}:{site.line} {site.kind} in {site.function}"
        print(f"{where}: {site.exception} ({qual}) {text!r}")
        for c in site.conditions:
            print(f"    {c.kind} L{c.line}: {c.statement}")


if __name__ == "__main__":
    for case in sys.argv[1:] or list(CASES):
        run(case)
