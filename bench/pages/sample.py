"""Dump a random sample of pages (solutions and example fix) for judging by hand.

    python bench/pages/sample.py --db PATH --out FILE [--seed N] [--config-checks]

The sample is 30 error pages of vllm 0.33.0 and 30 of the other indexed packages (as evenly
spread across them as the count allows), drawn by a hash of the seed and each error id, so
an error stays in the sample whatever other errors the index gains or loses.
`--config-checks` instead dumps the vllm configuration checks of `CONFIG_CHECKS` (the kind
of the seed page's error), found by their message; `--selected N` draws N vllm errors whose
code a setting picks (a backend, a kernel: the sites with a selection link), by the same
hash of the seed; `--named N` draws N vllm errors raised (not logged or warned) whose
message names a flag or environment variable the index links: the message's own word on the
setting behind the code it is in.

The output is Markdown, one section per page: what the page says a user can do, with the
source line it comes from, for a person to judge against the source (see README.md).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from errdex.explain.build import build_page
from errdex.explain.page import ExampleFix, Page
from errdex.facts import SiteKind
from errdex.linked_facts import NAMED_IN_MESSAGE
from errdex.store import open_store
from errdex.store.base import Store

SEED = 15
PER_SIDE = 30
VLLM = ("vllm", "0.33.0")
OTHERS = (
    ("click", "8.1.7"),
    ("httpx", "0.27.0"),
    ("rich", "13.7.1"),
    ("SQLAlchemy", "2.0.30"),
    ("pydantic", "2.7.1"),
)
# Configuration checks of vllm 0.33.0 behind settings, the seed page's kind of error: a
# fragment of each message, unique in the version.
CONFIG_CHECKS = (
    "AuxOutput Connector requires Model Runner V2",
    "sampling distribution replay requires Model Runner V2",
    "trace replay requires Model Runner V2",
    "AuxOutput Connector requires prefix caching",
    "is incompatible with pipeline parallelism (PP > 1)",
    "Speculative decoding with watermarking requires draft_sample_method",
    "Watermarking supports only dflash, dspark, eagle, eagle3 and",
    "sampling distribution replay does not support custom logits processors",
    "The quantization method {model_config.quantization} is not supported for the current",
    "sampling distribution replay with speculative decoding requires fixed",
)


def error_ids(store: Store, project: str, version: str) -> list[str]:
    """The distinct error ids of one version, in path and line order."""
    sites = store.list_sites(project=project, version=version)
    return list(dict.fromkeys(s.id for s in sites))


def pick(store: Store, seed: int) -> list[tuple[str, str, str]]:
    """(project, version, error id) of the sample: PER_SIDE of vllm, PER_SIDE of the rest."""
    chosen = [(*VLLM, i) for i in draw(error_ids(store, *VLLM), PER_SIDE, seed)]
    others = [(p, v) for p, v in OTHERS if error_ids(store, p, v)]
    if len(others) < 3:
        sys.exit("index at least three of the other packages first")
    share, extra = divmod(PER_SIDE, len(others))
    for n, (project, version) in enumerate(others):
        count = share + (1 if n < extra else 0)
        chosen += [
            (project, version, i) for i in draw(error_ids(store, project, version), count, seed)
        ]
    return chosen


def draw(ids: list[str], count: int, seed: int) -> list[str]:
    """`count` of `ids`, in their order: those whose hash with the seed sorts first. An id
    stays drawn whatever other ids the index gains or loses (a draw by position would pick
    other pages as soon as one error id before them changed)."""
    ranked = sorted(ids, key=lambda i: hashlib.sha256(f"{seed}:{i}".encode()).hexdigest())
    kept = set(ranked[:count])
    return [i for i in ids if i in kept]


def selected(store: Store, count: int, seed: int) -> list[tuple[str, str, str]]:
    """`count` vllm errors whose code a setting picks, drawn by the hash of the seed."""
    sites = store.list_sites(project=VLLM[0], version=VLLM[1])
    ids = list(dict.fromkeys(s.id for s in sites if s.selections))
    return [(*VLLM, i) for i in draw(ids, count, seed)]


def named(store: Store, count: int, seed: int) -> list[tuple[str, str, str]]:
    """`count` vllm errors raised whose message names a setting, drawn by the seed's hash."""
    sites = store.list_sites(project=VLLM[0], version=VLLM[1])
    ids = list(
        dict.fromkeys(
            s.id
            for s in sites
            if s.site.kind not in (SiteKind.LOG, SiteKind.WARN)
            and any(k.via == NAMED_IN_MESSAGE for k in s.knobs)
        )
    )
    return [(*VLLM, i) for i in draw(ids, count, seed)]


