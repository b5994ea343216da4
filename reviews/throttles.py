"""The reviews' abuse limit, per signed-in user (the API and the Add Review page)."""

from core.throttles import PerUserPostThrottle


class ReviewThrottle(PerUserPostThrottle):
    """Reviews posted per user (THROTTLE_REVIEWS), by the API and by the Add Review page."""

    scope = "reviews"


class PartReviewThrottle(PerUserPostThrottle):
    """Part reviews written or changed per user (THROTTLE_REVIEWS, counted apart from the
    site's reviews), by the API and by the part page's form."""

    scope = "part_reviews"
    methods = frozenset({"POST", "PUT"})
