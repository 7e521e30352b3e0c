from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    """What the site keeps about players, and their say over it: the privacy and terms
    pages, exporting an account's data, deleting an account.  It sits above the other
    apps (it reads and writes through theirs); none of them imports it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "privacy"
    verbose_name = "Privacy"
