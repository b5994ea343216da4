"""Auth and account endpoints: sign-up, tokens, users, profiles and the admin role."""

from django.contrib.auth.signals import user_logged_in
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.serializers import TokenObtainPairSerializer
from rest_framework_simplejwt.tokens import Token
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView, TokenViewBase

from core.api import errors
from core.emails import normalize_email
from core.permissions import (
    NOT_ADMIN,
    NOT_YOURS,
    IsShopAdmin,
    is_shop_admin,
    require_self_or_admin,
)
from core.throttles import record

from . import selectors, services, tokens
from .models import User
from .serializers import (
    AdminCheckSerializer,
    ModifiedCountSerializer,
    ProfileInputSerializer,
    ProfileOutputSerializer,
    SignupInputSerializer,
    SignupOutputSerializer,
    TokenExchangeInputSerializer,
    TokenExchangeOutputSerializer,
    TokenPairOutputSerializer,
    TokenRefreshInputSerializer,
    TokenRefreshOutputSerializer,
    TokenRevokeInputSerializer,
    TokenRevokeOutputSerializer,
    UserDeletedSerializer,
    UserOutputSerializer,
)
from .throttles import (
    LoginFailuresPerAccountAndIP,
    LoginFailuresPerIP,
    SignupThrottle,
    TokenRefreshThrottle,
    TokenThrottle,
)


def get_user_or_404(email: str) -> User:
    return get_object_or_404(User, email=normalize_email(email))


def announce_sign_in(request, user: User) -> None:
    """A sign-in for tokens from a browser that has a session: Django's user_logged_in, as
    every sign-in page sends it, so what the session holds for a visitor (a cart) joins the
    account. The session itself stays a visitor's: tokens are the answer."""
    session = getattr(request, "session", None)
    if session is not None and not session.is_empty():
        user_logged_in.send(sender=type(user), request=request, user=user)


class SignupApi(APIView):
    """Create an account and sign it in: answers the new user's tokens."""

    authentication_classes = []
    throttle_classes = [SignupThrottle]

    @extend_schema(
        request=SignupInputSerializer,
        responses={201: SignupOutputSerializer, **errors(400, 415)},
    )
    def post(self, request):
        data = SignupInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_create(**data.validated_data)
        announce_sign_in(request, user)
        body = {
            "_id": user.pk,
            "email": user.email,
            "name": user.name,
            **tokens.token_pair_for_user(user),
        }
        return Response(SignupOutputSerializer(body).data, status=status.HTTP_201_CREATED)


class EmailTokenObtainPairSerializer(TokenObtainPairSerializer):
    """simplejwt's e-mail + password login, with the address compared case-insensitively."""

    token_class = tokens.ShopRefreshToken

    def validate(self, attrs):
        attrs[self.username_field] = normalize_email(attrs.get(self.username_field, ""))
        data = super().validate(attrs)
        announce_sign_in(self.context["request"], self.user)
        return data


class TokenApi(TokenObtainPairView):
    """Sign in for tokens; limited per IP, and refused for a while after repeated failures
    from that IP, or for that account from that IP."""

    serializer_class = EmailTokenObtainPairSerializer
    throttle_classes = [TokenThrottle, LoginFailuresPerIP, LoginFailuresPerAccountAndIP]

    def handle_exception(self, exc):
        if isinstance(exc, AuthenticationFailed):
            record(self.request, self)
        return super().handle_exception(exc)

    @extend_schema(responses={200: TokenPairOutputSerializer, **errors(400, 401, 415)})
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


class TokenRefreshApi(TokenRefreshView):
    """A new token pair for a refresh token, which is used up (rotation); 401 once it was used
    or revoked, the password changed, or the account is gone or inactive."""

    serializer_class = TokenRefreshInputSerializer
    throttle_classes = [TokenRefreshThrottle]

    @extend_schema(responses={200: TokenRefreshOutputSerializer, **errors(400, 401, 415)})
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


class TokenRevokeApi(TokenViewBase):
    """Revoke a refresh token and the access tokens minted from it (its whole family); a
    token that is not a live refresh token answers 401, as simplejwt's views do."""

    serializer_class = TokenRevokeInputSerializer
    throttle_classes = [TokenRefreshThrottle]

    @extend_schema(responses={200: TokenRevokeOutputSerializer, **errors(400, 401, 415)})
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


class TokenExchangeApi(APIView):
    """Exchange the signed-in user's e-mail for a token: only for the caller."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TokenExchangeInputSerializer,
        responses={200: TokenExchangeOutputSerializer, **errors(400, 401, 403, 404, 415)},
    )
    def put(self, request, email):
        data = TokenExchangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        claimed = {normalize_email(email)}
        if data.validated_data.get("email"):
            claimed.add(normalize_email(data.validated_data["email"]))
        if claimed != {request.user.email}:
            raise PermissionDenied(NOT_YOURS)
        if isinstance(request.auth, Token):  # a bearer token: never outlives the one presented
            token = tokens.access_token_renewed(user=request.user, presented=request.auth)
        else:  # the site session: a fresh token, revoked when the session signs out
            token = tokens.access_token_for_session(user=request.user, session=request.session)
        body = {"result": request.user, "token": str(token)}
        return Response(TokenExchangeOutputSerializer(body).data)


class UserMeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: UserOutputSerializer, **errors(401)})
    def get(self, request):
        return Response(UserOutputSerializer(request.user).data)


class UserListApi(APIView):
    permission_classes = [IsShopAdmin]

    @extend_schema(responses={200: UserOutputSerializer(many=True), **errors(401, 403)})
    def get(self, request):
        return Response(UserOutputSerializer(selectors.user_list(), many=True).data)


class ProfileUpdateApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ProfileInputSerializer,
        responses={200: ProfileOutputSerializer, **errors(400, 401, 403, 404, 415)},
    )
    def put(self, request, email):
        require_self_or_admin(request, email)
        user = get_user_or_404(email)
        data = ProfileInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.user_update_profile(user=user, **data.validated_data)
        return Response(ProfileOutputSerializer({"modifiedCount": 1, "result": user}).data)

    @extend_schema(responses={200: UserDeletedSerializer, **errors(401, 403, 404, 409)})
    def delete(self, request, email):
        """Remove User (admins): the account goes, its orders stay unowned."""
        if not is_shop_admin(request.user):
            raise PermissionDenied(NOT_ADMIN)
        services.user_delete(user=get_user_or_404(email), by=request.user)
        return Response({"deletedCount": 1})


class MakeAdminApi(APIView):
    permission_classes = [IsShopAdmin]

    @extend_schema(request=None, responses={200: ModifiedCountSerializer, **errors(401, 403, 404)})
    def put(self, request, email):
        changed = services.user_make_admin(user=get_user_or_404(email))
        return Response({"modifiedCount": int(changed)})

    @extend_schema(
        request=None, responses={200: ModifiedCountSerializer, **errors(401, 403, 404, 409)}
    )
    def delete(self, request, email):
        """Take the shop-admin role back (never one's own, never a superuser's)."""
        changed = services.user_remove_admin(user=get_user_or_404(email), by=request.user)
        return Response({"modifiedCount": int(changed)})


class AdminCheckApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: AdminCheckSerializer, **errors(401, 403, 404)})
    def get(self, request, email):
        require_self_or_admin(request, email)
        return Response({"admin": is_shop_admin(get_user_or_404(email))})
