"""The page of an error, built from the store: the facts, then the deterministic prose."""

from __future__ import annotations

import msgspec
from explain_samples import HISPARSE, PROFILER, V1, V2, site_with

from errdex.explain import build_page
from errdex.explain.pins import pin_label, revision_date
from errdex.render.json import plain
from errdex.sources.base import Pin
from errdex.store import Store
from errdex.store.base import VersionRecord, VersionStats

DESIGN_KEYS = {
    "id", "project", "version", "revision", "exception", "kind", "message", "source",
    "conditions", "what_it_means", "when_it_happens", "solutions", "example_fix", "related",
    "versions", "analysis",
}  # fmt: skip


def test_the_json_page_has_the_keys_of_the_design(store: Store) -> None:
    record = plain(build_page(store, site_with(store, V2).id))
    assert record.keys() >= DESIGN_KEYS
    assert record["exception"]["qualname"] == "builtins.ValueError"
    assert set(record["source"]) >= {"file", "line", "end_line", "function", "snippet", "url"}
    assert set(record["when_it_happens"]) == {"trigger", "situations"}
    assert record["analysis"]["by"] == "rules"
    assert record["analysis"]["footer"].startswith(
        "Static analysis of engine at a folder with no known origin"
    )


def test_the_snippet_holds_the_site_and_about_forty_lines_around_it(store: Store) -> None:
    page = build_page(store, site_with(store, V2).id)
    lines = page.source.snippet.splitlines()
    site_line = lines[page.source.line - page.source.snippet_start]
    assert 'raise ValueError("Runner V2 needs a maximum length")' in site_line
    assert len(lines) <= 40


def test_an_env_var_read_in_a_condition_is_the_solution(store: Store) -> None:
    page = build_page(store, site_with(store, HISPARSE).id)
    assert [c.text for c in page.conditions] == [
        "self.sparse_config is not None",
        "envs.ENGINE_USE_V2 is False",
    ]
    first = page.solutions[0]
    assert first.knob == "ENGINE_USE_V2"
    assert first.text.startswith("Set `ENGINE_USE_V2=1` or leave it unset")
    assert page.example_fix is not None
    assert (page.example_fix.before, page.example_fix.after) == (
        "export ENGINE_USE_V2=0",
        "export ENGINE_USE_V2=1",
    )
    assert "`self.sparse_config` is not None" in page.what_it_means


def test_the_caller_and_its_guard_are_on_the_page_and_in_the_solutions(store: Store) -> None:
    page = build_page(store, site_with(store, V1).id)
    assert [(c.function, c.guard, c.depth) for c in page.callers] == [
        ("EngineConfig.__post_init__", ["not self.use_v2"], 1),
        ("EngineArgs.create_config", [], 2),
    ]
    assert page.when_it_happens.trigger.startswith(
        "`EngineConfig.__post_init__` calls `EngineConfig._validate_v1` (engine/config.py:9)"
        " when `self.use_v2` is false"
    )
    texts = [s.text for s in page.solutions]
    assert texts[0] == (
        "Set `ENGINE_USE_V2=1` (`EngineConfig.__post_init__` calls `EngineConfig._validate_v1`"
        " only when `self.use_v2` is false, so this avoids the check)."
    )
    assert "If the message names “eager mode”: do not pass `--enforce-eager`" in texts[1]
    assert (
        "If the message names “pipeline parallelism”: pass `--pipeline-size` with a value"
        in (texts[2])
    )


def test_reasons_and_their_knobs_are_listed(store: Store) -> None:
    page = build_page(store, site_with(store, V1).id)
    assert [v.reason for v in page.variants] == ["eager mode", "pipeline parallelism"]
    knobs = {(k.name, k.kind, k.behind) for k in page.knobs}
    assert knobs == {
        ("--enforce-eager", "flag", "self.model_config.enforce_eager"),
        ("--pipeline-size", "flag", "self.parallel_config.pipeline_size"),
        ("ENGINE_USE_V2", "env", "self.use_v2"),
    }


def test_a_condition_no_user_decides_is_context_not_a_solution(store: Store) -> None:
    page = build_page(store, site_with(store, V2).id)
    assert [(s.text, s.knob, s.kind) for s in page.solutions] == [
        (
            "Set `ENGINE_USE_V2=0` (`EngineConfig.__post_init__` calls "
            "`EngineConfig._validate_v2` only when `self.use_v2` is true, so the check runs "
            "only when `ENGINE_USE_V2` is on: turning it off avoids it, and the feature with it).",
            "ENGINE_USE_V2",
            "setting",
        ),
    ]
    assert "The check applies only when `self.model_config.max_len` is None" in (page.what_it_means)


