"""The search form's <option>s on /allparts, rendered once per choice (and catalog version,
for the categories) in each process.

`{% category_options categories form.category catalog_version %}` shows the categories with
their part counts, which change only with the catalog's version (read by the page before the
categories: every write to the catalog makes a new one, on every app server at once); without
a version they are rendered afresh. `{% sort_options form.sort %}` shows search.SORT_LABELS,
fixed in the code. A choice that names no option is kept as one key ("nothing selected"), so
what a visitor types never adds entries.
"""

from django import template
from django.template.loader import get_template

from core.versioned_cache import LocalMemory

from ..search import SORT_LABELS

register = template.Library()

kept = LocalMemory(256)
SECONDS = 300
NO_CHOICE = "\x00"  # selects no option (and is not "", which selects "Best match")


@register.simple_tag
def category_options(categories, selected, version) -> str:
    if selected not in {category.slug for category in categories}:
        selected = ""
    if not version:
        return _render("catalog/_category_options.html", categories=categories, selected=selected)
    key = f"categories:{version}:{selected}"
    html = kept.get(key)
    if html is None:
        html = _render("catalog/_category_options.html", categories=categories, selected=selected)
        kept.set(key, html, SECONDS)
    return html


@register.simple_tag
def sort_options(selected) -> str:
    if selected and selected not in SORT_LABELS:
        selected = NO_CHOICE
    key = f"sorts:{selected}"
    html = kept.get(key)
    if html is None:
        html = _render("catalog/_sort_options.html", sorts=SORT_LABELS, selected=selected)
        kept.set(key, html, SECONDS)
    return html


def _render(name: str, **values) -> str:
    return get_template(name).render(values)
