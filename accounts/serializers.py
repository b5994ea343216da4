"""Input and output shapes of the accounts API."""

from collections.abc import Mapping

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django_countries import countries
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.exceptions import TokenError
from rest_framework_simplejwt.serializers import TokenRefreshSerializer
from rest_framework_simplejwt.settings import api_settings as jwt_settings
from rest_framework_simplejwt.token_blacklist.models import OutstandingToken

from core.emails import normalize_email
from core.fields import PhoneField, required
from core.phones import PHONE_REQUIRED

from . import services
from . import validators as v
from .models import User
from .tokens import ShopRefreshToken, revocation_reason

PROFILE_REQUIRED = {
    "education": "Education is required",
    "location": "Location is required",
    "phone": PHONE_REQUIRED,
    "linkedin": "LinkedIn is required",
}


class UserOutputSerializer(serializers.ModelSerializer):
    _id = serializers.IntegerField(source="pk", read_only=True)
    role = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ["_id", "email", "name", "role", "education", "location", "phone", "linkedin"]

    def get_role(self, user) -> str:
        return User.Role.ADMIN if user.is_shop_admin else User.Role.USER


class SignupInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=150, error_messages=required(v.NAME_REQUIRED))
    email = serializers.CharField(max_length=254, error_messages=required(v.EMAIL_REQUIRED))
    password = serializers.CharField(
        max_length=128, trim_whitespace=False, error_messages=required(v.PASSWORD_REQUIRED)
    )

    def validate_email(self, value):
        email = normalize_email(value)
        try:
            v.validate_shop_email(email)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc
        if User.objects.filter(email=email).exists():
            raise serializers.ValidationError(v.EMAIL_TAKEN)
        return email

    def validate_password(self, value):
        try:
            validate_password(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc
        return value


class SignupOutputSerializer(serializers.Serializer):
    _id = serializers.IntegerField()
    email = serializers.EmailField()
    name = serializers.CharField()
    access = serializers.CharField()
    refresh = serializers.CharField()


class TokenPairOutputSerializer(serializers.Serializer):
    access = serializers.CharField()
    refresh = serializers.CharField()


class TokenRefreshInputSerializer(TokenRefreshSerializer):
    """simplejwt's refresh with rotation: the used token is blacklisted and a new pair answers.
    401 (never a server error) when the account is gone or inactive, the password changed, the
    family was revoked, or the token was used before: the token's row is locked while it is
    checked and blacklisted, so two requests racing with one token cannot both succeed. A used
    token presented again revokes its whole sign-in (services.refresh_token_reuse_revoke)."""

    token_class = ShopRefreshToken

    def validate(self, attrs):
        try:
            return self.rotate(attrs)
        except TokenError:
            services.refresh_token_reuse_revoke(refresh=attrs["refresh"])
            raise

    def rotate(self, attrs):
        refresh = self.token_class(attrs["refresh"])  # malformed, expired or used: TokenError
        user = User.objects.filter(pk=refresh.get(jwt_settings.USER_ID_CLAIM)).first()
        if user is None or not user.is_active:
            raise AuthenticationFailed(
                self.error_messages["no_active_account"], "no_active_account"
            )
        reason = revocation_reason(user, refresh)
        if reason:
            raise AuthenticationFailed(reason, "token_revoked")
        with transaction.atomic():
            jti = refresh[jwt_settings.JTI_CLAIM]
            list(OutstandingToken.objects.select_for_update().filter(jti=jti).order_by())
            return super().validate(attrs)  # checks the blacklist again, under the lock


class TokenRefreshOutputSerializer(serializers.Serializer):
    access = serializers.CharField()
    refresh = serializers.CharField()


class TokenRevokeInputSerializer(serializers.Serializer):
    """POST /api/token/revoke: the refresh token to revoke (services.refresh_token_revoke)."""

    refresh = serializers.CharField()

    def validate(self, attrs):
        services.refresh_token_revoke(refresh=attrs["refresh"])
        return {"revoked": True}


class TokenRevokeOutputSerializer(serializers.Serializer):
    revoked = serializers.BooleanField()


class TokenExchangeInputSerializer(serializers.Serializer):
    email = serializers.CharField(required=False, allow_blank=True)


class TokenExchangeOutputSerializer(serializers.Serializer):
    result = UserOutputSerializer()
    token = serializers.CharField()


class ProfileInputSerializer(serializers.Serializer):
    education = serializers.CharField(
        max_length=200, error_messages=required(PROFILE_REQUIRED["education"])
    )
    location = serializers.CharField(
        max_length=200, error_messages=required(PROFILE_REQUIRED["location"])
    )
    phone = PhoneField()
    linkedin = serializers.CharField(
        max_length=300,
        validators=[v.validate_http_url],
        error_messages=required(PROFILE_REQUIRED["linkedin"]),
    )


class ProfileOutputSerializer(serializers.Serializer):
    modifiedCount = serializers.IntegerField()
    result = UserOutputSerializer()


class ModifiedCountSerializer(serializers.Serializer):
    modifiedCount = serializers.IntegerField()


class UserDeletedSerializer(serializers.Serializer):
    deletedCount = serializers.IntegerField()


class AdminCheckSerializer(serializers.Serializer):
    admin = serializers.BooleanField()


ADDRESS_REQUIRED = {
    "fullName": "Full name is required",
    "line1": "Address line 1 is required",
    "city": "City is required",
    "postcode": v.POSTCODE_REQUIRED,
    "country": "Country is required",
}
COUNTRY_INVALID = "Choose a country from the list (an ISO 3166-1 code such as US)"


class CountryCodeField(serializers.ChoiceField):
    """An ISO 3166-1 alpha-2 code of django-countries' list; "us" is taken as "US"."""

    def __init__(self, **kwargs):
        messages = {**required(ADDRESS_REQUIRED["country"]), "invalid_choice": COUNTRY_INVALID}
        super().__init__(choices=list(countries), error_messages=messages, **kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = data.strip().upper()
            if not data:
                self.fail("blank")
        return super().to_internal_value(data)


class AddressInputSerializer(serializers.Serializer):
    """`<address>` as POST and PUT /api/addresses take it (and the Addresses page's form)."""

    fullName = serializers.CharField(
        source="full_name", max_length=150, error_messages=required(ADDRESS_REQUIRED["fullName"])
    )
    line1 = serializers.CharField(
        max_length=200, error_messages=required(ADDRESS_REQUIRED["line1"])
    )
    line2 = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    city = serializers.CharField(max_length=100, error_messages=required(ADDRESS_REQUIRED["city"]))
    region = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    postcode = serializers.CharField(error_messages=required(ADDRESS_REQUIRED["postcode"]))
    country = CountryCodeField()
    phone = PhoneField()
    isDefault = serializers.BooleanField(source="is_default", required=False)

    def to_internal_value(self, data):
        # The country as given (its own field may be refused), so a US address hears about
        # its ZIP code together with the other fields' messages (validate_postcode). Kept
        # here, not read from initial_data, which a nested address (a checkout's shipTo) lacks.
        given = data.get("country") if isinstance(data, Mapping) else None
        self._country_given = given.strip().upper() if isinstance(given, str) else ""
        return super().to_internal_value(data)

    def validate_postcode(self, value):
        country = self._country_given
        try:
            v.validate_postcode(value, country=country)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc
        return value


class AddressOutputSerializer(serializers.Serializer):
    """`<address>` (accounts.addresses.address_as_dict builds it; this is its schema)."""

    _id = serializers.IntegerField()
    fullName = serializers.CharField()
    line1 = serializers.CharField()
    line2 = serializers.CharField()
    city = serializers.CharField()
    region = serializers.CharField()
    postcode = serializers.CharField()
    country = serializers.CharField(min_length=2, max_length=2)
    phone = serializers.CharField()
    isDefault = serializers.BooleanField()


class AddressDeletedSerializer(serializers.Serializer):
    deletedCount = serializers.IntegerField()
