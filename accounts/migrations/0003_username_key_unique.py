"""The folded key becomes the uniqueness (a separate migration: PostgreSQL will
not alter a table with the backfill's trigger events pending)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_username_key")]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=150, unique=True),
        ),
        migrations.RemoveConstraint(model_name="user", name="accounts_user_username_ci_unique"),
        migrations.AlterModelOptions(
            name="user", options={"verbose_name": "user", "verbose_name_plural": "users"}
        ),
    ]
