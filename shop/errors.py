"""Errors that services raise; the API turns them into HTTP answers (shop.api)."""


class Conflict(Exception):
    """The request is valid but the current state forbids it (HTTP 409)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
