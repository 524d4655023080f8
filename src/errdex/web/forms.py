"""A POSTed form, read within limits: its field count is bounded, and a form type errdex
does not read is refused with a 4xx that says what to send, never a 500."""

from __future__ import annotations

from urllib.parse import parse_qs

from starlette.exceptions import HTTPException

# The search form has one field (`q`) and a few options; a hundred is generous, and a body
# of thousands of `a=1&` would otherwise each become a list.
MAX_FIELDS = 100
URLENCODED = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


def form_field(content_type: str, body: bytes, name: str) -> str | None:
    """The last value of field `name` of a urlencoded form; None when the body is no form
    (it is the text itself). HTTPException 400 past `MAX_FIELDS` fields, 415 for a
    multipart form (a file upload: errdex takes the paste as text)."""
    media_type = content_type.partition(";")[0].strip().lower()
    if media_type == MULTIPART:
        raise HTTPException(
            415,
            "multipart forms are not read: send the text as the body, or as the field q of"
            f" an {URLENCODED} form",
        )
    if media_type != URLENCODED:
        return None
    try:
        fields = parse_qs(body.decode("ascii", "replace"), max_num_fields=MAX_FIELDS)
    except ValueError as error:  # parse_qs's only complaint: too many fields
        raise HTTPException(
            400, f"the form has more than {MAX_FIELDS} fields; it needs one: {name}"
        ) from error
    return (fields.get(name) or [""])[-1]
