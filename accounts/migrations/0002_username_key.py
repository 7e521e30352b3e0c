"""Usernames get a NFKC + case-folded key; existing rows are backfilled.

Names that collide once folded (possible on SQLite, whose lower() folds ASCII
only: "Élodie" and "élodie") keep the oldest account's name; each later one is
renamed "<name>-<id>" so that both accounts survive and stay distinct."""

import unicodedata

from django.db import migrations, models


def _key(username):
    clean = unicodedata.normalize("NFKC", username).strip()
    return unicodedata.normalize("NFKC", clean.casefold())


def backfill(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    seen = set()
    for user in User.objects.order_by("pk").only("pk", "username"):
        key = _key(user.username)
        if key in seen:
            user.username = f"{user.username}-{user.pk}"
            key = _key(user.username)
        seen.add(key)
        User.objects.filter(pk=user.pk).update(username=user.username, username_key=key)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=150, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
