"""What the apps above the catalog add to a part's page, which the catalog may not import: a
hook each fills in from its AppConfig.ready (reviews adds the riders' reviews)."""

from collections.abc import Callable

# A section: called with the request, the part and the page's context, it adds to the context
# what its template reads and names that template in context["part_sections"]; it may add to
# the schema.org Product (context["product"]). It spends at most one query, and puts nothing
# personal in a visitor's page (kept for every visitor with the same active bike).
Section = Callable[[object, object, dict], None]

_sections: list[Section] = []


def add_part_page_section(section: Section) -> None:
    if section not in _sections:
        _sections.append(section)


def part_page_sections(request, part, context: dict) -> None:
    context.setdefault("part_sections", [])
    for section in _sections:
        section(request, part, context)
