"""The reviews' abuse limits, per signed-in user (the API and the pages): only a review
written counts, not a post sent back with a mistake."""

from core.throttles import PerUserPostThrottle, RecordedThrottle


class ReviewThrottle(RecordedThrottle, PerUserPostThrottle):
    """Reviews posted per user (THROTTLE_REVIEWS), by the API and by the Add Review page."""

    scope = "reviews"


class PartReviewThrottle(RecordedThrottle, PerUserPostThrottle):
    """Part reviews written or changed per user (THROTTLE_REVIEWS, counted apart from the
    site's reviews), by the API and by the part page's form."""

    scope = "part_reviews"
    methods = frozenset({"POST", "PUT"})
