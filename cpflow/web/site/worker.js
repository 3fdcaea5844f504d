// The worker behind window.cpflow (cpflow.js), a module worker: starts Pyodide (its pyodide.mjs), unpacks cpflow's
// pure-Python files (cpflow.zip) and imports cpflow.web.browser, then answers each call with what that module's
// function of the name returns (JSON text). It says how far the start has come as it goes, in three named steps
// ({progress, stage}, and `to` with `expect` seconds for a step whose progress cannot be measured, which cpflow.js moves
// on while this worker is busy): downloading the runtime (its WebAssembly, standard library and loader, byte by byte,
// into the browser's cache, where Pyodide then finds them), starting Python, loading cpflow; then {ready} or {failed}.

let browser = null;

const progress = (fraction, stage, to, expect) => postMessage({ progress: fraction, stage, to, expect });
const DOWNLOADED = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"]; // what Pyodide fetches as it starts
const STEPS = ["Step 1 of 3: downloading the runtime…", "Step 2 of 3: starting Python…", "Step 3 of 3: loading cpflow…"];

async function start({ runtime, base }) {
  progress(0, STEPS[0]);
  try {
    await fetched(DOWNLOADED.map((name) => `${runtime}${name}`), 0, 0.45);
  } catch (error) {
    const from = new URL(runtime).host;
    throw new Error(`the Python runtime did not load from ${from} (${error.message}): check the connection, then reload the page`);
  }
  progress(0.45, STEPS[1], 0.85, 5);
  const { loadPyodide } = await import(`${runtime}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: runtime, convertNullToNone: true });
  progress(0.85, STEPS[2], 0.99, 3);
  const zip = await fetch(`${base}cpflow.zip`);
  if (!zip.ok) throw new Error(`cpflow.zip: the site answered ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/home/pyodide/site" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/site')");
  browser = pyodide.pyimport("cpflow.web.browser");
  browser.warm();
  progress(1, "Ready");
}

async function fetched(urls, from, to) {
  // The files read through together, the bar moving from `from` to `to` as their bytes arrive (those whose size is
  // known: a CDN's compressed answer may give none).
  const answers = await Promise.all(urls.map((url) => fetch(url)));
  const failed = answers.findIndex((answer) => !answer.ok);
  if (failed >= 0) throw new Error(`${urls[failed].split("/").pop()}: answered ${answers[failed].status}`);
  const size = answers.reduce((sum, answer) => sum + (Number(answer.headers.get("Content-Length")) || 0), 0);
  let seen = 0;
  let last = 0;
  const mb = (bytes) => Math.round(bytes / 1e6);
  await Promise.all(
    answers.map(async (answer) => {
      if (!answer.body) return;
      const reader = answer.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        seen += value.length;
        if (size && seen - last > size / 50) {
          last = seen;
          progress(from + ((to - from) * Math.min(seen, size)) / size, `${STEPS[0]} ${mb(seen)} of ${mb(size)} MB`);
        }
      }
    }),
  );
}

onmessage = async ({ data }) => {
  if (data.start) {
    try {
      await start(data.start);
      postMessage({ ready: true });
    } catch (error) {
      postMessage({ failed: String(error.message || error) });
    }
    return;
  }
  try {
    postMessage({ id: data.id, answer: browser[data.call](...data.args) });
  } catch (error) {
    postMessage({ id: data.id, error: String(error.message || error) });
  }
};
