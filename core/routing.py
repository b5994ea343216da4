"""URL helpers shared by the API and the pages."""

from django.urls import path


def optional_slash(route: str, view, name: str):
    """Both `route` and `route/`: trailing slashes are optional on every path (API and pages)."""
    return [path(route, view, name=name), path(f"{route}/", view)]
