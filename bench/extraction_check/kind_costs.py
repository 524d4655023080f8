"""Instructions of a file's first extraction, per fact kind (callgrind), in any source tree.

    python bench/extraction_check/kind_costs.py TREE_SRC FILES [--every 20] [--recorders]
        [--cold] [--keep OUT]

FILES is a folder of unzipped source or a wheel (`.whl`); every EVERY-th `.py` file (sorted by
path) is extracted as a worker's first round does (`extract_first_hidden`, the facts
encoded, the names packed), with TREE_SRC first on `PYTHONPATH`; nothing of FILES is imported.

Callgrind sees C functions only, so each pass of `errdex.extract._extract_text` (every
function it calls by a name of the package: the parse, the walker, the readings, each text
scan...), and of `extract_first_hidden` around it (`build_skeleton`, `hidden_text`), is called
through a C function of its own, `tramp_NN` of a small extension built
here with the system's C compiler; the inclusive instructions of `tramp_NN` are that pass's,
everything it calls included. With `--recorders`, the walker's recorders' methods are
passed through one per recorder class too (each call then costs a few hundred instructions
more, which shows in the walker's own figure).

By default the files are extracted twice and only the second round is counted: the first
compiles the patterns a worker compiles once for thousands of files (a slice of 160 files
would otherwise charge a rare scan with its patterns' compilation), and `re`'s cache is
emptied between them, so that patterns made per name are counted. `--cold` counts a single
round, as `before_after.py --instructions` does.

Prints each pass's instructions (M), nested ones indented under what calls them as the
tree of the current code has them (`read_lines` in `_readings`, `blanked_calls` in
`_call_sites`, the recorders in `Walker.run`), and their sum; then what the round spends
between the passes (`extract_first_hidden` whole, less its passes: freeing each file's
tree, decoding its bytes, ...; it also takes in the trampolines' own calls, a few hundred
instructions each), the young collections a worker makes after each batch (here after each
64 files, a stand-in for `indexing.parallel`'s batches of `_BATCH_BYTES`), and the whole
round.
"""

from __future__ import annotations

import argparse
import inspect
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

_TRAMPOLINES = 64
_NESTED = {"read_lines": "_readings", "blanked_calls": "_call_sites"}
# what `_extract_text` calls that is no pass of its own (the entry points, small helpers)
_NOT_PASSES = {
    "extract_file",
    "extract_first_hidden",
    "extract_again",
    "extract_first",
    "_extract_file",
    "_extract_text",
    "spliced",
    "decode_source",
    "over_budget",
    "module_name",
}
_WHOLE = "extract_first_hidden"
_COLLECT = "gc.collect(0)"
# a worker collects after each batch of files (`indexing.parallel._BATCH_BYTES` of text);
# a count of files stands in for it here
_BATCH_FILES = 64
_RECORDERS = (
    "SiteRecorder",
    "AssignmentRecorder",
    "CallRecorder",
    "DefinitionRecorder",
    "FactoryRecorder",
)


