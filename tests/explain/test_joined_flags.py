"""A branch on `a or b` whose parts two settings decide: the way out turns both, since the
test is false only when every part is; nothing is said when a part is no setting's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "pool/__init__.py": "",
    "pool/cli.py": """
        import argparse


        def parser():
            p = argparse.ArgumentParser()
            p.add_argument("--sleep-mode", action="store_true")
            p.add_argument("--cumem", action="store_true")
            p.add_argument("--pool", default="")
            p.add_argument("--external-lb", action="store_true")
            p.add_argument("--rank", type=int, default=None)
            p.add_argument("--fault-tolerant", action="store_true")
            return p


        def balance(args):
            external = args.external_lb or args.rank is not None
            if args.fault_tolerant and not external:
                raise ValueError("fault tolerance needs an external balancer")
            if external:
                if args.rank is None:
                    raise ValueError("an external balancer needs a rank")


        def run(args, size):
            if args.pool:
                if args.sleep_mode or args.cumem:
                    raise ValueError("a pool cannot run with sleep mode or cumem")
            if args.sleep_mode or size > 4:
                raise ValueError("sleep mode takes at most four workers")
        """,
}


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("pool"), "pool", FILES)


def test_both_settings_of_an_or_are_turned_after_the_one_setting_of_another_test(
    pool: Store,
) -> None:
    page = page_with_message(pool, "pool", "a pool cannot run")
    texts = [s.text for s in page.solutions]
    joined = next(t for t in texts if "`--sleep-mode`" in t)
    assert joined.startswith("Do not pass `--sleep-mode`")
    assert ", and do not pass `--cumem`" in joined
    # turning two features off gives up more than leaving the pool out: it comes after
    assert texts.index(joined) > next(i for i, t in enumerate(texts) if "`--pool`" in t)


def test_an_or_whose_other_part_is_no_setting_turns_nothing(pool: Store) -> None:
    # `size` is no flag: `--sleep-mode` left out alone does not make the test false
    page = page_with_message(pool, "pool", "sleep mode takes")
    assert not any("`--sleep-mode`" in s.text for s in page.solutions)


def test_a_local_holding_an_or_turns_nothing(pool: Store) -> None:
    # `external` is read by the guard above too: turning both parts off meets it
    page = page_with_message(pool, "pool", "an external balancer needs a rank")
    assert not any(", and do not pass" in s.text for s in page.solutions)
