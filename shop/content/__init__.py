"""The words of the shop's static pages, as plain data, one module per page.

Everything here is copy, not code: the owner can rewrite any of it without touching a template.
The home page reads SLIDES, QUALITY_POINTS, ENVIRONMENT_POINTS and BUSINESS_SUMMARY
(shop/content/home.py); /blogs reads BLOG_POSTS (blogs.py); /myportfolio reads PORTFOLIO
(portfolio.py); the footer's trust pages read TRUST_PAGES (trust.py).
"""

from .blogs import BLOG_INTRO, BLOG_POSTS
from .home import (
    BUSINESS_SUMMARY,
    BUSINESS_SUMMARY_INTRO,
    ENVIRONMENT_INTRO,
    ENVIRONMENT_POINTS,
    HOME_REVIEWS,
    QUALITY_INTRO,
    QUALITY_POINTS,
    SLIDES,
)
from .portfolio import PORTFOLIO, Link  # a label and its URL: the footer's social links too
from .trust import TRUST_PAGES

__all__ = [
    "BLOG_INTRO",
    "BLOG_POSTS",
    "BUSINESS_SUMMARY",
    "BUSINESS_SUMMARY_INTRO",
    "ENVIRONMENT_INTRO",
    "ENVIRONMENT_POINTS",
    "HOME_REVIEWS",
    "Link",
    "PORTFOLIO",
    "QUALITY_INTRO",
    "QUALITY_POINTS",
    "SLIDES",
    "TRUST_PAGES",
]
