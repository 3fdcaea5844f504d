// The worker behind window.cpflow (cpflow.js), a module worker: starts Pyodide (its pyodide.mjs), unpacks cpflow's
// pure-Python files (cpflow.zip) and imports cpflow.web.browser, then answers each call with what that module's
// function of the name returns (JSON text). It says how far the start has come as it goes ({progress, stage}: the
// runtime's WebAssembly fetched first, byte by byte, into the browser's cache, where Pyodide then finds it), then
// {ready} or {failed}.

let browser = null;

const progress = (fraction, stage) => postMessage({ progress: fraction, stage });

async function start({ runtime, base }) {
  progress(0.02, "Loading the Python runtime…");
  try {
    await fetched(`${runtime}pyodide.asm.wasm`, 0.02, 0.5);
  } catch (error) {
    const from = new URL(runtime).host;
    throw new Error(`the Python runtime did not load from ${from} (${error.message}): check the connection, then reload the page`);
  }
  progress(0.5, "Starting the Python runtime…");
  const { loadPyodide } = await import(`${runtime}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: runtime, convertNullToNone: true });
  progress(0.7, "Loading cpflow…");
  const zip = await fetch(`${base}cpflow.zip`);
  if (!zip.ok) throw new Error(`cpflow.zip: the site answered ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/home/pyodide/site" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/site')");
  progress(0.85, "Starting cpflow…");
  browser = pyodide.pyimport("cpflow.web.browser");
  browser.warm();
  progress(1, "Ready");
}

async function fetched(url, from, to) {
  // The file read through, the bar moving from `from` to `to` as its bytes arrive (when its size is known).
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`${url.split("/").pop()}: answered ${answer.status}`);
  const size = Number(answer.headers.get("Content-Length")) || 0;
  if (!answer.body || !size) return;
  const reader = answer.body.getReader();
  for (let seen = 0, last = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) return;
    seen += value.length;
    if (seen - last > size / 50) {
      last = seen;
      progress(from + ((to - from) * seen) / size, `Loading the Python runtime… ${Math.round(seen / 1e6)} of ${Math.round(size / 1e6)} MB`);
    }
  }
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
