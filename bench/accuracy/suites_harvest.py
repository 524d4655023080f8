"""Rebuild the accuracy set in `suites/` from the test suites of packages errdex was not built on.

    python bench/accuracy/suites_harvest.py [--packages NAME ...] [--per-site 3] [--rerun]

For each pinned release below: its sdist is downloaded (its test suite ships in it), the
package itself is installed from its wheel into a scratch virtualenv with what its tests
need, the package's own copy in the sdist is removed (so the tests import the wheel), and
the tests run under pytest with `suites_plugin.py`, which records every error the package's
code raised, warned, logged or exited with, where it did, and what the user saw. The
records are made into cases: deduplicated by (site, message), at most `--per-site` per site
(the first in message order, so a rebuild picks the same), and their machine paths replaced
by the paths of a user's checkout, so that a paste reads as one from anyone's machine.

Everything runs under bench/out/suites (kept between runs: `--rerun` runs the tests again).
This runs the packages' code and tests, which errdex never does: it is how the benchmark
gets real errors whose origin is known for certain.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
OUT = HERE.parent / "out" / "suites"
SUITES = HERE / "suites"
# Where a pasted path seems to come from, instead of this machine's folders.
USER_VENV = "/home/dev/project/.venv/lib/python3.11/site-packages"
USER_CHECKOUT = "/home/dev/project"
USER_STDLIB = "/usr/lib/python3.11"


@dataclass(frozen=True)
class Suite:
    """A pinned release and what its tests need."""

    spec: str
    imports: tuple[str, ...]  # the package's top-level folders in the wheel
    needs: tuple[str, ...] = ()  # test requirements (the newest that pip picks, pytest pinned)
    tests: str = "tests"  # the test folder inside the sdist
    tests_inside: bool = False  # the tests are a subpackage of the package (relative imports)
    pytest_args: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.spec.split("==")[0]


SUITES_PINNED = (
    Suite("typer==0.29.2", ("typer",), ("pytest==9.0.2", "rich", "shellingham", "coverage")),
    Suite(
        "starlette==1.10.0",
        ("starlette",),
        (
            "pytest==9.0.2",
            "httpx<0.29",
            "httpx2",
            "anyio[trio]",
            "itsdangerous",
            "jinja2",
            "python-multipart",
            "pyyaml",
        ),
    ),
    Suite(
        "babel==2.19.0", ("babel",), ("pytest==9.0.2", "freezegun", "pytz", "jinja2", "setuptools")
    ),
    Suite(
        "arrow==1.4.0",
        ("arrow",),
        ("pytest==9.0.2", "pytest-mock", "pytz", "simplejson", "dateparser"),
        pytest_args=("-o", "addopts="),  # its coverage options need pytest-cov
    ),
    Suite("pyjwt==2.15.1", ("jwt",), ("pytest==8.4.2", "cryptography")),
    Suite("h11==0.16.0", ("h11",), ("pytest==9.0.2",), tests_inside=True),
    Suite("lark==1.3.1", ("lark",), ("pytest==9.0.2", "regex", "interegular<0.4")),
    Suite("wtforms==3.3.2", ("wtforms",), ("pytest==9.0.2", "babel", "email_validator")),
    Suite("itsdangerous==2.2.0", ("itsdangerous",), ("pytest==9.0.2", "freezegun")),
    # Held out (README): their misses are not looked at until the work is done.
    Suite("mako==1.4.3", ("mako",), ("pytest==9.0.2", "markupsafe", "pygments", "babel"), "test"),
    Suite("croniter==7.0.0", ("croniter",), ("pytest==9.0.2", "pytz"), tests_inside=True),
)
HELD_OUT = frozenset({"mako", "croniter"})


def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, check=True, text=True, capture_output=True, **kwargs)


def prepare(suite: Suite, folder: Path) -> tuple[Path, Path]:
    """The sdist's tests (without the package's own sources) and the scratch venv's python."""
    checkout = folder / "sdist"
    if not checkout.exists():
        with tempfile.TemporaryDirectory() as download:
            run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                 "--no-binary", ":all:", "-d", download, suite.spec])  # fmt: skip
            archive = next(Path(download).iterdir())
            with tarfile.open(archive) as tar:
                tar.extractall(folder / "unpacked", filter="data")
        top = next((folder / "unpacked").iterdir())
        # Tests must import the wheel: the sdist's own copy of the package goes, all but
        # tests shipped inside it (`tests_inside`), which are put into the installed package.
        for name in suite.imports:
            for place in (top / name, top / "src" / name):
                if place.is_dir():
                    if (place / "tests").is_dir():
                        shutil.move(place / "tests", top / "_inside_tests")
                    shutil.rmtree(place)
        top.rename(checkout)
    python = folder / "venv" / "bin" / "python"
    if not python.exists():
        venv.create(folder / "venv", with_pip=True)
        pip = [str(python), "-m", "pip", "install", "--quiet", "--no-input"]
        run([*pip, "--only-binary", suite.name, suite.spec, *suite.needs])
        if suite.tests_inside:
            shutil.copytree(
                checkout / "_inside_tests",
                site_packages(python) / suite.imports[0] / "tests",
                dirs_exist_ok=True,
            )
    return checkout, python


def site_packages(python: Path) -> Path:
    return Path(
        run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]
        ).stdout.strip()
    )


