// The app's back end on the static play page (`blackpoker build --play`): the same requests
// as backend_server.js sends to the server, answered in the page by the engine running in
// Pyodide (runtime/serve/offline.py), from this page's own files only: the runtime in
// pyodide/, the engine, its modules and the compiled rule sets in game.zip.
"use strict";

(() => {
  const folder = "/home/pyodide/play"; // where game.zip is unpacked, in Pyodide's file system
  const status = document.getElementById("loading");

  async function start() {
    const base = new URL(".", document.baseURI).href;
    // loadPyodide's own packages (none is loaded) would come from indexURL: the page's folder
    const pyodide = await loadPyodide({ indexURL: `${base}pyodide/`, packages: [] });
    performance.mark("blackpoker:runtime"); // the benchmark reads these marks (docs/benchmarks.md)
    const bundle = await fetch(`${base}game.zip`);
    if (!bundle.ok) throw new Error(`game.zip: ${bundle.status}`);
    pyodide.unpackArchive(await bundle.arrayBuffer(), "zip", { extractDir: folder });
    pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(folder)})`);
    const table = pyodide.runPython(
      `from pathlib import Path\nfrom blackpoker.runtime.serve.offline import Table\nTable(Path(${JSON.stringify(folder)}))`,
    );
    performance.mark("blackpoker:engine");
    if (status) status.hidden = true;
    return table;
  }

  const ready = start();
  ready.catch((error) => {
    if (status) status.textContent = say("app", "engine failed", { error: error.message });
  });

  window.backend = {
    ready,
    replays: false, // no replay viewer here: a game's log is saved, and `blackpoker replay` or serve's viewer opens it

    async request(path, options) {
      const table = await ready;
      const method = (options && options.method) || "GET";
      const body = options && options.body !== undefined ? String(options.body) : null;
      const answer = table.answer(method, path, body);
      const [code, text] = answer.toJs();
      answer.destroy();
      const data = JSON.parse(text);
      if (code >= 400) throw new Error(data.error);
      return data;
    },

    // A seat's page is the same document: the lobby gives way to the table; a rematch's
    // table takes the place of the finished one's.
    open(path) {
      const body = document.body;
      const playing = body.dataset.kind === "play";
      body.dataset.kind = "play";
      body.dataset.key = path.slice(path.lastIndexOf("/") + 1);
      document.querySelector("main.lobby").hidden = true;
      document.querySelector("main.table").hidden = false;
      if (!playing) startPage();
      else {
        key = body.dataset.key;
        loadTrumps(`/api/seat/${key}/trumps`).then(refresh);
      }
    },
  };
})();
