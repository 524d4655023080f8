"""A setting some callers' paths give the checked parameter, the others a name the link
cannot follow (`KnobLink.among_others`): offered as one way among others, after a setting
every caller agrees on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message
from test_kept_attribute_pages import ENG as KEPT

from errdex.store import Store

ENG = {
    # the engine of the kept-attribute pages: a renderer keeps `--trust-request-kwargs`
    # from its builder and gives it to the helper that checks it
    **KEPT,
    # another serving class gives the helper a field of an object built elsewhere
    "eng/pooling.py": """
        from eng.render import validate_kwargs


        class Pooling:
            def __init__(self, template_config):
                self.trusted = template_config.trusted

            def serve(self, request):
                validate_kwargs(kwargs=request.kwargs, trusted=self.trusted)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_setting_one_callers_path_gives_is_offered_as_one_way_among_others(
    eng: Store,
) -> None:
    page = page_with_message(eng, "eng", "Per-request kwargs are disabled")
    flagged = [s.text for s in page.solutions if "--trust-request-kwargs" in s.text]
    assert flagged, page.solutions
    assert flagged[0].startswith("Pass `--trust-request-kwargs`"), flagged
    assert "One way among others: not every call that gives `trusted`" in flagged[0], flagged
