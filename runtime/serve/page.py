"""The app's one page (app.html, in its kinds lobby, play and replay), for `serve` and the static
play page alike: its words come from the labels file through `say`, as the scripts' do."""

from __future__ import annotations

from blackpoker.runtime.play.labels import labels
from jinja2 import Environment as Pages
from jinja2 import PackageLoader, StrictUndefined, select_autoescape


def app_pages() -> Pages:
    pages = Pages(
        loader=PackageLoader("blackpoker.runtime.serve", "app"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
    )
    pages.globals["say"] = labels().say
    return pages
