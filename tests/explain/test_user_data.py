"""A check on what a public function computes from its argument: the page says to give it
another value, with the keys of the class's own table the parsed word must be one of."""

from __future__ import annotations

from pathlib import Path

from explain_samples import indexed_package, page_in_function

FILES = {
    "styles/__init__.py": "from styles.parse import Style",
    "styles/parse.py": """
        class StyleError(Exception):
            pass


        class Style:
            ATTRIBUTES = {"bold": "bold", "b": "bold", "dim": "dim"}

            def __init__(self, **attributes):
                self.attributes = attributes

            @classmethod
            def parse(cls, definition):
                ATTRIBUTES = cls.ATTRIBUTES
                attributes = {}
                words = iter(definition.split())
                for word in words:
                    if word == "not":
                        word = next(words, "")
                        attribute = ATTRIBUTES.get(word)
                        if attribute is None:
                            raise StyleError(f"expected an attribute after 'not', found {word!r}")
                        attributes[attribute] = False
                    elif word in ATTRIBUTES:
                        attributes[ATTRIBUTES[word]] = True
                return cls(**attributes)
        """,
}


def test_a_parsed_word_must_be_a_key_of_the_class_table(tmp_path: Path) -> None:
    for store in indexed_package(tmp_path, "styles", FILES):
        (solution,) = page_in_function(store, "styles", "Style.parse").solutions
        assert solution.text == (
            "Give `Style.parse` another `definition`: the check at line 21 (`attribute` is "
            "None) reads only `definition` and what the function computes from it "
            "(`attribute`) (“expected an attribute after 'not', found WORD”); `word` must "
            "be one of the keys of `ATTRIBUTES` (`'bold'`, `'b'`, `'dim'`). The check is of "
            "the value given, not of the program's state."
        )


def test_a_table_a_method_reassigns_is_state(tmp_path: Path) -> None:
    files = dict(FILES)
    files["styles/parse.py"] = files["styles/parse.py"].replace(
        "self.attributes = attributes", "self.attributes = attributes; self.ATTRIBUTES = {}"
    )
    for store in indexed_package(tmp_path, "styles", files):
        page = page_in_function(store, "styles", "Style.parse")
        assert not any("must be one of the keys" in s.text for s in page.solutions)
