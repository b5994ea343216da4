"""URL helpers shared by the API and the pages."""

from django.urls import path, re_path


def optional_slash(route: str, view, name: str):
    """Both `route` and `route/`: trailing slashes are optional on every path (API and pages)."""
    return [path(route, view, name=name), path(f"{route}/", view)]


# Every rest of a path, control characters too (`.` would stop at a newline).
ANY_PATH = r"^[\s\S]*$"


def any_path(view):
    """A last pattern that matches every rest of a path, control characters too: `.` stops at
    a newline (`/api/booking/%0A`), and a path no pattern matches gets Django's technical 404
    page with DEBUG on (the site's URLs listed) instead of `view`."""
    return re_path(ANY_PATH, view)
