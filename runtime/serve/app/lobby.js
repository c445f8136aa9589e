// The lobby's choice of rules: edition, format (the extra format and its list included), and a
// regulation's frame and options, as the terminal's `blackpoker play --regulation` takes them.
// Everything offered comes from /api/lobby; the server checks the choice again.
"use strict";

// Fills the form's edition and format lists and adds the extra list and regulation choices
// (with deck files for a frame whose players bring them); returns an async function giving
// the request's fields for them ({extra}, or {regulation, decks}).
function offerChoices(form, lobby) {
  const option = (value, text) => {
    const node = document.createElement("option");
    node.value = value;
    node.textContent = text;
    return node;
  };
  const labelled = (text, control) => {
    const label = document.createElement("label");
    label.append(`${text} `, control);
    return label;
  };
  const extra = document.createElement("select");
  extra.name = "extra";
  const regulation = document.createElement("select");
  regulation.name = "regulation";
  const options = document.createElement("fieldset");
  options.className = "regulation-options";
  const extraLabel = labelled(say("app", "extra list"), extra);
  const regulationLabel = labelled(say("app", "regulation"), regulation);
  // a frame whose players bring their decks: yours and the agent's deck files (`--deck`)
  const deckInput = (name) => {
    const input = document.createElement("input");
    input.type = "file";
    input.name = name;
    input.multiple = true;
    input.accept = ".yaml,.yml";
    return input;
  };
  const mine = deckInput("my-decks");
  const theirs = deckInput("their-decks");
  const deckLabels = [labelled(say("app", "my deck"), mine), labelled(say("app", "their deck"), theirs)];
  form.format.closest("label").after(extraLabel, regulationLabel, options, ...deckLabels);

  if (lobby.house) {
    // a server started with a local rule plays it only, under the name it gives its format
    const note = document.getElementById("local-rules");
    const format = lobby.house.format;
    note.textContent = say("app", "house rules", { rules: lobby.rules, format: format.name });
    note.hidden = false;
    form.edition.replaceChildren(option(lobby.defaults.edition, lobby.house.edition));
    form.format.replaceChildren(option(format.id, format.name));
    form.edition.disabled = form.format.disabled = true;
    extraLabel.hidden = regulationLabel.hidden = options.hidden = true;
    for (const label of deckLabels) label.hidden = true;
    return () => ({});
  }

  const editions = new Map(lobby.editions.map((edition) => [edition.id, edition]));
  form.edition.replaceChildren(...lobby.editions.map((e) => option(e.id, e.name)));
  if (editions.has(lobby.defaults.edition)) form.edition.value = lobby.defaults.edition;
  const current = () => editions.get(form.edition.value);

  const frame = () => {
    const regulations = current().regulations;
    return regulations && regulations.frames.find((f) => f.id === regulation.value);
  };
  const showOptions = () => {
    const chosen = frame();
    for (const label of deckLabels) {
      label.hidden = !chosen || !chosen.decks;
      label.title = chosen && chosen.decks ? say("app", "decks each", { count: chosen.decks }) : "";
    }
    const regulations = current().regulations;
    options.replaceChildren();
    options.hidden = !regulation.value || !regulations || !regulations.options.length;
    if (options.hidden) return;
    const legend = document.createElement("legend");
    legend.textContent = say("app", "options");
    options.append(legend);
    for (const choice of regulations.options) {
      const box = document.createElement("input");
      box.type = "checkbox";
      box.name = "regulation-option";
      box.value = choice.id;
      options.append(labelled(choice.name, box));
    }
  };
  const showFrames = () => {
    const edition = current();
    const format = form.format.value;
    const isExtra = format === edition.extra_format;
    extra.replaceChildren(...(isExtra ? edition.extras : []).map((id) => option(id, id)));
    extraLabel.hidden = !isExtra;
    const frames = edition.regulations && !isExtra
      ? edition.regulations.frames.filter((frame) => frame.formats === null || frame.formats.includes(format))
      : [];
    regulation.replaceChildren(option("", say("app", "no regulation")), ...frames.map((frame) => option(frame.id, frame.name)));
    regulationLabel.hidden = !frames.length;
    regulationLabel.title = edition.regulations ? edition.regulations.title : "";
    showOptions();
  };
  const showFormats = () => {
    form.format.replaceChildren(...current().formats.map((f) => option(f.id, f.name))); // ids are values only
    if (current().formats.some((f) => f.id === lobby.defaults.format)) form.format.value = lobby.defaults.format;
    showFrames();
  };
  form.edition.addEventListener("change", showFormats);
  form.format.addEventListener("change", showFrames);
  regulation.addEventListener("change", showOptions);
  showFormats();

  // the request's fields (a promise: deck files are read)
  return async () => {
    if (!extraLabel.hidden && extra.value) return { extra: extra.value };
    if (!regulation.value) return {};
    const chosen = [...options.querySelectorAll("input:checked")].map((box) => box.value);
    const fields = { regulation: [regulation.value, ...chosen].join("+") };
    if (!deckLabels[0].hidden) {
      const read = async (input) => Promise.all([...input.files].map((file) => file.text()));
      const seat = form.seat.value;
      const other = seat === "p1" ? "p2" : "p1";
      fields.decks = { [seat]: await read(mine), [other]: await read(theirs) };
    }
    return fields;
  };
}
