"""The stake setting and stake sit models move from ``economy`` to this app (the
table's lifecycle lives with the tables); their tables stay as they are."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_deadline_moves_to_its_app"),
        ("economy", "0004_stake_settings_and_sits"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="StakeSetting",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("key", models.CharField(max_length=64, unique=True)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                    ],
                    options={"db_table": "economy_stakesetting"},
                ),
                migrations.CreateModel(
                    name="StakeSit",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("token", models.UUIDField(unique=True)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("table", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="stake_sits", to="games.table")),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="stake_sits", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"db_table": "economy_stakesit"},
                ),
            ],
            database_operations=[],
        ),
    ]
