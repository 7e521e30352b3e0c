"""The browser tests' site: the site's own settings, and passwords hashed quickly.

Every browser test signs up or logs in players by the dozen; hashing their passwords
is not under test (Django's PBKDF2 takes most of a second each, on purpose)."""

from domino_site.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
