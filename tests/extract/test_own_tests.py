"""An attribute of the object the site's function set once, before the site, to one
comparison (`self.native = backend in NATIVE`) is bound like a local, with the locals that
comparison reads; set twice, to another value, or after the site, it is not."""

from __future__ import annotations

from extract_samples import only_site


def _bound(source: str) -> list[tuple[str, str]]:
    return [(b.name, b.value) for b in only_site(source).bindings]


def test_an_attribute_set_to_a_comparison_is_bound_with_what_it_reads() -> None:
    assert _bound(
        """
        class M:
            def __init__(self, config, scoring):
                backend = config.kernel_config.moe_backend
                self.native = backend in NATIVE
                if self.native and scoring != "soft":
                    raise ValueError("soft only")
        """
    ) == [
        ("self.native", "backend in NATIVE"),
        ("backend", "config.kernel_config.moe_backend"),
    ]


def test_an_attribute_set_twice_or_to_no_comparison_or_after_is_not_bound() -> None:
    for body in (
        "self.native = backend in NATIVE\n    self.native = False",
        "self.native = backend.startswith('x')",
        "self.native, self.other = backend in NATIVE, 1",
        "self.native = backend in NATIVE\n    self.native |= True",
    ):
        source = f"""
def f(self, backend):
    {body}
    if self.native:
        raise ValueError("native")
"""
        assert not [n for n, _ in _bound(source) if n.startswith("self.")], body
    assert (
        _bound(
            """
        def f(self, backend):
            if self.native:
                raise ValueError("native")
            self.native = backend in NATIVE
        """
        )
        == []
    )
