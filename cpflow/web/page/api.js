// The JSON API's client. A job (solve, unique, count, hint, fix, generate, render, read, import) is one at
// a time: starting one aborts the one under way, whose answer nobody waits for any more (the server
// stops it), and `onBusy` hears when one starts and ends. A sketch (`api/board`: the board's text and
// layout) is answered at once and never aborts a job. On the static site, cpflow's Python in the browser
// answers instead of a server (local.js).

import { inBrowser, send as local } from "./local.js";

export function createApi(onBusy) {
  let inFlight = null; // the job under way

  async function send(path, body, as, signal) {
    // `body` is an object sent as JSON, or a Blob (a screenshot) sent as its bytes.
    if (inBrowser) return local(path, body, as, signal);
    const raw = body instanceof Blob;
    // The server takes JSON, or an image's bytes as an image type or application/octet-stream: types a page of
    // another site cannot send without asking first.
    const type = raw ? (body.type.startsWith("image/") ? body.type : "application/octet-stream") : "application/json";
    try {
      const response = await fetch(path, { method: "POST", headers: { "Content-Type": type }, body: raw ? body : JSON.stringify(body), signal });
      if (!response.ok) {
        let message = `The server answered ${response.status}.`;
        try {
          message = (await response.json()).error || message;
        } catch (_) {}
        throw new Error(message);
      }
      return as === "json" ? await response.json() : await response.blob();
    } catch (error) {
      if (error.name === "AbortError") return null;
      if (error instanceof TypeError) throw new Error(`Cannot reach the server (${error.message}).`);
      throw error;
    }
  }

  return {
    async job(path, body, as = "json") {
      // The answer (null when another job or an edit aborted it); an Error with the server's line when it fails.
      if (inFlight) inFlight.abort();
      const request = new AbortController();
      inFlight = request;
      onBusy(true);
      try {
        return await send(path, body, as, request.signal);
      } finally {
        if (inFlight === request) {
          inFlight = null;
          onBusy(false);
        }
      }
    },
    sketch(body) {
      return send("api/board", body, "json");
    },
    abort() {
      // Stop the job under way; true if there was one.
      if (!inFlight) return false;
      inFlight.abort();
      return true;
    },
  };
}
