"""What a page makes the browser download from us: its JavaScript and CSS, gzip-compressed.

A page's JavaScript is its module scripts and modulepreloads (what `{% island_assets %}` emits
from the esbuild manifest), followed through their static imports. React is recognised by
strings only React's own code carries, so "0 B of React" is checked on the built files.
"""

import gzip
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings

REACT_MARKERS = (
    "react-dom",
    "__REACT_DEVTOOLS_GLOBAL_HOOK__",
    "react.transitional.element",
    "react.element",
)
SCRIPT = re.compile(r'<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"')
PRELOAD = re.compile(r'<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"')
STYLESHEET = re.compile(r'<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"')
STATIC_IMPORT = re.compile(r'(?:\bfrom|\bimport)\s*"(\.{1,2}/[^"]+\.js)"')


@dataclass(frozen=True)
class PageWeight:
    js_files: tuple[str, ...]
    js_gzip: int  # bytes
    react_gzip: int  # bytes of the files above that carry React
    css_gzip: int


def static_file(url: str) -> Path:
    """The file behind a /static/ URL: the source tree first, then collectstatic's output."""
    if not url.startswith(settings.STATIC_URL):
        raise ValueError(f"{url} is not one of our static files")
    relative = url.removeprefix(settings.STATIC_URL).split("?")[0]
    for root in (Path(settings.BASE_DIR) / "static", Path(settings.STATIC_ROOT)):
        if (root / relative).is_file():
            return root / relative
    raise FileNotFoundError(f"{url}: no such static file (run `make setup`)")


@cache
def _file_facts(path: Path, mtime: float) -> tuple[int, bool, tuple[Path, ...]]:
    data = path.read_bytes()
    text = data.decode("utf-8", "replace")
    imports = tuple((path.parent / found).resolve() for found in STATIC_IMPORT.findall(text))
    return len(gzip.compress(data, 9)), any(m in text for m in REACT_MARKERS), imports


def file_facts(path: Path) -> tuple[int, bool, tuple[Path, ...]]:
    """(gzip size, carries React, JS files it imports statically) of a built file."""
    return _file_facts(path.resolve(), path.stat().st_mtime)


def page_js(html: str) -> list[Path]:
    """Every JS file of ours the page loads before it is interactive, each once."""
    todo = [static_file(url) for url in SCRIPT.findall(html) + PRELOAD.findall(html)]
    seen: dict[Path, None] = {}
    while todo:
        path = todo.pop().resolve()
        if path not in seen:
            seen[path] = None
            todo.extend(file_facts(path)[2])
    return sorted(seen)


def weigh(html: str) -> PageWeight:
    js = page_js(html)
    facts = [file_facts(path) for path in js]
    css = [static_file(url) for url in STYLESHEET.findall(html)]
    return PageWeight(
        js_files=tuple(path.name for path in js),
        js_gzip=sum(size for size, _, _ in facts),
        react_gzip=sum(size for size, react, _ in facts if react),
        css_gzip=sum(file_facts(path)[0] for path in css),
    )
