"""The names a message shows with a value: what both the flag a message names by its field
(link.named) and the refused value of a supported-values page read."""

from errdex.link.named import shown_fields


def test_names_shown_with_a_value_in_the_order_written() -> None:
    text = "Got kv_cache_dtype=fp8 for max_model_len; block_size: 16, got dtype"
    assert shown_fields(text) == ["kv_cache_dtype", "max_model_len", "block_size", "dtype"]


def test_no_dotted_name_flag_call_comparison_or_placeholder() -> None:
    text = "cfg.block_size=3 --max-len=4 for max_model_len() x_y == 2 got {self.kv_dtype}"
    assert shown_fields(text) == []


def test_of_only_where_asked() -> None:
    text = "schedule a multiple of block_size tokens"
    assert shown_fields(text) == []
    assert shown_fields(text, of=True) == ["block_size"]