def _build_trampolines(into: Path) -> None:
    """`cgtramp.call(k, f, *args, **kwargs)`: `f(*args, **kwargs)` through C function `tramp_k`."""
    lines = ["#define PY_SSIZE_T_CLEAN", "#include <Python.h>"]
    for k in range(_TRAMPOLINES):
        lines.append(
            f"__attribute__((noinline)) PyObject *tramp_{k:02d}(PyObject *f, PyObject *a, "
            'PyObject *kw) { PyObject *r = PyObject_Call(f, a, kw); __asm__ volatile(""); '
            "return r; }"
        )
    table = ", ".join(f"tramp_{k:02d}" for k in range(_TRAMPOLINES))
    lines.append(
        "typedef PyObject *(*T)(PyObject *, PyObject *, PyObject *);\n"
        f"static T table[{_TRAMPOLINES}] = {{{table}}};\n"
        "static PyObject *call(PyObject *self, PyObject *args, PyObject *kw) {\n"
        "    Py_ssize_t n = PyTuple_GET_SIZE(args);\n"
        '    if (n < 2) { PyErr_SetString(PyExc_TypeError, "call(k, f, *args)"); return NULL; }\n'
        "    long k = PyLong_AsLong(PyTuple_GET_ITEM(args, 0));\n"
        f'    if (k < 0 || k >= {_TRAMPOLINES}) {{ PyErr_SetString(PyExc_ValueError, "k"); '
        "return NULL; }\n"
        "    PyObject *rest = PyTuple_GetSlice(args, 2, n);\n"
        "    if (rest == NULL) return NULL;\n"
        "    PyObject *r = table[k](PyTuple_GET_ITEM(args, 1), rest, kw);\n"
        "    Py_DECREF(rest);\n"
        "    return r;\n"
        "}\n"
        'static PyMethodDef methods[] = {{"call", (PyCFunction)(void (*)(void))call, '
        'METH_VARARGS | METH_KEYWORDS, ""}, {NULL}};\n'
        'static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "cgtramp", NULL, -1, methods};\n'
        "PyMODINIT_FUNC PyInit_cgtramp(void) { return PyModule_Create(&mod); }"
    )
    source = into / "cgtramp.c"
    source.write_text("\n".join(lines) + "\n")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    include = sysconfig.get_paths()["include"]
    subprocess.run(
        ["cc", "-O1", "-g", "-shared", "-fPIC", f"-I{include}", str(source), "-o",
         str(into / f"cgtramp{suffix}")],
        check=True,
    )  # fmt: skip


def _files(source: Path, every: int) -> list[tuple[str, bytes]]:
    if source.is_dir():
        names = sorted(str(p.relative_to(source)) for p in source.rglob("*.py"))
        return [(n, (source / n).read_bytes()) for n in names[::every]]
    import zipfile

    with zipfile.ZipFile(source) as wheel:
        names = sorted(n for n in wheel.namelist() if n.endswith(".py"))
        return [(n, wheel.read(n)) for n in names[::every]]


