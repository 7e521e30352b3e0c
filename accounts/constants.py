"""Product numbers for accounts: how long an unused guest lives, how long an e-mail
confirmation link works, how often one may try to sign up, log in, claim a name or
ask for a password reset (django-ratelimit rates: "count/period").  A reset link
works for ``settings.PASSWORD_RESET_TIMEOUT`` (Django's own setting)."""

from __future__ import annotations

from datetime import timedelta

# A guest row exists once a visitor plays; one that never kept a seat or a table
# (a full table, a refused form) is deleted after this long.
GUEST_IDLE = timedelta(days=7)  # the privacy page states it
PRUNE_BATCH = 10_000

# Per client address, and per username (however it is cased or composed).
SIGNUP_RATE_PER_IP = "10/h"
SIGNUP_RATE_PER_USERNAME = "5/10m"
LOGIN_RATE_PER_IP = "30/10m"
LOGIN_RATE_PER_USERNAME = "10/10m"
CLAIM_RATE_PER_IP = "10/h"
CLAIM_RATE_PER_USERNAME = "5/10m"
RESET_RATE_PER_IP = "10/h"
RESET_RATE_PER_EMAIL = "3/h"

# A link confirming an e-mail address works this long, once.
EMAIL_CONFIRM_AGE = timedelta(days=3)
