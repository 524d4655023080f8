"""A model validator of the raw data (`@model_validator(mode="before")`) whose message says
what one field must be: the field in the request or data, not the validator's argument."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.store import Store

FILES = {
    "bodies/__init__.py": """
        from bodies.protocol import ChatRequest, Settings
        from bodies.config import EngineConfig
        """,
    "bodies/config.py": """
        from pydantic import BaseModel, model_validator


        class EngineConfig(BaseModel):
            depth: int = 1

            @model_validator(mode="after")
            def check_depth(self):
                if self.depth > 8:
                    raise ValueError("depth must be at most 8")
                return self
        """,
    "bodies/protocol.py": """
        from pydantic import BaseModel, model_validator


        class ChatRequest(BaseModel):
            top_logprobs: int | None = None

            @model_validator(mode="before")
            @classmethod
            def check_logprobs(cls, data):
                if not isinstance(data, dict):
                    return data
                if (top := data.get("top_logprobs")) is not None:
                    if top < 0 and top != -1:
                        raise ValueError("`top_logprobs` must be a positive value or -1.")
                for name in ("a", "b"):
                    if data.get(name) is not None and not isinstance(data.get(name), int):
                        raise ValueError(f"`{name}` must be an integer.")
                return data


        class Settings(BaseModel):
            depth: int = 1

            @model_validator(mode="before")
            @classmethod
            def check_depth(cls, values):
                if values["depth"] > 8:
                    raise ValueError("depth must be at most 8")
                if values.get("width", 0) > 8:
                    raise ValueError("depth must be at most 9")
                return values


        class LogprobsRequest(BaseModel):
            logprobs: bool = False
            top_logprobs: int | None = None

            @model_validator(mode="before")
            @classmethod
            def check_top(cls, data):
                if data.get("top_logprobs") is not None and not data.get("logprobs"):
                    raise ValueError("when using `top_logprobs`, `logprobs` must be set to true.")
                return data


        def check_salt(salt: object) -> None:
            if salt is not None and not isinstance(salt, str):
                raise ValueError("salt must be a string.")


        class SaltedRequest(BaseModel):
            salt: str | None = None

            @model_validator(mode="before")
            @classmethod
            def check_salt_given(cls, data):
                if isinstance(data, dict):
                    check_salt(data.get("salt"))
                return data


        class ToolsRequest(BaseModel):
            tools: list | None = None
            tool_choice: dict | str = "auto"

            @model_validator(mode="before")
            @classmethod
            def check_tools(cls, data):
                if not isinstance(data, dict):
                    return data
                tools = data.get("tools")
                tool_choice = data.get("tool_choice", "auto")
                has_tools = tools is not None and len(tools) > 0
                named = isinstance(tool_choice, dict)
                if not has_tools:
                    if tool_choice == "required":
                        raise ValueError("required needs tools.")
                    elif named:
                        raise ValueError("Tool choice not found in tools.")
                elif named and tools is not None:
                    tool_name = tool_choice.get("name")
                    if not tool_name:
                        raise ValueError("Tool choice not found in tools.")
                return data


        class Thinking(BaseModel):
            budget_tokens: int


        class MessagesRequest(BaseModel):
            max_tokens: int
            thinking: Thinking | None = None

            @model_validator(mode="after")
            def check_budget(self):
                if self.thinking is not None and self.thinking.budget_tokens >= self.max_tokens:
                    raise ValueError("thinking.budget_tokens must be less than max_tokens")
                return self
        """,
}


@pytest.fixture(scope="module")
def bodies(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("bodies"), "bodies", FILES)


def solutions(store: Store, function: str, line_text: str) -> list[str]:
    (site,) = [
        s
        for s in store.list_sites("bodies")
        if s.site.function == function and s.site.message and line_text in s.site.message.text
    ]
    return [s.text for s in build_page(store, site.id).solutions]


def test_a_request_field_is_given_what_the_message_says(bodies: Store) -> None:
    said = solutions(bodies, "ChatRequest.check_logprobs", "positive value")
    assert said[0].startswith(
        "In the request you send (its JSON body), make the field `top_logprobs` of "
        "`ChatRequest` a positive value or -1, as the message says: “`top_logprobs` must be "
        "a positive value or -1.”"
    )
    # the validator's argument names nothing a user writes: no way out through it
    assert not any("of the argument `data`" in s for s in said)


def test_a_data_field_is_said_of_the_data(bodies: Store) -> None:
    said = solutions(bodies, "Settings.check_depth", "at most 8")
    assert said[0].startswith(
        "In the data you validate, make the field `depth` of `Settings` at most 8, as the message"
        " says: “depth must be at most 8.” `Settings.check_depth` is a validator"
    )
    assert not any("of the argument `values`" in s for s in said)
    # the message names `depth`, the test reads `width`; a key named by a placeholder
    assert not any("make the field" in s for s in solutions(bodies, "Settings.check_depth", "9"))
    said = solutions(bodies, "ChatRequest.check_logprobs", "integer")
    assert not any("make the field" in s for s in said)
    # a configuration the program builds is no data the user sends
    said = solutions(bodies, "EngineConfig.check_depth", "at most 8")
    assert not any("make the field" in s for s in said)


def test_a_field_read_on_self_after_validation_is_the_fields(bodies: Store) -> None:
    said = solutions(bodies, "MessagesRequest.check_budget", "less than")
    assert said[0].startswith(
        "In the request you send (its JSON body), make the field `thinking.budget_tokens` of "
        "`MessagesRequest` less than max_tokens, as the message says"
    )


def test_a_request_field_the_input_rules_name_is_the_requests(bodies: Store) -> None:
    said = solutions(bodies, "LogprobsRequest.check_top", "when using")
    assert said[0] == (
        "Pass `null` for the field `top_logprobs` of the request you send (its JSON body, a "
        "`LogprobsRequest`). `LogprobsRequest.check_top` is a validator the framework runs on "
        "that body: the check is of your data, not of a call in your code."
    )
    # the validator's argument names nothing a user writes
    assert not any("of the argument `data`" in s for s in said)


def test_a_helper_a_before_validator_hands_a_field_is_given_the_field(bodies: Store) -> None:
    said = solutions(bodies, "check_salt", "salt must be")
    assert said[0].startswith(
        "Make the field `salt` of the request you send (its JSON body, such as a "
        "`SaltedRequest`) a string, as the message says"
    )
    assert said[1] == (
        "Pass `null` for the field `salt` of the request you send (its JSON body, such as a "
        "`SaltedRequest`). The validator the framework runs on that body "
        "(`SaltedRequest.check_salt_given`) hands the field to `check_salt`: the check is of "
        "your data, not of a call in your code."
    )
    assert not any("the argument `salt`" in s for s in said)


def test_a_field_whose_other_value_meets_the_same_error_earlier_is_no_way_out(
    bodies: Store,
) -> None:
    (site,) = [
        s
        for s in bodies.list_sites("bodies")
        if s.site.function == "ToolsRequest.check_tools"
        and s.site.line
        == max(
            o.site.line for o in bodies.list_sites("bodies") if o.site.function == s.site.function
        )
    ]
    said = [s.text for s in build_page(bodies, site.id).solutions]
    # no tools with a named choice meets the same error in the branch without tools
    assert not any("`tools`" in s for s in said)
