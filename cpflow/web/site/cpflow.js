// window.cpflow: cpflow in the browser, with no server (the static site `cpflow site` writes). Python runs in
// a worker (worker.js: Pyodide, then cpflow's pure-Python files), so that a long solve never freezes the page.
//
//   await cpflow.ready;                       // settles once the runtime is up (rejects if it cannot load)
//   await cpflow.solve(text)                  // the record `cpflow solve --format json` prints
//   await cpflow.hint(text, play)             // `cpflow hint --format json` (play: the board as drawn, or null)
//   await cpflow.unique(text)                 // `cpflow unique --format json`
//   await cpflow.verify(text, solution)       // {valid, mistakes: [{cell, line}]} (solution null: the file's own)
//   cpflow.onProgress((fraction, stage) => …) // how far the runtime's start is, in named steps (heard at least
//                                             // every TICK ms while a step works: its seconds so far)
//
// A puzzle is the text of a file in any format cpflow reads. Bad input rejects with an Error whose message is the
// one line `cpflow` prints (`puzzle:3:5: row has 4 cells, the first row has 5`). Calls run one after another.

const RUNTIME = new URL("__RUNTIME__", import.meta.url).href; // Pyodide's files: the site's own copy, or its CDN
const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
const waiting = new Map(); // call number -> its promise's settle functions
const listeners = new Set();
let calls = 0;
let progress = [0, "Step 1 of 3: downloading the runtime…"];
let ticking = null; // the timer that moves a step on whose progress the worker cannot measure
const TICK = 250; // ms

function report(fraction, stage) {
  progress = [fraction, stage];
  for (const listener of listeners) listener(...progress);
}

function stepped({ progress: from, stage, to, expect }) {
  // A step begun (or a measured part of one): the bar where the worker says; for a step it cannot measure (starting
  // Python, which holds the worker's thread), moving on from here towards `to` (near it after some `expect` seconds,
  // never at it) with the step's seconds so far, until the worker says more.
  clearInterval(ticking);
  report(from, stage);
  if (to === undefined) return;
  const began = performance.now();
  ticking = setInterval(() => {
    const seconds = (performance.now() - began) / 1000;
    report(from + (to - from) * (1 - Math.exp(-seconds / expect)), `${stage} ${Math.floor(seconds)} s`);
  }, TICK);
}

const ready = new Promise((resolve, reject) => {
  worker.onmessage = ({ data }) => {
    if (data.progress !== undefined) stepped(data);
    else if (data.ready) resolve();
    else if (data.failed) reject(new Error(`cpflow could not start in this browser: ${data.failed}`));
    else settle(data);
  };
  worker.onerror = (event) => reject(new Error(`cpflow could not start in this browser: ${event.message}`));
});
ready.finally(() => clearInterval(ticking)).catch(() => {});
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
