"""What an `if` sets right under it: the assignments a setting decides elsewhere."""

from __future__ import annotations

import textwrap

from errdex.extract.knobs import attribute_settings


def settings(source: str) -> list[tuple[str, str, str, int, str, str | None, str | None]]:
    return [
        (s.attr, s.target, s.value, s.line, s.guard, s.class_name, s.note)
        for s in attribute_settings(textwrap.dedent(source))
    ]


def test_an_assignment_under_an_if_with_the_message_logged_beside_it() -> None:
    assert settings("""
        class VllmConfig:
            def __post_init__(self):
                if self.model_config is not None and self.model_config.enforce_eager:
                    self.compilation_config.cudagraph_mode = CUDAGraphMode.NONE
                    if self.parallel_config.enable_fault_tolerance:
                        logger.warning_once(
                            "Enforce eager set. This is equivalent to setting "
                            "-cc.cudagraph_mode=none"
                        )
        """) == [
        (
            "cudagraph_mode",
            "self.compilation_config.cudagraph_mode",
            "CUDAGraphMode.NONE",
            5,
            "self.model_config is not None and self.model_config.enforce_eager",
            "VllmConfig",
            "Enforce eager set. This is equivalent to setting -cc.cudagraph_mode=none",
        )
    ]


def test_computed_values_and_plain_names_outside_an_if_are_not_settings() -> None:
    assert (
        settings("""
        def setup(config, args):
            config.size = args.size
            if args.fast:
                config.workers = compute(args)
        """)
        == []
    )
