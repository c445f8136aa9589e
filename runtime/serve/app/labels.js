// The words the app writes itself. The server puts the labels file the terminal and its own
// responses read (runtime/play/labels.json) above this script as LABELS: no word is kept here.
"use strict";

// The text of `key` in the labels' `section`, its {fields} filled from `values`.
function say(section, key, values) {
  return LABELS[section][key].replace(/\{([^{}]+)\}/g, (_, name) => String(values[name]));
}
