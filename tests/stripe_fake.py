"""The tests' fake Stripe: localstripe on loopback, as `make run` starts it (scripts/fake_stripe.py)."""

from scripts.fake_stripe import PUBLISHABLE_KEY, SECRET_KEY, WEBHOOK_SECRET, FakeStripe
from scripts.servers import free_port

__all__ = ["PUBLISHABLE_KEY", "SECRET_KEY", "WEBHOOK_SECRET", "FakeStripe", "free_port"]
