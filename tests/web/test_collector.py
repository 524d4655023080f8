"""The serving process's garbage collector: tuned while serving, as it was after."""

from __future__ import annotations

import gc
from pathlib import Path

from starlette.testclient import TestClient

from errdex.web import create_app
from errdex.web.collector import YOUNG_THRESHOLD, serving_collector


def test_the_collector_is_tuned_while_serving_and_restored_after() -> None:
    before = gc.get_threshold()
    # 0 unless the process froze objects before (the CLI does, run in-process by a test);
    # frozen objects can still be freed, so a count only shrinks
    frozen = gc.get_freeze_count()
    with serving_collector():
        assert gc.get_threshold() == (max(before[0], YOUNG_THRESHOLD), *before[1:])
        assert gc.get_freeze_count() > 0  # what was loaded is left out of passes
        cycle: list[object] = []
        cycle.append(cycle)  # made while serving: still collected
        del cycle
        assert gc.collect() >= 1
    assert gc.get_threshold() == before
    assert (gc.get_freeze_count() == 0) == (frozen == 0)  # ours undone, another's kept


def test_what_the_process_froze_itself_stays_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with serving_collector():
            assert gc.get_freeze_count() <= frozen  # its own freeze, not one on top
        assert 0 < gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()


def test_a_served_app_tunes_its_collector(tmp_path: Path) -> None:
    before = gc.get_threshold()
    app = create_app(f"{tmp_path}/e.db")
    with TestClient(app) as client:
        assert gc.get_threshold()[0] >= YOUNG_THRESHOLD
        assert client.get("/api/projects").status_code == 200
    assert gc.get_threshold() == before
