"""Help texts of options several commands share."""

EDITION_HELP = "Edition: a built-in id (v7) or the path of an edition file."
