"""Errors that services raise; the API turns them into HTTP answers (core.api)."""


class ShopError(Exception):
    """A refusal with a message meant for the person who asked; the API answers status_code."""

    status_code = 400

    def __init__(self, message: str, **extra):
        super().__init__(message)
        self.message = message
        self.extra = extra  # more fields of the answer beside "detail" (e.g. the partId at fault)


class Conflict(ShopError):
    """The request is valid but the current state forbids it (HTTP 409)."""

    status_code = 409


class NotFound(ShopError):
    """What the request names does not exist (any more) (HTTP 404)."""

    status_code = 404


class Rejected(ShopError):
    """The request names something that does not hold up (HTTP 400 with a detail)."""


class UpstreamFailure(ShopError):
    """An outside service failed or could not be reached (HTTP 502)."""

    status_code = 502


class Unavailable(ShopError):
    """The feature is switched off on this shop (HTTP 503)."""

    status_code = 503
