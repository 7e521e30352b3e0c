"""How the apps depend on each other, read from their imports: ``domino_site`` is the
wiring only (no app imports it), no app imports another's private names, and the
apps underneath (players, time-based work) know nothing of the apps built on them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "accounts",
    "deadlines",
    "economy",
    "games",
    "league",
    "matchmaking",
    "privacy",
    "realtime",
    "overrides",
    "monitoring",
)


def imports(app: str) -> Iterator[tuple[str, str, str]]:
    """(file, module imported, name imported or "") for every import of ``app``'s code."""
    for source in sorted((ROOT / app).rglob("*.py")):
        if "migrations" in source.parts:
            continue
        where = str(source.relative_to(ROOT))
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield where, alias.name, ""
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    yield where, node.module, alias.name


def test_no_app_imports_the_wiring() -> None:
    found = [
        (where, module)
        for app in APPS
        for where, module, _name in imports(app)
        if module.split(".")[0] == "domino_site"
    ]
    assert found == []


def test_no_app_imports_another_apps_private_names() -> None:
    found = [
        (where, f"{module}.{name}")
        for app in APPS
        for where, module, name in imports(app)
        if module.split(".")[0] in APPS
        and module.split(".")[0] != app
        and (name.startswith("_") or any(part.startswith("_") for part in module.split(".")))
    ]
    assert found == []


def test_players_and_time_based_work_know_nothing_of_the_apps_built_on_them() -> None:
    """A player's record comes from where the games are (its template tag), and each app
    registers its own kinds of deadline."""
    above = {"games", "economy", "league", "matchmaking"}
    found = [
        (where, module)
        for app in ("accounts", "deadlines")
        for where, module, _name in imports(app)
        if module.split(".")[0] in above
    ]
    assert found == []


def test_the_tables_know_nothing_of_coins_or_matchmaking() -> None:
    """Stake tables pay through the escrow economy registers (``games.hooks.escrow``), the end
    screen reads what was paid through ``games.hooks.payouts``, and matchmaking seats people
    through the tables' services: games imports neither app."""
    found = [
        (where, module)
        for where, module, _name in imports("games")
        if module.split(".")[0] in {"economy", "matchmaking", "league"}
    ]
    assert found == []


def test_nothing_imports_the_players_say_over_their_data() -> None:
    """``privacy`` (export, deletion) reads and writes through every other app: it sits
    above them all, so none of them imports it."""
    found = [
        (where, module)
        for app in APPS
        if app != "privacy"
        for where, module, _name in imports(app)
        if module.split(".")[0] == "privacy"
    ]
    assert found == []
