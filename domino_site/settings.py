"""Settings, read from the environment.

The embedded default needs nothing: SQLite and the in-memory channel layer.
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` switch the same code to several
daphne processes sharing one database and one channel layer.
"""

import os
import urllib.parse
from pathlib import Path

import dj_database_url
import dj_email_url  # type: ignore[import-untyped]
from django.core.exceptions import ImproperlyConfigured

from domino_site import csp

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() in ("1", "true", "yes", "on")


_DEV_SECRET_KEY = "dev-only-not-secret-set-DJANGO_SECRET_KEY"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or _DEV_SECRET_KEY
DEBUG = env_flag("DJANGO_DEBUG", True)
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "Set DJANGO_SECRET_KEY: debug is off, and the development key is public."
    )
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [
    o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o
]

# HTTPS only, with debug off: redirect http, secure cookies, HSTS.  DJANGO_HTTPS=0
# serves plain http with debug off (the browser tests on 127.0.0.1 do).
HTTPS = env_flag("DJANGO_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
# A load balancer and Prometheus may probe over http (monitoring/middleware.py).
SECURE_REDIRECT_EXEMPT = [r"^(healthz|readyz|metrics)$"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD", True)
# A proxy that terminates TLS says so in a header, e.g. "X-Forwarded-Proto: https".
_proxy_ssl_header = os.environ.get("DJANGO_PROXY_SSL_HEADER", "")
if _proxy_ssl_header:
    _name, _, _value = _proxy_ssl_header.partition(":")
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _name.strip().upper().replace("-", "_"), _value.strip())

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "accounts",
    "games",
    "deadlines",
    "economy",
    "matchmaking",
    "league",
    "privacy",
    "ratings",
    "monitoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "domino_site.csp.SiteCSPMiddleware",  # before WhiteNoise: static files get a policy too
    "monitoring.middleware.Probes",  # /healthz, /readyz, /metrics: no session, no cookie
    "monitoring.middleware.CountAnswers",  # every other answer, by status
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files: compressed, cached for a year
    "django.contrib.sessions.middleware.SessionMiddleware",
    "accounts.middleware.ChosenLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "monitoring.middleware.LogContext",  # each page's request id and player, for its lines
    "ratings.browsers.BrowserIdMiddleware",  # after the session's player: it records them
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "domino_site.urls"
ASGI_APPLICATION = "domino_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "games.context_processors.invitations",
                "domino_site.csp.csp_nonce",
            ],
        },
    },
    {
        # The table's live regions: rendered for every viewer at every version, so
        # with the faster engine (domino_site/jinja2.py).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "regions"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "domino_site.jinja2.environment"},
    },
]

_sqlite_default = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", _sqlite_default), conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers queue for the lock instead of failing: the deadline worker and the
    # players' requests write from different threads.  Each thread keeps its
    # connection (opening one per request cost 15% of a move under load).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("DJANGO_TEST_DB_NAME")}
else:
    # Under ASGI every request runs on a thread of its own, so a connection kept
    # per thread is left open when the thread ends: four processes passed
    # PostgreSQL's 100 connections.  A pool per process instead (psycopg's).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "15")),
        "timeout": 20,
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_MAX_CONNECTIONS = int(os.environ.get("REDIS_MAX_CONNECTIONS", "1000"))
if REDIS_URL:
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # Each dict is the keyword arguments of redis-py's ConnectionPool.from_url.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # redis-py's asyncio pool defaults to 100 connections and then fails
                        # with MaxConnectionsError under load: give each process a larger pool.
                        "max_connections": REDIS_MAX_CONNECTIONS,
                        # A consumer waits for its next message with BZPOPMIN, blocking up
                        # to channels_redis's `brpop_timeout` (5 s) in one read.  redis-py 8
                        # made 5 s every socket's default timeout: the idle wait timed out
                        # and the error killed the consumer (channels_redis#422, redis-py
                        # #4091).  No timeout rather than one above the wait: with one,
                        # redis-py sends each command under asyncio.wait_for, which on
                        # Python 3.11 may swallow a cancellation, and a closing consumer's
                        # receive then went on waiting in BZPOPMIN for ever
                        # (tests/site/test_redis_layer.py).  A dead peer is found by TCP
                        # keepalive instead: 30 s idle, then 3 probes 5 s apart (redis-py
                        # 8's defaults), which also keep a NAT's entry for an idle
                        # connection alive.
                        "socket_timeout": None,
                        "socket_connect_timeout": 5,
                        "socket_keepalive": True,
                        # A pooled connection idle past the health check is PINGed before
                        # use, and a command on a connection found dropped is sent once
                        # more on a new one: each of the layer's commands may run twice (a
                        # message goes into a sorted set as the same bytes: once).
                        "health_check_interval": 30,
                        "retry": Retry(NoBackoff(), 1),
                    }
                ]
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "overrides.channel_layer.LocalChannelLayer"}}

