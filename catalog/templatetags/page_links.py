"""`{% page_links page url_name label query %}`: catalog/_pages.html (the Previous, numbered
and Next links of a ListPage), rendered once per page position in each process.

The links are a function of the page's number, its number of pages and its elided range, the
route, the label and the query string the links carry. All but the query repeat from one
search to the next, so the HTML is kept under them with a stand-in for the query, which is
then put in its place as the template would write it (escaped): the same HTML as
`{% include "catalog/_pages.html" %}`, without drawing each link again for every new search.
"""

from django import template
from django.core.paginator import Paginator
from django.template.loader import get_template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from core.versioned_cache import LocalMemory

register = template.Library()

PAGES = "catalog/_pages.html"
QUERY = "QUERY0STAND0IN"  # what the escaping leaves as it is; no link holds it otherwise
kept = LocalMemory(512)
SECONDS = 24 * 3600


@register.simple_tag
def page_links(page, url_name: str, label: str, query: str = "") -> str:
    key = repr((page.number, page.num_pages, tuple(page.page_range), url_name, label, bool(query)))
    html = kept.get(key)
    if html is None:
        html = _render(page, url_name, label, QUERY if query else "")
        kept.set(key, html, SECONDS)
    return mark_safe(html.replace(QUERY, conditional_escape(query)))


def _render(page, url_name: str, label: str, query: str) -> str:
    return get_template(PAGES).render(
        {
            "page": page,
            "ellipsis": Paginator.ELLIPSIS,
            "url_name": url_name,
            "label": label,
            "query": query,
        }
    )
