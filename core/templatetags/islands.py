"""`{% island_assets "name" %}`: the script, chunk preloads and CSS of a built entry."""

import json
from functools import lru_cache
from pathlib import Path

from django import template
from django.conf import settings
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from core.page_guards import ENTRANCE_TAG

register = template.Library()

MANIFEST = Path(settings.BASE_DIR) / "static" / "dist" / "manifest.json"


class MissingBuild(Exception):
    """The front end was not built (run `make setup`), or names no such entry."""


@lru_cache(maxsize=4)
def _read_manifest(mtime: float) -> dict:
    return json.loads(MANIFEST.read_text())


def manifest() -> dict:
    """The esbuild manifest, read again only when the file changes."""
    return _read_manifest(_manifest_mtime())


def _manifest_mtime() -> float:
    try:
        return MANIFEST.stat().st_mtime
    except FileNotFoundError as exc:
        raise MissingBuild(f"{MANIFEST} is missing: run `make setup`.") from exc


def dist_url(file: str) -> str:
    # Not {% static %}: esbuild already hashes names, and chunks import each other by
    # relative path, which a second hashing would break.
    return f"{settings.STATIC_URL}dist/{file}"


@register.simple_tag
def island_assets(*names: str) -> str:
    """Written once per set of names and build of the front end (every page has one)."""
    return _assets_html(names, _manifest_mtime())


@lru_cache(maxsize=64)
def _assets_html(names: tuple[str, ...], mtime: float) -> str:
    entries = _read_manifest(mtime)
    html = []
    for name in names:
        if name not in entries:
            raise MissingBuild(f"No entry {name!r} in {MANIFEST}: run `make setup`.")
        entry = entries[name]
        html.append(
            format_html_join(
                "", '<link rel="stylesheet" href="{}">', ((dist_url(c),) for c in entry["css"])
            )
        )
        html.append(
            format_html_join(
                "",
                '<link rel="modulepreload" href="{}">',
                ((dist_url(i),) for i in entry["imports"]),
            )
        )
        html.append(
            format_html('<script type="module" src="{}"></script>', dist_url(entry["file"]))
        )
    return mark_safe("".join(html))


@register.filter
def as_toast_props(messages) -> dict:
    """Props of the "toasts" island: each Django message's text and level (not the sign-in
    page's reasons, which that page shows itself)."""
    return {
        "messages": [
            {"text": str(m), "level": m.level_tag}
            for m in messages
            if ENTRANCE_TAG not in m.extra_tags.split()
        ]
    }
