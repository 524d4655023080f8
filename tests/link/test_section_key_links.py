"""A key of a section of a JSON-valued flag's object, read through the flag's object
(`vllm_config.compilation_config.shapes_config.type`): the flag with the section as its
key and the key nested under it (`FlagIndex._section_key`); not a section with a flag of
its own, nor a name the section's constructor does not take."""

from __future__ import annotations

from test_passed_arguments import link

ARGS = """
    from dataclasses import dataclass, field


    @dataclass
    class ShapesConfig:
        kind: str = "backed"
        evaluate_guards: bool = False
        seen: int = field(default=0, init=False)


    @dataclass
    class EplbConfig:
        window_size: int = 1000


    @dataclass
    class CompilationConfig:
        shapes_config: ShapesConfig = field(default_factory=ShapesConfig)
        eplb_config: EplbConfig = field(default_factory=EplbConfig)


    @dataclass
    class EngineArgs:
        compilation_config: CompilationConfig | None = None
        eplb_config: EplbConfig | None = None

        @staticmethod
        def add_cli_args(parser):
            parser.add_argument("--compilation-config", type=str)
            parser.add_argument("--eplb-config", type=str)
            return parser
    """

SECTIONS = {
    "eng/args.py": ARGS,
    "eng/use.py": """
        def shapes(vllm_config):
            if vllm_config.compilation_config.shapes_config.kind == "unbacked":
                raise ValueError("unbacked shapes")


        def guards(vllm_config):
            if vllm_config.compilation_config.shapes_config.evaluate_guards:
                raise ValueError("guards evaluated")


        def seen(vllm_config):
            if vllm_config.compilation_config.shapes_config.seen > 2:
                raise ValueError("seen too often")


        def window(vllm_config):
            if vllm_config.compilation_config.eplb_config.window_size < 10:
                raise ValueError("a short window")
        """,
}


def test_a_key_of_a_section_is_nested_under_the_section() -> None:
    sites = link(SECTIONS)
    for message, key, default in (
        ("unbacked shapes", "kind", None),
        ("guards evaluated", "evaluate_guards", "False"),
    ):
        knobs = [k for k in sites[message].knobs if k.name == "--compilation-config"]
        assert [(k.json_key, k.dict_key, k.key_default) for k in knobs] == [
            ("shapes_config", key, default)
        ], sites[message].knobs
        assert "section `shapes_config`" in (knobs[0].via or "")


def test_state_of_a_section_or_a_section_with_its_own_flag_is_no_nested_key() -> None:
    sites = link(SECTIONS)
    assert not any(k.dict_key for k in sites["seen too often"].knobs), sites["seen too often"]
    # `eplb_config` has a flag of its own: its key is matched there, not nested
    knobs = sites["a short window"].knobs
    assert not any(k.dict_key for k in knobs), knobs
    assert [k.name for k in knobs] == ["--eplb-config"], knobs