# One cache for every process when Redis is there (rate limits count in it);
# otherwise each process has its own, which is right for the single embedded one.
# The cache sends no blocking command (get, set, add, touch, incr, get_many), so
# redis-py 8's 5 s socket timeout is its limit for an answer, as it should be.
CACHES: dict[str, dict[str, object]]
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "domino",
        },
        "sessions": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "domino-sessions",
        },
    }
else:
    # LocMemCache keeps 300 entries unless told: a heartbeat per player at each table
    # (games.live.presence) and the rate limits' counters need far more.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 200_000},
        },
        # apart, so that many sessions never crowd the heartbeats out of the default
        "sessions": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "sessions",
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        },
    }
# Template fragments the same for every visitor in a language (the pages' header,
# footer, the home page's fixed panels: the {% cache %} tag's default alias).  Each
# process keeps its own: they depend on the code and the language only, and a
# deploy restarts the processes.  Rendering them was a sixth of the home page.
CACHES["template_fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "template-fragments",
}
# Rate limits (django-ratelimit, see accounts/limits.py) key on the client's address:
# behind a proxy, name the header that holds it, e.g. DJANGO_CLIENT_IP_HEADER=X-Real-IP.
if _client_ip_header := os.environ.get("DJANGO_CLIENT_IP_HEADER", ""):
    RATELIMIT_IP_META_KEY = "HTTP_" + _client_ip_header.strip().upper().replace("-", "_")

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365  # a guest keeps their identity for a year
# Sessions are read on every page and websocket: from the cache, the database
# holding them for good (a miss, or a restart, reads it there).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
# New logins name the players' backend (the player read as a prepared query);
# sessions begun before it name Django's, kept to read them (accounts/backends.py).
AUTHENTICATION_BACKENDS = [
    "accounts.backends.PlayerBackend",
    "django.contrib.auth.backends.ModelBackend",
]
SESSION_CACHE_ALIAS = "sessions"

LANGUAGE_CODE = "it"
LANGUAGES = [("it", "Italiano"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Rome"
USE_TZ = True

STATIC_URL = "static/"
# vendor/static: what `make setup` fetches and builds for the offline game (git-ignored):
# Pyodide's core (tools/fetch_pyodide.py) and the engine's zip (tools/build_offline.py).
VENDOR_STATIC = BASE_DIR / "vendor" / "static"
STATICFILES_DIRS = [BASE_DIR / "static", *([VENDOR_STATIC] if VENDOR_STATIC.is_dir() else [])]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
# With debug off, `manage.py collectstatic` writes hashed, compressed copies that
# WhiteNoise serves with year-long cache headers; with debug on it serves the sources.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "domino_site.staticfiles.KeptCompressionStorage"
    },
}
# Cached for a year: the hashed names, and Pyodide's files, which keep their own names
# (Pyodide loads them by name) in a folder named by their version.
WHITENOISE_IMMUTABLE_FILE_TEST = r"^/static/(pyodide/[0-9][0-9.]*/|.+\.[0-9a-f]{12}\.\w+$)"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Server errors go to the console once, with debug on or off (Django's default
# sends them only to mail_admins in production): "GET /path" and the traceback,
# never the request's cookies, session key, headers or query string.  Every line
# knows its request id and player (domino_site/log.py); LOG_FORMAT=json writes
# each line as a JSON object, daphne's and the worker's too, and an access line
# per request and websocket instead of daphne's text one.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
_JSON_LOGS = LOG_FORMAT == "json"
_LINE_FILTERS = ["request_line", "context"]
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_line": {"()": "domino_site.log.RequestLine"},
        "context": {"()": "domino_site.log.Context"},
        "not_twice": {"()": "domino_site.log.NotTwice"},
        "not_probes": {"()": "domino_site.log.NotProbes"},
    },
    "formatters": {
        "request": {"format": "%(asctime)s %(levelname)s %(name)s %(request_line)s %(message)s"},
        "json": {"()": "domino_site.log.JsonLines"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": _LINE_FILTERS,
            **({"formatter": "json"} if _JSON_LOGS else {}),
        },
        "requests": {
            "class": "logging.StreamHandler",
            "filters": _LINE_FILTERS,
            "formatter": "json" if _JSON_LOGS else "request",
        },
        # counts them for the operators' page and Prometheus; prints nothing
        "errors": {"class": "monitoring.errors.CountErrors", "level": "ERROR"},
    },
    "loggers": {
        # With JSON lines every logger writes through the root's handler (daphne's
        # logging.basicConfig then adds none); in text, daphne's root handler prints
        # what propagates.
        "games": {
            "handlers": ["errors"] if _JSON_LOGS else ["console", "errors"],
            "level": os.environ.get("GAMES_LOG", "INFO"),
        },
        # The access lines written with JSON lines on (domino.access).
        "domino": {"handlers": ["errors"], "level": "INFO"},
        # The apps that log by module name (deadlines.worker…): printed by a handler of
        # the site's in text too, since `run_worker` has no root handler.
        **{
            name: {"handlers": ["errors"]}
            if _JSON_LOGS
            else {"handlers": ["requests", "errors"], "propagate": False}
            for name in ("deadlines", "league")
        },
        "daphne": {"handlers": ["errors"]},  # printed by daphne's root handler, or JSON's
        # Not propagated: daphne's root handler would print each error a second time.
        "django": {"handlers": ["requests", "errors"], "level": "INFO", "propagate": False},
        # A 4xx is not a server error: daphne's access log shows it already.
        "django.request": {"level": "ERROR", "filters": ["not_probes"]},
        # A websocket closed on an error: the consumer logged it (games/live/consumers.py).
        "daphne.server": {"filters": ["not_twice"]},
    },
    **({"root": {"handlers": ["console"], "level": "INFO"}} if _JSON_LOGS else {}),
}

