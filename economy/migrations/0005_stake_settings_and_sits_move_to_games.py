"""The stake setting and stake sit models now live in ``games``; their tables stay as
they are (``economy_stakesetting``, ``economy_stakesit``)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("economy", "0004_stake_settings_and_sits"),
        ("games", "0008_stake_settings_and_sits_move_here"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="StakeSit"),
                migrations.DeleteModel(name="StakeSetting"),
            ],
            database_operations=[],
        ),
    ]
