"""Model enrichment against a local HTTP server on 127.0.0.1 that speaks the
OpenAI-compatible protocol (`POST /v1/chat/completions`), standing in for a real model."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from explain_samples import HISPARSE, V1, V2, site_with
from fake_model import answer, serve_model

from errdex.cli import main
from errdex.errors import ModelError
from errdex.explain import build_page
from errdex.explain.model.client import ChatClient
from errdex.explain.model.enrich import enrich_error, enrich_version
from errdex.store import Store, open_store


@pytest.fixture
def fresh(db_path: str, tmp_path: Path) -> Iterator[Store]:
    """A copy of the indexed database, so cached answers do not leak between tests."""
    copy = tmp_path / "copy.db"
    copy.write_bytes(Path(db_path).read_bytes())
    with open_store(copy) as store:
        yield store


def test_an_accepted_answer_becomes_the_page_prose_and_is_cached(fresh: Store) -> None:
    error = site_with(fresh, HISPARSE).id
    with (
        serve_model(lambda messages: answer()) as server,
        ChatClient(server.url, "tiny", api_key="sekrit") as chat,
    ):
        outcome = enrich_error(fresh, error, chat)
        again = enrich_error(fresh, error, chat)
    assert (outcome.status, again.status) == ("ok", "cached")
    assert len(server.requests) == 1
    assert server.headers[0]["Authorization"] == "Bearer sekrit"
    prompt = server.requests[0]["messages"][1]["content"]
    assert "SETTINGS BEHIND THE CONDITIONS" in prompt and "ENGINE_USE_V2" in prompt
    page = build_page(fresh, error)
    assert page.what_it_means == "The config refuses sparse attention on runner V1."
    assert (page.analysis.by, page.analysis.model) == ("model", "tiny")
    footer = page.analysis.footer
    assert footer.startswith("AI-assisted analysis (written by the model tiny) of engine at ")
    assert [s.knob for s in page.solutions] == ["ENGINE_USE_V2"]
    # the facts stay those of the code
    assert [c.text for c in page.conditions][1] == "envs.ENGINE_USE_V2 is False"
    assert build_page(fresh, error, use_model=False).analysis.by == "rules"


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (answer(citations=["engine/config.py:9999"]), "cites engine/config.py:9999"),
        (answer(citations=["engine/nowhere.py:3"]), "cites engine/nowhere.py:3, not a file"),
        (
            answer(solutions=[{"text": "Set it.", "knob": "ENGINE_TURBO"}]),
            "no solution left: solution turning 'ENGINE_TURBO' removed",
        ),
        ('{"what_it_means": "no trigger"}', "schema"),
        ("I think it is a config problem.", "schema"),
    ],
)
def test_an_answer_citing_what_the_code_lacks_is_rejected(
    fresh: Store, reply: str, reason: str
) -> None:
    error = site_with(fresh, HISPARSE).id
    with serve_model(lambda messages: reply) as server, ChatClient(server.url, "tiny") as chat:
        outcome = enrich_error(fresh, error, chat)
    assert outcome.status == "rejected"
    assert any(r.startswith(reason) for r in outcome.reasons), outcome.reasons
    page = build_page(fresh, error, model="tiny")
    assert page.analysis.by == "rules"  # the page keeps the prose made from the facts


def test_names_the_version_defines_are_kept_and_others_are_marked(fresh: Store) -> None:
    # `EngineArgs.create_config` and `engine.llm.LLM` are defined in other files of the
    # version than the error's, and are not in the facts the model was given
    reply = answer(
        what="Raised before `EngineArgs.create_config` returns; `engine.llm.LLM` is the "
        "entry point. It never reads `turbo_mode_enabled`.",
        solutions=[
            {"text": "Unset `ENGINE_USE_V2`.", "knob": "ENGINE_USE_V2"},
            {"text": "Set `ENGINE_TURBO=1`.", "knob": "ENGINE_TURBO"},
        ],
    )
    error = site_with(fresh, HISPARSE).id
    with serve_model(lambda messages: reply) as server, ChatClient(server.url, "tiny") as chat:
        outcome = enrich_error(fresh, error, chat)
    assert outcome.status == "ok"
    prompt = server.requests[0]["messages"][1]["content"]
    assert "engine.llm" not in prompt and "create_config" not in prompt
    assert outcome.reasons == [
        "not found in the index: solution turning 'ENGINE_TURBO' removed, turbo_mode_enabled"
    ]
    page = build_page(fresh, error)
    assert page.what_it_means == (
        "Raised before `EngineArgs.create_config` returns; `engine.llm.LLM` is the entry "
        "point. It never reads `turbo_mode_enabled` (not found in the index)."
    )
    assert [s.text for s in page.solutions] == ["Unset `ENGINE_USE_V2`."]
    assert page.analysis.footer.startswith("AI-assisted analysis (written by the model tiny)")


def test_a_whole_version_runs_concurrently_and_resumes(fresh: Store) -> None:
    def reply(messages: list[dict[str, str]]) -> str:
        facts = messages[1]["content"]
        # A cited line that exists for one error, a made-up one for another.
        line = 9999 if f"message template: {V2}" in facts else 14
        return answer(citations=[f"engine/config.py:{line}"])

    errors = len({s.id for s in fresh.list_sites("engine")})
    with serve_model(reply) as server, ChatClient(server.url, "tiny") as chat:
        first = enrich_version(fresh, "engine", chat, concurrency=3, limit=2)
        seen: list[tuple[int, int]] = []
        rest = enrich_version(
            fresh, "engine", chat, concurrency=3, progress=lambda d, t: seen.append((d, t))
        )
    assert first.accepted + first.rejected == 2
    assert rest.skipped == 2
    assert first.accepted + first.rejected + rest.accepted + rest.rejected == errors
    assert first.rejected + rest.rejected == 1
    assert first.rejected_for_citations + rest.rejected_for_citations == 1
    assert seen[-1] == (errors - 2, errors - 2)
    assert len(server.requests) == errors  # nothing asked twice


def test_an_endpoint_that_keeps_failing_stops_the_run(fresh: Store) -> None:
    with serve_model(lambda m: (500, "overloaded")) as server:
        chat = ChatClient(server.url, "tiny", retries=0)
        with pytest.raises(ModelError, match="failed"):
            enrich_version(fresh, "engine", chat, concurrency=1)
    # failures are not cached: a later run asks again
    assert fresh.analysed_errors(site_with(fresh, V1).revision, "tiny", "1") == set()


def test_the_explain_command_prints_the_enriched_page(db_path: str, tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    db.write_bytes(Path(db_path).read_bytes())
    with open_store(db) as store:
        error = site_with(store, HISPARSE).id
    with serve_model(lambda messages: answer()) as server:
        args = ["explain", error, "--llm-url", server.url, "--llm-model", "tiny", "--json"]
        result = CliRunner(env={"ERRDEX_DB": str(db)}).invoke(main, args)
        assert result.exit_code == 0, result.output
        record = json.loads(result.stdout)
        assert record["outcome"]["status"] == "ok"
        assert record["page"]["analysis"]["by"] == "model"
        project = ["explain", "--project", "engine", "--llm-url", server.url, "--llm-model", "tiny"]
        result = CliRunner(env={"ERRDEX_DB": str(db)}).invoke(main, project)
    assert result.exit_code == 0, result.output
    assert "accepted" in result.stdout and "1 done before" in result.stdout