# Prometheus' scrapes of /metrics carry "Authorization: Bearer <this>"; unset, the
# path is not served (monitoring/middleware.py).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")

# Content-Security-Policy on every response (domino_site/csp.py): scripts by nonce only.
CONTENT_SECURITY_POLICY = {"DIRECTIVES": csp.DIRECTIVES}

# Mail (e-mail confirmations, password resets), configured by one URL (dj-email-url):
# smtp://user:password@host:587/?tls=True, submission://…, console:// (the default:
# printed by the process), file:mail (a file per message in mail/ of the checkout;
# file:///var/mail/domino: a folder anywhere).
EMAIL_URL = os.environ.get("EMAIL_URL", "console://")
_email = dj_email_url.parse(EMAIL_URL)
EMAIL_BACKEND = _email.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = _email["EMAIL_HOST"] or "localhost"
EMAIL_PORT = _email["EMAIL_PORT"] or 25
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"] or ""
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"] or ""
EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
EMAIL_TIMEOUT = _email["EMAIL_TIMEOUT"] or 10
# The file URL's own path (dj-email-url drops its leading slash): relative, in the checkout.
EMAIL_FILE_PATH = str(BASE_DIR / urllib.parse.urlparse(EMAIL_URL).path)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_FROM_EMAIL", "Domino <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# A password reset link works once, for this long (Django's token generator).
PASSWORD_RESET_TIMEOUT = 60 * 60 * 2

# The game clock (bot moves, next hands) runs inside each daphne process.
GAME_CLOCK_ENABLED = env_flag("GAME_CLOCK_ENABLED", True)

# The coach after each hand: deals sampled per decision (games.engine.coach.ITERATIONS);
# fewer make it quicker and coarser (the tests use few: they check the plumbing).
COACH_ITERATIONS = int(os.environ.get("COACH_ITERATIONS", "1000"))
# The share of one core a process's worker gives the coach over time: busy tables end
# many hands a second, and their reviews wait rather than slow the tables down; 0: off.
COACH_SHARE = float(os.environ.get("COACH_SHARE", "0.1"))
# …and none while the process itself is this busy (its CPU, a share of one core, since
# the coach last looked): at saturation every cycle goes to the players' moves.
COACH_BUSY = float(os.environ.get("COACH_BUSY", "0.6"))

# Online play: seconds a forming room waits for people before simulated players complete it.
MATCHMAKING_FILL_SECONDS = int(os.environ.get("MATCHMAKING_FILL_SECONDS", "20"))
# Pools pair people of close ratings, the range widening as they wait (matchmaking.pairing.Window);
# off: first come, first seated (bench/ratings.py compares the waits).
MATCHMAKING_SKILL_PAIRING = env_flag("MATCHMAKING_SKILL_PAIRING", True)
# A stake table that has not filled this long after it opened is cancelled and refunded.
STAKE_FILL_SECONDS = int(os.environ.get("STAKE_FILL_SECONDS", "180"))
# Bots think for a random while (games.constants.BOT_DELAY) times this: the browser
# tests' site sets it low (their players wait on the computer's every move); 1 for people.
BOT_DELAY_SCALE = float(os.environ.get("BOT_DELAY_SCALE", "1"))
# How often the deadline worker looks for due deadlines (a computer's move, a clock),
# in seconds: a deadline is applied up to this late.  The browser tests' site looks
# more often: its computer thinks for a fifth of its while, and a tick was most of that.
DEADLINE_TICK_SECONDS = float(os.environ.get("DEADLINE_TICK_SECONDS", "0.2"))
# Rate limits on sign-up, login and claim (accounts/limits.py); off only for the
# browser tests, whose many players all sign up from 127.0.0.1 within the hour.
RATELIMIT_ENABLE = env_flag("DJANGO_RATELIMIT", True)
