"""`{% url %}` as Django's, with each URL worked out once per process (a template builtin,
shop/settings.py TEMPLATES, so every template gets it without `{% load %}`).

Django's tag reverses on every render: a page with a navbar, a footer and a sidebar did it
some 25 times (bench/profiles). The same name, arguments, app namespace, URLconf and script
prefix always give the same URL, so it is kept (in a bounded memory); the URLconf's resolver
object is part of the key, so `clear_url_caches()` (tests that reload the routes) starts
afresh.
"""

from functools import lru_cache

from django import template
from django.template import defaulttags
from django.urls import NoReverseMatch, get_resolver, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

register = template.Library()


PLAIN = (str, int)


@lru_cache(maxsize=4096)
def _reverse(view_name, args: tuple, kwargs: tuple, current_app, resolver_id: int, prefix: str):
    return reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app)


def _current_app(context):
    request = getattr(context, "request", None)
    app = getattr(request, "current_app", None)
    if app is None:
        app = getattr(getattr(request, "resolver_match", None), "namespace", None)
    return app


class KeptURLNode(defaulttags.URLNode):
    def render(self, context):
        args = tuple(arg.resolve(context) for arg in self.args)
        kwargs = tuple(sorted((k, v.resolve(context)) for k, v in self.kwargs.items()))
        if not all(isinstance(v, PLAIN) for v in (*args, *(v for _, v in kwargs))):
            return super().render(context)  # e.g. an object: its text may change
        urlconf = get_urlconf()
        key = (id(get_resolver(urlconf)), get_script_prefix())
        try:
            url = _reverse(
                self.view_name.resolve(context), args, kwargs, _current_app(context), *key
            )
        except NoReverseMatch:
            if self.asvar is None:
                raise
            url = ""
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser, token):
    node = defaulttags.url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)
