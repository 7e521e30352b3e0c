"""domino_site/settings.py in production (issue 8, defect 9): with debug off and a real
secret key, ``check --deploy`` warned W004, W008, W012, W016.  Production settings now
pass it clean, and the site refuses to start with debug off and the development secret
key.  Settings are read once, at start: each case runs Django in a fresh process."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK_DEPLOY = (
    "import django; django.setup(); from django.core.management import call_command; "
    "call_command('check', deploy=True, fail_level='WARNING')"
)
SHOW_SETTINGS = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
    "s.SECURE_HSTS_SECONDS, s.PASSWORD_HASHERS[0].rsplit('.', 1)[1], "
    "getattr(s, 'SECURE_PROXY_SSL_HEADER', None))"
)


def django_process(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    base["DJANGO_SETTINGS_MODULE"] = "domino_site.settings"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def production(**env: str) -> dict[str, str]:
    return {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "domino.example.org",
        **env,
    }


def test_production_settings_warned_on_check_deploy() -> None:
    result = django_process(CHECK_DEPLOY, **production())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    behind_proxy = django_process(
        CHECK_DEPLOY, **production(DJANGO_PROXY_SSL_HEADER="X-Forwarded-Proto: https")
    )
    assert behind_proxy.returncode == 0, behind_proxy.stdout + behind_proxy.stderr


def test_debug_off_with_the_development_secret_key_refuses_to_start() -> None:
    result = django_process(CHECK_DEPLOY, DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "ImproperlyConfigured: Set DJANGO_SECRET_KEY" in result.stderr


def test_production_is_https_only_unless_told_otherwise() -> None:
    https = django_process(SHOW_SETTINGS, **production())
    # …and its passwords hashed slowly, as Django does
    assert https.stdout.split() == [
        "True",
        "True",
        "True",
        "31536000",
        "PBKDF2PasswordHasher",
        "None",
    ]
    proxied = django_process(
        SHOW_SETTINGS, **production(DJANGO_PROXY_SSL_HEADER="X-Forwarded-Proto: https")
    )
    assert proxied.stdout.strip().endswith("('HTTP_X_FORWARDED_PROTO', 'https')")
    plain = django_process(SHOW_SETTINGS, **production(DJANGO_HTTPS="0"))
    assert plain.stdout.split() == ["False", "False", "False", "0", "PBKDF2PasswordHasher", "None"]
    development = django_process(SHOW_SETTINGS)
    assert development.stdout.split()[:4] == ["False", "False", "False", "0"]


SHOW_MAIL = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.EMAIL_BACKEND.rsplit('.', 2)[1], s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, "
    "s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD, s.EMAIL_FILE_PATH, sep='|')"
)


def test_mail_goes_where_one_url_says() -> None:
    def mail(url: str | None) -> list[str]:
        env = {} if url is None else {"EMAIL_URL": url}
        result = django_process(SHOW_MAIL, **env)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip().split("|")

    assert mail(None)[0] == "console"  # make run: printed in its terminal
    smtp = mail("submission://rita:p%40ss@smtp.example.org")
    assert smtp[:6] == ["smtp", "smtp.example.org", "587", "True", "rita", "p@ss"]
    assert mail("file:mail")[::6] == ["filebased", str(ROOT / "mail")]  # in the checkout
    assert mail("file:///var/mail/domino")[::6] == ["filebased", "/var/mail/domino"]
