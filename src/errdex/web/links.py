"""The site's addresses, built in one place so pages and tests agree on them."""

from __future__ import annotations

from urllib.parse import quote, urlencode, urlsplit


def _seg(text: str) -> str:
    return quote(text, safe="")


def safe_href(url: str | None) -> str | None:
    """An outside link only when it is http(s): metadata may hold `javascript:` or worse."""
    if not url:
        return None
    try:
        scheme = urlsplit(url.strip()).scheme.lower()
    except ValueError:
        return None
    return url.strip() if scheme in ("http", "https") else None


class Links:
    """Paths of the pages and the API under the app's root path."""

    def __init__(self, root: str = "") -> None:
        self.root = root.rstrip("/")

    def home(self) -> str:
        return self.root + "/"

    def static(self, name: str) -> str:
        return f"{self.root}/static/{quote(name)}"

    def openapi(self) -> str:
        return f"{self.root}/api/openapi.json"

    def search(self, q: str | None = None, *, api: bool = False) -> str:
        path = f"{self.root}{'/api' if api else ''}/search"
        return path + ("?" + urlencode({"q": q}) if q is not None else "")

    def error(self, error_id: str, version: str | None = None, *, api: bool = False) -> str:
        path = f"{self.root}{'/api' if api else ''}/errors/{_seg(error_id)}"
        return path + ("?" + urlencode({"version": version}) if version else "")

    def project(self, name: str, version: str | None = None, *, api: bool = False) -> str:
        path = f"{self.root}{'/api' if api else ''}/projects/{_seg(name)}"
        return path + ("?" + urlencode({"version": version}) if version else "")

    def file(
        self, project: str, version: str, path: str, line: int | None = None, *, api: bool = False
    ) -> str:
        where = quote(path, safe="/")
        url = f"{self.root}{'/api' if api else ''}/projects/{_seg(project)}/{_seg(version)}"
        url += f"/files/{where}"
        return url + (f"#L-{line}" if line is not None and not api else "")
