"""Names for simulated players: plausible Italian players' names, never a real account's."""

from __future__ import annotations

import random
from collections.abc import Iterable

from accounts.models import User
from accounts.usernames import username_key

FILLER_NAMES: tuple[str, ...] = (
    "giulia_87", "Marco.Rossi", "tonino1962", "fra_bianchi", "SaraDomino", "luca.ferri",
    "peppe_na", "chiara_b92", "ale.conti", "nonno_gino", "matteo_ricci", "Vale.Esposito",
    "robi_73", "elena.greco", "giorgio.m", "anto_romano", "federica_88", "paolo.colombo",
    "rosy_pa", "Davide_Bruno", "marti.gallo", "enzo1958", "simo_costa", "laura.fontana",
    "gianni_to", "silvia_mancini", "ste.moretti", "carmela61", "nico.barbieri", "ire_lombardi",
    "franco_ba", "Bea.Rinaldi", "max_caruso", "lucia.ferrara", "sandro_ge", "teresa.villa",
    "dario_marini", "ele_sala", "beppe1965", "cate.leone", "andrea_fi", "mari.longo",
    "vincenzo_ct", "anna.gentile", "pino_serra", "rita_vitale", "lollo_95", "gabri.pellegrini",
)  # fmt: skip


def filler_names(count: int, *, rng: random.Random | None = None) -> list[str]:
    """``count`` different names that no account has (case and width folded)."""
    taken = _taken(FILLER_NAMES)
    free = [name for name in FILLER_NAMES if username_key(name) not in taken]
    if len(free) < count:
        raise RuntimeError("not enough free names for simulated players")
    return (rng or random.SystemRandom()).sample(free, count)


def _taken(names: Iterable[str]) -> set[str]:
    keys = [username_key(n) for n in names]
    return set(User.objects.filter(username_key__in=keys).values_list("username_key", flat=True))
