"""Helpers for page tests of React islands: the props a page gives an island, its script."""

import html
import json
import re

from core.templatetags.islands import dist_url, manifest


def island_props(response, name: str) -> dict:
    """The JSON props of the `data-island="name"` mount point in a rendered page (its first
    child; what follows it is the page's own HTML until the island mounts)."""
    match = re.search(
        rf'<div [^>]*\bdata-island="{re.escape(name)}"[^>]*><script type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, f"no {name!r} island in the page"
    return json.loads(match.group(1))


def island_script(name: str) -> str:
    """The `<script type="module">` tag that loads the island's built entry."""
    return f'<script type="module" src="{dist_url(manifest()[name]["file"])}"></script>'


def page_text(response) -> str:
    """The page's text without tags, whitespace collapsed (roughly what a reader sees)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
