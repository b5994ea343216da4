"""Reading server-rendered pages in view tests: form fields, field errors, toasts."""

import json
import re
from html import unescape
from html.parser import HTMLParser

TOASTS = re.compile(
    r'<div data-island="toasts"><script type="application/json">(.*?)</script>', re.S
)


class _Fields(HTMLParser):
    """Collects the inputs, textareas, buttons, labels and images of a page, but the
    navbar's (its <header>: the search box every page has)."""

    def __init__(self):
        super().__init__()
        self.fields: dict[str, dict] = {}
        self.names: list[str] = []  # of every named input, select and textarea, in page order
        self.buttons: list[str] = []
        self.labels: dict[str, str] = {}
        self.images: list[dict] = []
        self._open: tuple[str, dict] | None = None
        self._text: list[str] = []
        self._in_header = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "header":
            self._in_header = True
        if self._in_header:
            return
        if tag in ("input", "select", "textarea") and "name" in attrs:
            self.names.append(attrs["name"])
        if tag == "input" and "name" in attrs:
            self.fields[attrs["name"]] = {"tag": "input", **attrs}
        elif tag == "img":
            self.images.append(attrs)
        elif tag in ("textarea", "button", "label"):
            self._open, self._text = (tag, attrs), []

    def handle_data(self, data):
        if self._open:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "header":
            self._in_header = False
        if not self._open or tag != self._open[0]:
            return
        attrs, text = self._open[1], "".join(self._text)
        if tag == "textarea":
            self.fields[attrs["name"]] = {"tag": "textarea", "value": text, **attrs}
        elif tag == "button":
            self.buttons.append(" ".join(text.split()))
        else:
            self.labels[attrs.get("for", "")] = " ".join(text.split())
        self._open = None


def parse(response) -> _Fields:
    parser = _Fields()
    parser.feed(response.content.decode())
    return parser


def fields(response) -> dict[str, dict]:
    """{name: attributes} of the page's inputs and textareas (a textarea's text as "value")."""
    return parse(response).fields


def field_names(response) -> list[str]:
    """The names of the page's form controls (inputs, selects, textareas), in page order."""
    return [name for name in parse(response).names if name != "csrfmiddlewaretoken"]


def buttons(response) -> list[str]:
    """The visible texts of the page's buttons."""
    return parse(response).buttons


def images(response) -> list[dict]:
    """The attributes of each <img> of the page, in order."""
    return parse(response).images


def label_of(response, name: str) -> str:
    """The text of the <label> of the field called `name`."""
    field = fields(response)[name]
    return parse(response).labels[field["id"]]


def field_error(response, name: str) -> str:
    """The message shown next to the field called `name` ("" when there is none)."""
    match = re.search(rf'<p id="id_{name}_error"[^>]*>(.*?)</p>', response.content.decode(), re.S)
    return unescape(match.group(1).strip()) if match else ""


def toasts(response) -> list[str]:
    """The texts of the Django messages the page shows as toasts."""
    match = TOASTS.search(response.content.decode())
    return [m["text"] for m in json.loads(match.group(1))["messages"]] if match else []
