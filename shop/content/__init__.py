"""The words of the shop's static pages, as plain data."""

from .home import *  # noqa: F403
