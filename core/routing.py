"""URL helpers shared by the API and the pages."""

from django.urls import path, re_path, register_converter

# The largest id the databases hold (PostgreSQL's bigint, SQLite's integer).
MAX_ID = 2**63 - 1


class IdConverter:
    """`<id:pk>`: an object's id in a path, 1 to MAX_ID. A longer number matches no route (a
    404), where Django's `<int:…>` hands it on and the database refuses it (a 500)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= MAX_ID:
            raise ValueError(value)  # Django's sign that this route does not match
        return number

    def to_url(self, value) -> str:
        return str(value)


register_converter(IdConverter, "id")


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
