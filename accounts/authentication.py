"""The API's bearer-token authentication: simplejwt's, plus the shop's revocations."""

from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.authentication import JWTAuthentication

from .tokens import revocation_reason


class ShopJWTAuthentication(JWTAuthentication):
    """simplejwt loads the account the token names (401 when deleted or inactive, or when its
    password changed: CHECK_REVOKE_TOKEN); then the token's family must not be revoked. Both
    read the row simplejwt loaded: no extra query per request."""

    def get_user(self, validated_token):
        user = super().get_user(validated_token)
        reason = revocation_reason(user, validated_token)
        if reason:
            raise AuthenticationFailed(reason, code="token_revoked")
        return user


class ShopJWTScheme(SimpleJWTScheme):
    """The schema's bearer-JWT security scheme (drf-spectacular's), for the subclass too."""

    target_class = ShopJWTAuthentication