def config_checks(store: Store) -> list[tuple[str, str, str]]:
    found: list[tuple[str, str, str]] = []
    sites = store.list_sites(project=VLLM[0], version=VLLM[1])
    for fragment in CONFIG_CHECKS:
        hits = [s for s in sites if s.site.message is not None and fragment in s.site.message.text]
        if hits:
            found.append((*VLLM, hits[0].id))
        else:
            print(f"no site says {fragment!r}", file=sys.stderr)
    return found


def section(n: int, page: Page) -> str:
    lines = [
        f"## {n}. {page.project} {page.version} · {page.id}",
        "",
        f"- site: `{page.source.file}:{page.source.line}` in `{page.source.function}`",
        f"- message: {page.message!r}",
        f"- pinned: {page.source.url}",
        f"- footer: {page.analysis.footer}",
        f"- what it means: {page.what_it_means}",
    ]
    if not page.solutions:
        lines.append("- solutions: (none)")
    for k, solution in enumerate(page.solutions, 1):
        lines.append(f"- solution {k}: {solution.text}")
        if solution.fix is not None and solution.fix != page.example_fix:
            lines += fix_lines(solution.fix, f"  - fix of solution {k}:", "    ")
    if page.example_fix is None:
        lines.append("- example fix: (none)")
    else:
        lines += fix_lines(page.example_fix, "- example fix:", "  ")
    if not page.why:
        lines.append("- why: (none)")
    for quote in page.why:
        lines.append(f"- why: “{quote.text}” ({quote.of}, {quote.file}:{quote.line})")
    return "\n".join(lines) + "\n"


def fix_lines(fix: ExampleFix, title: str, indent: str) -> list[str]:
    """A fix as a fenced block: before and after (the after alone when nothing is undone)."""

    def block(text: str) -> str:
        return "\n".join(indent + line for line in text.split("\n"))

    lines = [title, f"{indent}```"]
    if fix.before:
        lines += [f"{indent}# before", block(fix.before), f"{indent}# after"]
    lines.append(block(fix.after))
    if fix.config:
        lines += [f"{indent}# or, in the config file it reads:", block(fix.config)]
    lines.append(f"{indent}```")
    if fix.note:
        lines.append(f"{indent}note: {fix.note}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--config-checks", action="store_true")
    parser.add_argument("--selected", type=int, default=0, metavar="N")
    parser.add_argument("--named", type=int, default=0, metavar="N")
    args = parser.parse_args()
    store = open_store(args.db)
    try:
        if args.config_checks:
            chosen, header = config_checks(store), "config checks"
        elif args.named:
            chosen = named(store, args.named, args.seed)
            header = f"{args.named} raised errors whose message names a setting, seed {args.seed}"
        elif args.selected:
            chosen = selected(store, args.selected, args.seed)
            header = f"{args.selected} errors whose code a setting picks, seed {args.seed}"
        else:
            chosen, header = pick(store, args.seed), f"seed {args.seed}"
        pages = [(error_id, version) for _, version, error_id in chosen]
        write_pages(store, pages, args.out, f"# Pages sample ({header})\n")
    finally:
        store.close()


def write_pages(store: Store, pages: list[tuple[str, str]], out: Path, *head: str) -> None:
    """Each (error id, version)'s page as a numbered section, after `head`, into `out`."""
    parts = list(head)
    for n, (error_id, version) in enumerate(pages, 1):
        parts.append(section(n, build_page(store, error_id, version, use_model=False)))
    out.write_text("\n".join(parts), encoding="utf-8")
    print(f"{len(pages)} pages → {out}")


if __name__ == "__main__":
    main()