def _child(source: Path, every: int, recorders: bool, cold: bool, labels: Path) -> None:
    """Run in callgrind: extract the files with each pass behind its own trampoline."""
    import gc

    import cgtramp  # type: ignore[import-not-found]  # built by `_build_trampolines`

    import errdex.extract as extract
    from errdex.extract import walker
    from errdex.extract.skeleton import MIN_SKELETON_BYTES
    from errdex.indexing.called_names import packed
    from errdex.indexing.parallel import encode_facts

    ids: dict[str, int] = {}
    active = [False]

    def through(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
        k = ids.setdefault(label, len(ids))
        if k >= _TRAMPOLINES:
            raise SystemExit(
                f"{len(ids)} passes to count, {_TRAMPOLINES} trampolines: raise _TRAMPOLINES"
            )
        inside = [0]  # a pass that calls itself (a recorder's methods) is counted once

        def passed(*args: object, **kwargs: object) -> Any:
            if inside[0] or not active[0]:
                return function(*args, **kwargs)
            inside[0] += 1
            try:
                return cgtramp.call(k, function, *args, **kwargs)
            finally:
                inside[0] -= 1

        return passed

    for name, value in list(vars(extract).items()):
        if not inspect.isfunction(value) or name in _NOT_PASSES:
            continue
        # the functions `_extract_text` imports, and three of the package's own
        if value.__module__ != extract.__name__ or name in ("_parse", "_readings", "_call_sites"):
            setattr(extract, name, through(name, value))
    walker.Walker.run = through("Walker.run", walker.Walker.run)  # type: ignore[method-assign]
    for recorder in _RECORDERS if recorders else ():
        cls = getattr(walker, recorder)
        for name, value in list(vars(cls).items()):
            if inspect.isfunction(value) and not name.startswith("__"):
                setattr(cls, name, through(recorder, value))
    encode = through("encode_facts", encode_facts)
    pack = through("packed", packed)
    # the whole of each file's extraction, passes and what lies between them (freeing its
    # tree, decoding its bytes), and the young collections: counted apart, not as passes
    whole = through(_WHOLE, extract.extract_first_hidden)
    collect = through(_COLLECT, gc.collect)
    labels.write_text("".join(f"{k} {label}\n" for label, k in ids.items()))
    files = _files(source, every)

    def first_round() -> None:
        for done, (path, data) in enumerate(files, 1):
            facts, _, hidden = whole(path, data)
            encode(facts)
            if len(data) >= MIN_SKELETON_BYTES:
                pack(hidden.encode(errors="replace"))
            if done % _BATCH_FILES == 0:
                collect(0)  # as a worker does after each batch

    gc.disable()  # as in a worker (`gcpause`)
    if not cold:
        first_round()
        re.purge()
        gc.collect()
    active[0] = True
    first_round()


def _inclusive(out: Path) -> dict[int, int]:
    """Trampoline → its inclusive instructions, from callgrind_annotate."""
    report = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found: dict[int, int] = {}
    for line in report.splitlines():
        match = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+\S*:tramp_(\d+)\s", line)
        if match and int(match[2]) not in found:  # the summary, before the call lists
            found[int(match[2])] = int(match[1].replace(",", ""))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("tree", type=Path, help="a `src` folder of errdex")
    parser.add_argument("files", type=Path, help="a folder of source or a wheel")
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--recorders", action="store_true")
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--keep", type=Path, help="write callgrind's output here")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.files, args.every, args.recorders, args.cold, args.child)
        return
    with tempfile.TemporaryDirectory(prefix="kind-costs-") as work:
        folder = Path(work)
        _build_trampolines(folder)
        out = args.keep or folder / "callgrind.out"
        labels = folder / "labels"
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            sys.executable, __file__, str(args.tree), str(args.files), "--every",
            str(args.every), "--child", str(labels),
        ]  # fmt: skip
        command += ["--recorders"] * args.recorders + ["--cold"] * args.cold
        path = os.pathsep.join([str(args.tree.resolve()), str(folder)])
        child = subprocess.run(
            command, env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True
        )
        if child.returncode != 0:  # valgrind's own lines, then the child's traceback
            sys.exit(f"the extraction under callgrind failed:\n{child.stderr}")
        names = {
            int(k): label for k, label in (s.split(" ", 1) for s in labels.read_text().splitlines())
        }
        counts = {names[k]: n for k, n in _inclusive(out).items()}
    nested = {**_NESTED, **dict.fromkeys(_RECORDERS, "Walker.run")}
    apart = {label: counts.pop(label, 0) for label in (_WHOLE, _COLLECT)}
    top = {label: n for label, n in counts.items() if label not in nested}
    total = sum(top.values())
    round_ = "one round, cold" if args.cold else "the second of two rounds"
    print(f"every {args.every}th .py file of {args.files.name}, {round_} (M instructions):")
    for label, count in sorted(top.items(), key=lambda item: -item[1]):
        print(f"  {count / 1e6:9.1f}  {count / total:6.1%}  {label}")
        for inner, outer in nested.items():
            if outer == label and inner in counts:
                print(f"  {counts[inner] / 1e6:9.1f}  {counts[inner] / total:6.1%}    {inner}")
    print(f"  {total / 1e6:9.1f}  the passes together")
    # `extract_first_hidden` holds every pass but these two, which a worker runs after it
    outside = apart[_WHOLE] - total + top.get("encode_facts", 0) + top.get("packed", 0)
    print(
        f"  {outside / 1e6:9.1f}  between the passes (freeing each tree, decoding, ..., "
        "the trampolines' calls)"
    )
    print(
        f"  {apart[_COLLECT] / 1e6:9.1f}  the young collections after each batch "
        f"({_BATCH_FILES} files)"
    )
    whole_round = total + outside + apart[_COLLECT]
    print(f"  {whole_round / 1e6:9.1f}  the round")


if __name__ == "__main__":
    main()
