"""`{% pure_include "partials/navbar.html" signed_in=… name=… %}`: a template rendered with the
given values and nothing else, once per set of values in each process.

The included template sees only the values named in the tag (no request, no user, no CSRF
token, no context processors), and each value must be plain (text, a number, a boolean or
None), so what it renders is a function of those values alone: the same values always give
the same HTML, whoever asks. That is what makes keeping it safe: a navbar that shows a
person's name is kept under that name, and any other person gets it only by having the same
values, when they would have got the same HTML anyway. Nothing in it is read from data, so no
version is needed (a deploy starts new processes).
"""

from django import template
from django.template.base import token_kwargs
from django.utils.safestring import mark_safe

from core.versioned_cache import LocalMemory

register = template.Library()

PLAIN = (str, int, float, bool, type(None))
kept = LocalMemory(1024)
SECONDS = 24 * 3600


class PureIncludeNode(template.Node):
    def __init__(self, template_name: str, values: dict):
        self.template_name = template_name
        self.values = values

    def render(self, context) -> str:
        values = {name: value.resolve(context) for name, value in self.values.items()}
        for name, value in values.items():
            if not isinstance(value, PLAIN):
                raise TypeError(f"pure_include: {name} is {type(value).__name__}, not plain")
        key = repr((self.template_name, sorted(values.items()), context.autoescape))
        html = kept.get(key)
        if html is None:
            included = context.template.engine.get_template(self.template_name)
            html = included.render(template.Context(values, autoescape=context.autoescape))
            kept.set(key, html, SECONDS)
        return mark_safe(html)


@register.tag
def pure_include(parser, token):
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError("pure_include takes a quoted template name first")
    values = token_kwargs(bits[2:], parser, support_legacy=False)
    if len(values) != len(bits) - 2:
        raise template.TemplateSyntaxError("pure_include takes name=value pairs only")
    return PureIncludeNode(bits[1][1:-1], values)