def harvest(suite: Suite, *, rerun: bool) -> list[dict[str, Any]]:
    """The records of one suite's run, with this machine's paths replaced."""
    folder = OUT / suite.spec
    folder.mkdir(parents=True, exist_ok=True)
    checkout, python = prepare(suite, folder)
    records = folder / "records.jsonl"
    purelib = site_packages(python)
    if rerun or not records.exists():
        records.unlink(missing_ok=True)
        tests = (
            purelib / suite.imports[0] / "tests" if suite.tests_inside else checkout / suite.tests
        )
        plugin = folder / "plugin"
        plugin.mkdir(exist_ok=True)
        shutil.copy(HERE / "suites_plugin.py", plugin)
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(folder),
            "LC_ALL": "C.UTF-8",
            "COLUMNS": "100",
            "TERM": "dumb",
            "PYTHONPATH": str(plugin),
            "SUITES_ROOTS": os.pathsep.join(str(purelib / name) for name in suite.imports),
            "SUITES_RECORDS": str(records),
        }
        command = [str(python), "-m", "pytest", "-p", "suites_plugin", "-q",
                   "-p", "no:cacheprovider", "--continue-on-collection-errors",
                   str(tests), *suite.pytest_args]  # fmt: skip
        done = subprocess.run(
            command, cwd=checkout, env=env, stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=3600, check=False,
        )  # fmt: skip
        (folder / "pytest.log").write_text(done.stdout[-20000:] + done.stderr[-20000:])
        records.touch()
    stdlib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"])
    replacements = (
        (str(purelib), USER_VENV),
        (str(checkout), USER_CHECKOUT),
        (stdlib.stdout.strip(), USER_STDLIB),
        (str(folder / "venv"), "/home/dev/project/.venv"),
        (str(folder), "/home/dev"),
    )
    out = []
    for line in records.read_text().splitlines():
        record = json.loads(line)
        for key in ("message", "traceback", "printed"):
            if record.get(key):
                for old, new in replacements:
                    record[key] = record[key].replace(old, new)
                record[key] = re.sub(r"/(?:work|root)/\S*?/", "/home/dev/", record[key])
        out.append(record)
    return out


def _worth(record: dict[str, Any]) -> int:
    return 2 if record.get("printed") else 0 if record["surface"] == "raised" else 1


def make_cases(suite: Suite, records: list[dict[str, Any]], per_site: int) -> list[dict[str, Any]]:
    version = suite.spec.split("==")[1]
    by_site: dict[tuple[str, int], dict[str, dict[str, Any]]] = defaultdict(dict)
    for record in records:
        same = by_site[(record["file"], record["line"])]
        known = same.get(record["message"])
        # Of the copies of one message, the one printed by the program says the most, then
        # the one that reached the test (its traceback is Python's own).
        if known is None or _worth(record) > _worth(known):
            same[record["message"]] = record
    cases = []
    for (file, line), messages in sorted(by_site.items()):
        for message in sorted(messages)[:per_site]:
            record = messages[message]
            cases.append(
                {
                    "id": f"{suite.name}-{len(cases) + 1}",
                    "package": suite.name,
                    "version": version,
                    "held_out": suite.name in HELD_OUT,
                    "test": record["test"],
                    "expected": {
                        "file": file,
                        "line": line,
                        "end_line": record["end_line"],
                        "function": record["function"],
                        "kind": record["kind"],
                        "exception": record["exception"],
                    },
                    "forms": {
                        "message": record["message"],
                        "traceback": record["traceback"],
                        "printed": record["printed"],
                    },
                }
            )
    return cases


def describe() -> None:
    """The set's size by package, form and kind, as a Markdown table (for the README)."""
    print(
        "| package | version | held out | cases | sites | message | traceback | printed | kinds |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    totals: Counter[str] = Counter()
    for path in sorted(SUITES.glob("*.json")):
        cases = json.loads(path.read_text())
        if not cases:
            continue
        forms = Counter(form for c in cases for form, text in c["forms"].items() if text)
        kinds = Counter(c["expected"]["kind"] for c in cases)
        sites = len({(c["expected"]["file"], c["expected"]["line"]) for c in cases})
        totals.update(forms)
        totals.update(cases=len(cases), sites=sites)
        first = cases[0]
        print(
            f"| {first['package']} | {first['version']} | {'yes' if first['held_out'] else ''} "
            f"| {len(cases)} | {sites} | {forms['message']} | {forms['traceback']} "
            f"| {forms['printed']} | {', '.join(f'{k} {n}' for k, n in kinds.most_common())} |"
        )
    print(
        f"| all | | | {totals['cases']} | {totals['sites']} | {totals['message']} "
        f"| {totals['traceback']} | {totals['printed']} | |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", nargs="+", help="only these (names, default: all)")
    parser.add_argument("--per-site", type=int, default=3, help="at most this many per site")
    parser.add_argument("--rerun", action="store_true", help="run the tests again")
    args = parser.parse_args()
    SUITES.mkdir(exist_ok=True)
    for suite in SUITES_PINNED:
        if args.packages and suite.name not in args.packages:
            continue
        try:
            records = harvest(suite, rerun=args.rerun)
        except (subprocess.SubprocessError, OSError, StopIteration) as error:
            detail = getattr(error, "stderr", "") or ""
            print(f"{suite.spec}: cannot harvest ({error}) {detail[-2000:]}", file=sys.stderr)
            continue
        cases = make_cases(suite, records, args.per_site)
        (SUITES / f"{suite.name}.json").write_text(json.dumps(cases, indent=1) + "\n")
        forms = Counter(form for c in cases for form, text in c["forms"].items() if text)
        print(
            f"{suite.spec}: {len(records)} records, {len(cases)} cases "
            f"({len({(c['expected']['file'], c['expected']['line']) for c in cases})} sites; "
            + ", ".join(f"{form} {n}" for form, n in sorted(forms.items()))
            + ")"
        )
    describe()


if __name__ == "__main__":
    main()
