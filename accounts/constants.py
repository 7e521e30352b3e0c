"""Product numbers for accounts: how long an unused guest lives, how often one
may try to sign up, log in or claim a name (django-ratelimit rates: "count/period")."""

from __future__ import annotations

from datetime import timedelta

# A guest row exists once a visitor plays; one that never kept a seat or a table
# (a full table, a refused form) is deleted after this long.
GUEST_IDLE = timedelta(days=7)
PRUNE_BATCH = 10_000

# Per client address, and per username (however it is cased or composed).
SIGNUP_RATE_PER_IP = "10/h"
SIGNUP_RATE_PER_USERNAME = "5/10m"
LOGIN_RATE_PER_IP = "30/10m"
LOGIN_RATE_PER_USERNAME = "10/10m"
CLAIM_RATE_PER_IP = "10/h"
CLAIM_RATE_PER_USERNAME = "5/10m"