def test_a_local_made_of_settings_is_seen_through(store: Store) -> None:
    # vllm's _validate_profiler_config: `has_cuda_graphs = ... not enforce_eager`
    page = build_page(store, site_with(store, PROFILER).id)
    assert [c.text for c in page.conditions] == ["has_graphs", 'self.profiler == "pc"']
    assert page.solutions[0].text == (
        "Pass `--enforce-eager` (so that `self.model_config.enforce_eager` is true)."
    )
    assert page.example_fix is not None
    assert (page.example_fix.before, page.example_fix.after) == (
        "from engine.llm import LLM\nLLM(model=MODEL, enforce_eager=False)",
        "from engine.llm import LLM\nLLM(model=MODEL, enforce_eager=True)",
    )


def test_tests_that_expect_the_error_are_a_reproduction(store: Store) -> None:
    page = build_page(store, site_with(store, HISPARSE).id)
    assert [(t.file, t.function) for t in page.tests] == [
        ("tests/test_config.py", "test_sparse_on_v1")
    ]
    assert any("test_sparse_on_v1" in s for s in page.when_it_happens.situations)


def test_related_errors_start_with_the_same_function_and_guard(store: Store) -> None:
    page = build_page(store, site_with(store, V1).id)
    assert page.related[0].message == V2
    assert {r.relation for r in page.related} <= {"same function", "same guard", "same file"}


def test_report_an_issue_is_prefilled_on_the_tracker(store: Store) -> None:
    page = build_page(store, site_with(store, V2).id)
    assert page.report_url == (
        "https://github.com/acme/engine/issues/new?title=Runner%20V2%20needs%20a%20maximum%20length"
        f"&body=errdex%20error%20id%3A%20{page.id}%0A%0AMessage%3A%0A%0A%20%20%20%20Runner%20V2"
        "%20needs%20a%20maximum%20length%0A"
    )


def test_versions_list_where_the_error_sits(store: Store) -> None:
    page = build_page(store, site_with(store, V2).id)
    assert [(v.version, v.file, v.status) for v in page.versions] == [
        ("1.0", "engine/config.py", "present")
    ]


def test_a_release_is_pinned_to_its_tag_and_dated_by_its_revision() -> None:
    record = VersionRecord(
        id=1,
        project="vllm",
        label="0.33.0",
        revision="4b6bdec4ab26" + "0" * 52,
        date="2026-11-01T09:43:00+00:00",
        source_kind="wheel",
        source="vllm-0.33.0.whl",
        link_template="https://github.com/vllm-project/vllm/blob/v0.33.0/{path}#L{line}",
        indexed_at="2026-12-02T00:00:00+00:00",
        stats=VersionStats(
            project="vllm", version="0.33.0", sites=0, errors=0, files=0, new_blobs=0
        ),
    )
    # a row written before pins were recorded: its tag was the guess from the version, and
    # its path the wheel's
    assert pin_label(record, record.revision) == (
        "tag v0.33.0",
        "guessed from the version; path in the repository guessed",
        True,
    )
    pin = Pin(kind="commit", ref="4ba787ec9", basis="recorded in its vllm/_version.py")
    recorded = msgspec.structs.replace(
        record,
        link_template="https://github.com/vllm-project/vllm/blob/4ba787ec9/{path}#L{line}",
        pin=pin,
    )
    # the commit is recorded; where the repository keeps the file is not known
    assert pin_label(recorded, record.revision) == (
        "commit 4ba787ec9",
        "recorded in its vllm/_version.py; path in the repository guessed",
        True,
    )
    listed = msgspec.structs.replace(
        recorded, pin=msgspec.structs.replace(pin, path_basis="as its sdist lists it")
    )
    assert pin_label(listed, record.revision) == (
        "commit 4ba787ec9",
        "recorded in its vllm/_version.py",
        False,
    )
    assert revision_date(record) == "2026-11-01T09:43:00+00:00"
    git = msgspec.structs.replace(
        record, source_kind="git", link_template="https://github.com/a/b/blob/{revision}/{path}"
    )
    assert pin_label(git, "c794754062" + "0" * 30).pinned == "commit c794754062"
    folder = msgspec.structs.replace(record, source_kind="directory", link_template=None)
    assert pin_label(folder, record.revision).pinned.startswith("a folder with no known origin")
    assert revision_date(folder) is None
    hatched = msgspec.structs.replace(record, date="2020-02-02T00:00:00+00:00")
    assert revision_date(hatched) is None  # a reproducible build's fixed stamp
