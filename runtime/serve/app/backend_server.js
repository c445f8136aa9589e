// The app's back end when `blackpoker serve` serves it: each request goes to the server.
// app.js asks its back end for the API's answers (request) and to show a page of the app
// (open); the static play page's back end (backend_pyodide.js) answers the same requests.
"use strict";

window.backend = {
  ready: Promise.resolve(),
  replays: true, // the server has the replay viewer a finished game's log opens in

  async request(path, options) {
    const response = await fetch(path, options);
    const type = response.headers.get("Content-Type") || "";
    const data = type.startsWith("application/json") ? await response.json() : await response.text();
    if (!response.ok) throw new Error(typeof data === "object" && data.error ? data.error : String(data));
    return data;
  },

  open(path) {
    window.location.assign(path);
  },
};
