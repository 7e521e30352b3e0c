"""The live templates' helpers (``domino_site.jinja2``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import set_script_prefix

from domino_site.jinja2 import url


@pytest.fixture
def root_prefix_after() -> Iterator[None]:
    yield
    set_script_prefix("/")


def test_a_link_in_a_live_region_names_the_tables_address() -> None:
    assert url("game_leave", "abcd2345") == "/t/abcd2345/leave/"
    assert url("game_leave", "wxyz6789") == "/t/wxyz6789/leave/"


@pytest.mark.usefixtures("root_prefix_after")
def test_a_site_mounted_under_a_prefix_links_under_it_though_the_address_was_named_before() -> None:
    assert url("table", "abcd2345") == "/t/abcd2345/"  # remembered at the root first
    set_script_prefix("/domino/")
    assert url("table", "abcd2345") == "/domino/t/abcd2345/"


def test_a_live_templates_globals_are_the_environments_overlaid_with_its_own() -> None:
    """``RegionsEnvironment.make_globals`` gives each template a plain dict: what Jinja2
    promises of its globals still holds (a template's own overlay the environment's,
    and stay that template's), and a render sees them."""
    from domino_site.jinja2 import environment

    env = environment(autoescape=True)
    env.globals["greeting"] = "ciao"
    plain = env.from_string("{{ greeting }} {{ url('table', 'abcd2345') }}")
    own = env.from_string("{{ greeting }}", globals={"greeting": "hello"})
    assert plain.render() == "ciao /t/abcd2345/"
    assert own.render() == "hello"
    assert env.from_string("{{ greeting }}").render() == "ciao"  # the overlay stayed its own
    assert own.render(greeting="hi") == "hi"  # and a render's values come first
