"""The path to a site: each condition with its kind, polarity and line."""

from __future__ import annotations

from extract_samples import only_site, sites_of

from errdex.facts import ConditionKind


def path_of(source: str) -> list[tuple[str, str]]:
    return [(str(c.kind), c.statement) for c in only_site(source).conditions]


def test_the_seed_guard_spread_over_early_returns() -> None:
    # vllm/config/vllm.py, VllmConfig._validate_mrv1_piecewise_cudagraph
    assert path_of(
        """
        class VllmConfig:
            def _validate_mrv1_piecewise_cudagraph(self) -> None:
                if self.use_v2_model_runner:
                    return
                model_config = self.model_config
                if model_config is None:
                    return
                if not self.compilation_config.cudagraph_mode.has_piecewise_cudagraphs():
                    return
                architectures = getattr(model_config, "architectures", [])
                if any(
                    arch in MRV1_UNSUPPORTED_PIECEWISE_CUDAGRAPH_ARCHITECTURES
                    for arch in architectures
                ):
                    raise ValueError("DeepSeek V4 does not support PIECEWISE CUDA graphs")
        """
    ) == [
        ("early_exit", "not self.use_v2_model_runner"),
        ("early_exit", "model_config is not None"),
        ("early_exit", "self.compilation_config.cudagraph_mode.has_piecewise_cudagraphs()"),
        (
            "if",
            "any(arch in MRV1_UNSUPPORTED_PIECEWISE_CUDAGRAPH_ARCHITECTURES for arch in "
            "architectures)",
        ),
    ]


def test_bindings_of_names_in_conditions() -> None:
    site = only_site(
        """
        def f(self):
            model_config = self.model_config
            if model_config is None:
                return
            architectures = getattr(model_config, "architectures", [])
            if "X" in architectures:
                raise ValueError("x")
        """
    )
    assert [(b.name, b.value, b.line) for b in site.bindings] == [
        ("model_config", "self.model_config", 3),
        ("architectures", 'getattr(model_config, "architectures", [])', 6),
    ]


def test_if_elif_else_polarity() -> None:
    sites = sites_of(
        """
        def f(mode):
            if mode == "a":
                raise ValueError("a")
            elif mode in ("b", "c"):
                raise ValueError("b or c")
            else:
                raise ValueError("other")
        """
    )
    assert [[c.statement for c in s.conditions] for s in sites] == [
        ['mode == "a"'],
        ["mode != 'a'", 'mode in ("b", "c")'],
        ["mode != 'a'", "mode not in ('b', 'c')"],
    ]
    assert [c.kind for c in sites[2].conditions] == [ConditionKind.ELIF, ConditionKind.ELSE]


def test_loops_except_clauses_and_match_cases() -> None:
    sites = sites_of(
        """
        def f(items, cfg):
            for item in items:
                try:
                    use(item)
                except (KeyError, TypeError) as err:
                    raise RuntimeError(f"bad item {item}") from err
            while cfg.retry:
                raise TimeoutError("gave up")
            match cfg.kind:
                case "x" if cfg.strict:
                    raise ValueError("strict x")
        """
    )
    assert [[(str(c.kind), c.statement) for c in s.conditions] for s in sites] == [
        [("loop", "for item in items"), ("except", "except (KeyError, TypeError) as err")],
        [("loop", "cfg.retry")],
        [("match", 'cfg.kind matches "x"'), ("if", "cfg.strict")],
    ]


def test_early_exits_by_raise_continue_and_nested_else() -> None:
    site = only_site(
        """
        def f(xs, strict):
            for x in xs:
                if x is None:
                    continue
                if strict:
                    log()
                    return 1
                else:
                    pass
                assert x > 0
        """
    )
    # `if strict: ... return` exits even with an `else: pass`: getting past it needs `not strict`.
    assert [c.statement for c in site.conditions] == [
        "for x in xs",
        "x is not None",
        "not strict",
        "x <= 0",
    ]


def test_de_morgan_on_negated_boolean_tests() -> None:
    assert path_of(
        """
        def f(a, b):
            if not a and not b:
                return
            raise ValueError("a or b")
        """
    ) == [("early_exit", "a or b")]


def test_free_names_of_conditions_for_the_linker() -> None:
    site = only_site(
        """
        def f(self):
            if envs.VLLM_USE_V2_MODEL_RUNNER is False and LIMIT > self.n:
                raise ValueError("x")
        """
    )
    assert site.names == ("envs.VLLM_USE_V2_MODEL_RUNNER", "LIMIT", "self.n")


def test_if_elif_chains_of_early_returns() -> None:
    # the shape the hand check found missing (bench/extraction_check, B2)
    assert path_of(
        """
        def f(a, b, c):
            if a:
                return 1
            elif b:
                return 2
            elif c:
                pass
            else:
                return 3
            raise ValueError("past the chain")
        """
    ) == [("early_exit", "not a"), ("early_exit", "not b"), ("early_exit", "c")]


def test_past_a_chain_whose_else_alone_exits_one_of_its_tests_held() -> None:
    # bench/extraction_check, B14: `a or b`, not nothing.
    sites = sites_of(
        """
        def f(a, b, mode):
            if a:
                y = 1
            elif b or mode == "x":
                y = 2
            elif (n := len(mode)) > 3 if mode else False:
                y = n
            else:
                raise KeyError("neither")
            raise ValueError(f"past the chain: {y}")
        """
    )
    assert [(str(c.kind), c.statement) for c in sites[-1].conditions] == [
        ("early_exit", 'a or b or mode == "x" or ((n := len(mode)) > 3 if mode else False)'),
    ]
    assert sites[-1].names == ("a", "b", "mode", "n", "len")


def test_early_exits_inside_with_and_try_blocks_hold_after_them() -> None:
    # B3 of the hand check
    *_, site = sites_of(
        """
        def f(ctx, n, h):
            with ctx():
                if not n:
                    return
            try:
                if h is None:
                    return
            except KeyError:
                raise
            assert h.ok, "not ok"
        """
    )
    assert [(str(c.kind), c.statement) for c in site.conditions] == [
        ("early_exit", "n"),
        ("early_exit", "h is not None"),
        ("assert", "not h.ok"),
    ]


def test_a_variable_reassigned_in_a_branch_is_not_inlined() -> None:
    # B1 of the hand check. `"auto"` is one of the message's values, not a message of its
    # own: the raise stays one site (a message chosen in branches is one per message).
    site = only_site(
        """
        def f(c):
            d = c.dtype
            if c is None:
                d = "auto"
            raise ValueError(f"dtype {d}")
        """
    )
    assert site.message is not None and site.message.text == "dtype {d}"


def test_child_nodes_are_ast_children_without_operator_and_context_leaves() -> None:
    import ast
    import inspect
    import textwrap

    from errdex.extract import conditions

    tree = ast.parse(textwrap.dedent(inspect.getsource(conditions)))
    leaves = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop)
    for node in ast.walk(tree):
        expected = [c for c in ast.iter_child_nodes(node) if not isinstance(c, leaves)]
        assert conditions.child_nodes(node) == expected
