"""Count the pages of raises under `except`, by kind, and those whose first solution is a
way out of the handler's own tests (a test of the caught error negated, a switch that
only swallows it: `explain/try_failure.py`), or is a way out of the failed call.

    python bench/pages/except_census.py --db PATH [--rules PATH/try_failure.py]

Run it with the tree to measure on PYTHONPATH; `--rules` loads the classifier from a
file, so a tree before `try_failure.py` existed is measured by the same rule.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from errdex.explain.build import build_page, gather_facts
from errdex.facts import ConditionKind, SiteKind
from errdex.store import open_store
from errdex.store.base import StoredSite


def _rules(path: Path | None) -> ModuleType:
    if path is None:
        from errdex.explain import try_failure

        return try_failure
    spec = importlib.util.spec_from_file_location("try_failure_census", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _kind(stored: StoredSite, text: str | None) -> str | None:
    """The kind of raise: "bare" (a bare `raise`), "from" (`raise X from e`), "translated"
    (another class raised in the handler, without `from`); None outside an `except`."""
    site = stored.site
    if not any(c.kind is ConditionKind.EXCEPT for c in site.conditions):
        return None
    if site.kind is SiteKind.RERAISE:
        return "bare"
    if site.kind is not SiteKind.RAISE or text is None:
        return None
    line = text.splitlines()[site.line - 1] if site.line <= len(text.splitlines()) else ""
    if " from " in line and not line.rstrip().endswith("from None"):
        return "from"
    return "translated"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--rules", type=Path)
    args = parser.parse_args()
    rules = _rules(args.rules)
    store = open_store(args.db)
    kinds: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    firsts: Counter[str] = Counter()
    seen: set[tuple[str, str]] = set()
    try:
        for stored in store.list_sites():
            if (stored.id, stored.version) in seen:
                continue
            seen.add((stored.id, stored.version))
            text = store.file_text(stored.version_id, stored.file)
            kind = _kind(stored, text)
            if kind is None:
                continue
            kinds[kind] += 1
            page = build_page(store, stored.id, stored.version, use_model=False)
            if not page.solutions:
                firsts[f"{kind} none"] += 1
                continue
            first = page.solutions[0]
            facts = gather_facts(stored)
            facts.source_text = text
            offered = {s.condition for s in page.solutions}
            if any(
                c.text in offered and (rules.caught_tests(c, facts) or rules.swallowed(c, facts))
                for c in facts.held
            ):
                wrong[f"{kind} any solution"] += 1
            held = [c for c in facts.held if c.text == first.condition]
            if any(rules.caught_tests(c, facts) for c in held):
                wrong[f"{kind} caught-error test"] += 1
                print(f"W caught {stored.project} {stored.id} {stored.file}:{stored.site.line}")
            elif any(rules.swallowed(c, facts) for c in held):
                wrong[f"{kind} swallow switch"] += 1
                print(f"W swallow {stored.project} {stored.id} {stored.file}:{stored.site.line}")
            said = first.text
            if said.startswith(("Check the path", "Fix what")) or (
                said.startswith("Make sure `") and " failed on it" in said
            ):
                firsts[f"{kind} failed call"] += 1
            else:
                firsts[f"{kind} other"] += 1
    finally:
        store.close()
    print("raises under except by kind:", dict(sorted(kinds.items())))
    firsts_wrong = sum(n for k, n in wrong.items() if not k.endswith("any solution"))
    print("W-kind solutions (first; any):", dict(sorted(wrong.items())), firsts_wrong)
    print("first solutions:", dict(sorted(firsts.items())))


if __name__ == "__main__":
    sys.exit(main())
