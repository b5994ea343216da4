"""The reviews' abuse limit, per signed-in user (the API and the Add Review page)."""

from core.throttles import PerUserPostThrottle


class ReviewThrottle(PerUserPostThrottle):
    """Reviews posted per user (THROTTLE_REVIEWS), by the API and by the Add Review page."""

    scope = "reviews"
