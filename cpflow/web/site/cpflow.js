// window.cpflow: cpflow in the browser, with no server (the static site `cpflow site` writes). Python runs in
// a worker (worker.js: Pyodide, then cpflow's pure-Python files), so that a long solve never freezes the page.
//
//   await cpflow.ready;                       // settles once the runtime is up (rejects if it cannot load)
//   await cpflow.solve(text)                  // the record `cpflow solve --format json` prints
//   await cpflow.hint(text, play)             // `cpflow hint --format json` (play: the board as drawn, or null)
//   await cpflow.unique(text)                 // `cpflow unique --format json`
//   await cpflow.verify(text, solution)       // {valid, mistakes: [{cell, line}]} (solution null: the file's own)
//   cpflow.onProgress((fraction, stage) => …) // how far the runtime's loading is
//
// A puzzle is the text of a file in any format cpflow reads. Bad input rejects with an Error whose message is the
// one line `cpflow` prints (`puzzle:3:5: row has 4 cells, the first row has 5`). Calls run one after another.

const RUNTIME = new URL("__RUNTIME__", import.meta.url).href; // Pyodide's files: the site's own copy, or its CDN
const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
const waiting = new Map(); // call number -> its promise's settle functions
const listeners = new Set();
let calls = 0;
let progress = [0, "Loading Python…"];

const ready = new Promise((resolve, reject) => {
  worker.onmessage = ({ data }) => {
    if (data.progress !== undefined) {
      progress = [data.progress, data.stage];
      for (const listener of listeners) listener(...progress);
    } else if (data.ready) resolve();
    else if (data.failed) reject(new Error(`cpflow could not start in this browser: ${data.failed}`));
    else settle(data);
  };
  worker.onerror = (event) => reject(new Error(`cpflow could not start in this browser: ${event.message}`));
});
worker.postMessage({ start: { runtime: RUNTIME, base: new URL(".", import.meta.url).href } });

function settle({ id, answer, error }) {
  const { resolve, reject } = waiting.get(id);
  waiting.delete(id);
  if (error) return reject(new Error(`internal error: ${error}`));
  const said = JSON.parse(answer);
  if ("ok" in said) return resolve(said.ok);
  const failure = new Error(said.error);
  failure.status = said.status;
  reject(failure);
}

async function call(name, ...args) {
  await ready;
  return new Promise((resolve, reject) => {
    const id = ++calls;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, call: name, args });
  });
}

window.cpflow = {
  ready,
  solve: (text) => call("solve", text),
  hint: (text, play = null) => call("hint", text, play),
  unique: (text) => call("unique", text),
  verify: (text, solution = null) => call("verify", text, solution),
  // What the page asks `cpflow serve` for (`api/solve` and its request), answered here instead.
  answer: (path, request) => call("answer", path, JSON.stringify(request)),
  onProgress(listener) {
    listeners.add(listener);
    listener(...progress);
    return () => listeners.delete(listener);
  },
};
