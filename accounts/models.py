from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models
from django.db.models.functions import Lower

from .validators import validate_http_url


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
