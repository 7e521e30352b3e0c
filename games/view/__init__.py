"""What a viewer sees of a table, without Django: the view and its parts, the
drawing of tiles, presets, bot names, errors, the regions and the template globals.
The offline game ships this package to the browser as it is."""
