"""The API's JWTs (simplejwt), and what makes one answer 401 before it expires.

Claims beyond simplejwt's own (`user_id`, `jti`, `iat`, `exp`, `token_type`):
- `hash_password` (simplejwt's CHECK_REVOKE_TOKEN): a digest of the account's password hash
  when the token was made. Changing or resetting the password, by any door, changes the hash,
  so every earlier token (access and refresh) answers 401 at once.
- `fam`, the token family: the jti of the refresh token that started a sign-in (kept through
  its rotations, copied into every access token minted from it), or the id that a site
  session gave the tokens it handed out. Revoking a refresh token (POST /api/token/revoke),
  presenting one again after it was used (a copy is in someone else's hands), or signing out
  of the session revokes the family: it is written on the account's row
  (`User.revoked_token_families`), which simplejwt loads for every request anyway. Both checks
  therefore cost no extra query.
Deleted and deactivated accounts answer 401 through simplejwt's own user lookup.
"""

from uuid import uuid4

from rest_framework_simplejwt.settings import api_settings
from rest_framework_simplejwt.tokens import AccessToken, RefreshToken, Token
from rest_framework_simplejwt.utils import get_md5_hash_password

FAMILY_CLAIM = "fam"
SESSION_FAMILY_KEY = "api_token_family"


class ShopRefreshToken(RefreshToken):
    """A refresh token that starts its own family (rotation keeps the claim)."""

    @classmethod
    def for_user(cls, user):
        token = super().for_user(user)
        token[FAMILY_CLAIM] = token[api_settings.JTI_CLAIM]
        return token


class SpentRefreshToken(ShopRefreshToken):
    """A refresh token verified as any other (signature, expiry, type) but the blacklist: to
    read one presented again after it was used (simplejwt's check_blacklist, skipped here)."""

    def check_blacklist(self) -> None:
        pass


def token_pair_for_user(user) -> dict[str, str]:
    """A new sign-in: {"access", "refresh"}, one new family."""
    refresh = ShopRefreshToken.for_user(user)
    return {"access": str(refresh.access_token), "refresh": str(refresh)}


def access_token_for_session(*, user, session) -> AccessToken:
    """A fresh access token handed out to a signed-in site session, in that session's family
    (made once per session), so signing out revokes it."""
    if SESSION_FAMILY_KEY not in session:
        session[SESSION_FAMILY_KEY] = uuid4().hex
    token = AccessToken.for_user(user)
    token[FAMILY_CLAIM] = session[SESSION_FAMILY_KEY]
    return token


def access_token_renewed(*, user, presented: Token) -> AccessToken:
    """A new access token for the bearer of `presented`: same family, and it never expires
    later than `presented` (a stolen token cannot renew itself)."""
    token = AccessToken.for_user(user)
    token["exp"] = min(token["exp"], presented["exp"])
    if FAMILY_CLAIM in presented:
        token[FAMILY_CLAIM] = presented[FAMILY_CLAIM]
    return token


def revocation_reason(user, token: Token) -> str | None:
    """Why `token` no longer counts for `user` (the account it names), or None."""
    if token.get(api_settings.REVOKE_TOKEN_CLAIM) != get_md5_hash_password(user.password):
        return "The password of this account has changed since this token was issued."
    family = token.get(FAMILY_CLAIM)
    if family and family in (user.revoked_token_families or {}):
        return "This token has been revoked."
    return None
