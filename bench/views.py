"""The benchmark's yardstick: a bare Django view, routed only by bench/urls.py.

It passes through the same middleware as every page and returns a short text, so `make bench`
can set each page's figures against what this machine and Django can do at best.
"""

from django.http import HttpResponse


def bare(request):
    return HttpResponse("ok", content_type="text/plain")
