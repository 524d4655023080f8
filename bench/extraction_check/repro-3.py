"""Minimal reproductions for the third extraction check (RESULTS-3.md).

Usage (from the repository root):  .venv/bin/python bench/extraction_check/repro-3.py [NAME ...]

Each case is a small package given as {path: source}. It is run through `extract_file` and
`link_version`, the same two steps the indexer uses, and the resulting sites are printed.
"""

from __future__ import annotations

import sys
import textwrap

from errdex.extract import extract_file
from errdex.link import link_version

CASES: dict[str, dict[str, str]] = {
    # A helper raising one message under two guards: the helper site gets no guard at all,
    # so a call whose arguments make both raises impossible is still a site.
    "B13": {
        "demo/tu.py": """
            def get_dtype(cache_dtype, model_dtype=None):
                if isinstance(cache_dtype, str):
                    if cache_dtype == "auto":
                        torch_dtype = model_dtype
                    elif cache_dtype in TABLE:
                        torch_dtype = TABLE[cache_dtype]
                    else:
                        raise ValueError(f"Invalid kv cache dtype: {cache_dtype}")
                elif isinstance(cache_dtype, int):
                    torch_dtype = cache_dtype
                else:
                    raise ValueError(f"Invalid kv cache dtype: {cache_dtype}")
                return torch_dtype
            """,
        "demo/use.py": """
            from demo.tu import get_dtype


            def f(m):
                return get_dtype("auto", m)
            """,
    },
    # `if A: ... elif B: ... else: raise` lets only `A or B` through; an `if/else` does
    # give its positive early exit.
    "B14": {
        "demo/m.py": """
            def f(a):
                if a:
                    y = 1
                else:
                    raise ValueError("no a")
                raise KeyError("site f")


            def g(a, b):
                if a:
                    y = 1
                elif b:
                    y = 2
                else:
                    raise ValueError("neither")
                raise KeyError("site g")
            """
    },
    # Messages chosen in branches: the default's site lacks "no branch replaced it"; a dead
    # default (every arm assigns) hides the else arm's conditions; a None default makes a
    # site of its own although the raise's guard excludes it.
    "B15": {
        "demo/m.py": """
            def f(needed, available, estimate):
                if needed > available:
                    est = estimate(available)
                    extra = ""
                    if est > 0:
                        extra = (
                            "Based on the available memory, "
                            f"the estimated maximum model length is {est}. "
                        )
                    raise ValueError(f"Not enough memory. {extra}Try increasing it.")


            def g(a, b):
                why = None
                if a:
                    why = "needs a"
                elif b:
                    why = "needs b"
                else:
                    why = compute()
                if why is not None:
                    raise ValueError(f"x {why}.")


            def h(a, b):
                why: str | None = None
                if a:
                    why = "needs a"
                elif b:
                    why = "needs b"
                if why is not None:
                    raise ValueError(f"x {why}.")
            """
    },
    # A closure reads its enclosing function's variable when it is called, not when it is
    # defined: the message is "second message".
    "B16": {
        "demo/m.py": """
            def outer(items):
                errmsg = "first message"

                def check(x):
                    if not x:
                        raise ValueError(errmsg)

                errmsg = "second message"
                for i in items:
                    check(i)
            """
    },
    # A method helper called on another object: its guard keeps `self` (and a classmethod's
    # `cls`) instead of the call's receiver.
    "B17": {
        "demo/items.py": """
            class Items(dict):
                def get_items(self, modality):
                    if modality not in self:
                        raise KeyError(f"Modality {modality!r} not found.")
                    return self[modality]


            class Factory:
                _registry = {}

                @classmethod
                def register(cls, name):
                    if name in cls._registry:
                        raise ValueError(f"Backend '{name}' is already registered.")
                    cls._registry[name] = True


            Factory.register("cumem")
            """,
        "demo/user.py": """
            def f(mm_items):
                return mm_items.get_items("image")
            """,
    },
    # `raise result` of a variable that holds an exception: the variable's name is given as
    # the exception class and qualified name.
    "B18": {
        "demo/m.py": """
            async def resolve(items):
                results = await gather(*items, return_exceptions=True)
                for result in results:
                    if isinstance(result, BaseException):
                        raise result
            """
    },
}


def run(name: str) -> None:
    facts = [
        extract_file(path, textwrap.dedent(text).lstrip("\n").encode())
        for path, text in CASES[name].items()
    ]
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
