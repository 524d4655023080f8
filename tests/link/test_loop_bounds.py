"""A loop's count bound is no way out of a check of one item (`link.passed._unbounded`):
`if len(out) >= limit: break` says how far the loop reads, not which item raises."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from samples import BACKEND_ARGS

SAMPLER = """
    def sample(items, limit):
        out = []
        for item in items:
            if len(out) >= limit:
                break
            if not isinstance(item, str):
                raise ValueError("each item must be a string")
            out.append(item)
        return out


    def keep(items, limit):
        if len(items) > limit:
            raise ValueError("too many items")
        return items


    def run(items, scheduler_config):
        sample(items, scheduler_config.max_batch)
        keep(items, scheduler_config.max_batch)
    """


def test_a_setting_bounding_a_loop_is_not_behind_the_check_of_an_item() -> None:
    files = {"eng/args.py": BACKEND_ARGS, "eng/sampler.py": SAMPLER}
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in files.items()]
    knobs = {
        s.site.function: {k.name for k in s.knobs if k.behind == "limit"}
        for s in link_version("eng", facts)
    }
    assert knobs["sample"] == set()
    assert knobs["keep"] == {"--max-batch"}  # a count compared outside a loop: the limit
