from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django_countries.fields import CountryField

from core.phones import normalize_phone, validate_phone

from .validators import validate_http_url, validate_postcode


class UserManager(BaseUserManager):
    """Users log in with their e-mail address; there is no username."""

    use_in_migrations = True

    def _create_user(self, email, password, **extra_fields):
        if not email:
            raise ValueError("An e-mail address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra_fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra_fields):
        extra_fields.setdefault("is_staff", False)
        extra_fields.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra_fields)

    def create_superuser(self, email, password=None, **extra_fields):
        extra_fields.update(is_staff=True, is_superuser=True, role=User.Role.ADMIN)
        return self._create_user(email, password, **extra_fields)


class User(AbstractUser):
    """A shopper or a shop admin, identified by e-mail."""

    class Role(models.TextChoices):
        ADMIN = "admin", "Admin"
        USER = "user", "User"

    username = None
    first_name = None
    last_name = None
    email = models.EmailField("e-mail address", unique=True)
    name = models.CharField("display name", max_length=150, blank=True)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.USER)
    education = models.CharField(max_length=200, blank=True)
    location = models.CharField(max_length=200, blank=True)
    phone = models.CharField(max_length=20, blank=True)
    linkedin = models.CharField(
        "LinkedIn", max_length=300, blank=True, validators=[validate_http_url]
    )
    # {family id: unix time revoked}: API token families that answer 401 (accounts/tokens.py).
    revoked_token_families = models.JSONField(default=dict, blank=True, editable=False)

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["name"]

    objects = UserManager()

    class Meta:
        ordering = ["email"]
        constraints = [
            models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique"),
            models.CheckConstraint(
                condition=models.Q(role__in=["admin", "user"]), name="accounts_user_role_valid"
            ),
        ]

    def __str__(self):
        return self.email

    @property
    def is_shop_admin(self) -> bool:
        """A shop admin: role "admin"; a Django superuser counts as one too."""
        return self.role == self.Role.ADMIN or self.is_superuser

    def get_full_name(self):
        return self.name or self.email

    def get_short_name(self):
        return self.name or self.email.split("@")[0]


class Address(models.Model):
    """An address saved in an account's address book (at most MAX_ADDRESSES, one default).

    The rules (postcode, phone, the limit, the one default) are kept by accounts.services;
    orders keep their own copy, so changing or deleting an address never changes an order.
    """

    owner = models.ForeignKey(User, on_delete=models.CASCADE, related_name="addresses")
    full_name = models.CharField(max_length=150)
    line1 = models.CharField("address line 1", max_length=200)
    line2 = models.CharField("address line 2", max_length=200, blank=True)
    city = models.CharField(max_length=100)
    region = models.CharField("state / region", max_length=100, blank=True)
    postcode = models.CharField(max_length=12)
    country = CountryField()
    phone = models.CharField(max_length=20)
    is_default = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "addresses"
        ordering = ["-is_default", "-created", "-pk"]
        constraints = [
            # At most one default per account; the services see that there is always one.
            models.UniqueConstraint(
                fields=["owner"],
                condition=models.Q(is_default=True),
                name="accounts_address_one_default",
            ),
        ]

    def __str__(self):
        return f"{self.full_name}, {self.line1}, {self.city}"

    def clean(self):
        """The rules that span fields or need tidying first: a US postcode is a ZIP code; a
        phone is the spec's (core.phones), its separators dropped."""
        self.postcode = (self.postcode or "").strip()
        self.phone = normalize_phone(self.phone)
        errors = {}
        for field, check in (
            ("postcode", lambda: validate_postcode(self.postcode, country=str(self.country))),
            ("phone", lambda: validate_phone(self.phone)),
        ):
            try:
                check()
            except ValidationError as exc:
                errors[field] = exc.messages
        if errors:
            raise ValidationError(errors)
