// Offline search, format filter and story toggle for the action-list pages.
// A classic script (not a module) so that it also runs from file://.
"use strict";

document.documentElement.classList.remove("no-js");

// Full-width digits and letters match their ASCII forms, and every tilde matches 〜.
function normalize(text) {
  return text.normalize("NFKC").toLowerCase().replace(/[~～〜]/g, "〜").replace(/\s+/g, " ");
}

function setUp() {
  const search = document.getElementById("search");
  const filter = document.getElementById("format-filter");
  const toggle = document.getElementById("toggle-lore");
  const count = document.getElementById("result-count");
  const noResults = document.getElementById("no-results");
  if (!search || !filter) {
    return; // the index page has no entries to filter
  }
  const entries = Array.from(document.querySelectorAll(".entry")).map((element) => ({
    element,
    text: normalize(element.textContent),
    formats: element.dataset.formats.split(" "),
  }));

  function apply() {
    const words = normalize(search.value).split(" ").filter(Boolean);
    const format = filter.value;
    let shown = 0;
    for (const entry of entries) {
      const visible =
        (!format || entry.formats.includes(format)) && words.every((word) => entry.text.includes(word));
      entry.element.hidden = !visible;
      shown += visible ? 1 : 0;
    }
    // A heading stays only while something under it is shown.
    for (const group of document.querySelectorAll("#entries section")) {
      group.hidden = !group.querySelector(".entry:not([hidden])");
    }
    noResults.hidden = shown > 0;
    count.textContent = `${shown} / ${entries.length} 件`;
  }

  const requested = new URLSearchParams(window.location.search).get("format");
  if (requested && Array.from(filter.options).some((option) => option.value === requested)) {
    filter.value = requested;
  }
  document.getElementById("tools").addEventListener("submit", (event) => event.preventDefault());
  search.addEventListener("input", apply);
  filter.addEventListener("change", apply);
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-pressed") !== "true";
    toggle.setAttribute("aria-pressed", String(open));
    toggle.textContent = open ? "ストーリーを閉じる" : "ストーリーを開く";
    for (const details of document.querySelectorAll("details.lore")) {
      details.open = open;
    }
  });
  apply();
}

document.addEventListener("DOMContentLoaded", setUp);
