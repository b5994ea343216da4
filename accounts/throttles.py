"""The accounts API's abuse limits: sign-ups, sign-ins and refreshes per client IP, failed
sign-ins per IP and per e-mail address from one IP."""

import hashlib

from core.emails import normalize_email
from core.throttles import RecordedThrottle, ShopThrottle


class SignupThrottle(ShopThrottle):
    """Sign-ups per client IP."""

    scope = "signup"


class TokenThrottle(ShopThrottle):
    """Sign-in attempts (successful or not) per client IP."""

    scope = "token"


class TokenRefreshThrottle(ShopThrottle):
    """Token refreshes per client IP."""

    scope = "token_refresh"


class LoginFailuresPerIP(RecordedThrottle):
    """Failed sign-ins per client IP."""

    scope = "login_failed"


class LoginFailuresPerAccountAndIP(RecordedThrottle):
    """Failed sign-ins per e-mail address from one client IP: a guesser elsewhere never locks
    the account's owner out; the per-IP limit bounds the rest."""

    scope = "login_failed_account"

    def ident(self, request) -> str:
        data = request.data if isinstance(request.data, dict) else {}
        email = normalize_email(str(data.get("email") or ""))
        # surrogatepass: a lone surrogate ("\ud800") is valid JSON, and refused as an e-mail
        # only later, by the serializer.
        key = f"{email}|{self.get_ident(request)}".encode("utf-8", "surrogatepass")
        return hashlib.sha256(key).hexdigest()
