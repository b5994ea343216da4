"""What exists: every API operation and page route the shop answers, as the URL resolver and the
OpenAPI schema know them (the authorization matrix must have a row for each)."""

from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator

from core.routing import ANY_PATH  # the catch-alls: a 404 for any path no route names

METHODS = ("get", "post", "put", "patch", "delete")
NOT_PAGES = ("api/", "admin/", "accounts/")  # the API, Django's admin and allauth's own pages
SCHEMA_VIEWS = ("/api/schema", "/api/docs")


def routes(resolver: URLResolver, prefix: str = ""):
    """(route, view) of every URL pattern under `resolver`, includes flattened."""
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from routes(pattern, route)
        elif isinstance(pattern, URLPattern) and not route.endswith(ANY_PATH):
            yield route, pattern.callback


def as_schema_path(route: str) -> str:
    return "/" + route.replace("<id:pk>", "{id}").replace("<email:email>", "{email}")


def resolver_api_operations() -> set[tuple[str, str]]:
    operations = set()
    for route, view in routes(get_resolver()):
        path = as_schema_path(route.rstrip("/"))
        if route.startswith("api/") and path not in SCHEMA_VIEWS:
            methods = [m for m in METHODS if hasattr(view.cls, m)]
            operations.update((method.upper(), path) for method in methods)
    return operations


def schema_api_operations() -> set[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(public=True)
    return {
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in METHODS
    }


def page_routes() -> set[str]:
    pages = {route for route, _ in routes(get_resolver()) if not route.startswith(NOT_PAGES)}
    return {route.rstrip("/") for route in pages}
