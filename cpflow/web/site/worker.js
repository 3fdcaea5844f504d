// The worker behind window.cpflow (cpflow.js), a module worker: starts Pyodide (its pyodide.mjs), unpacks cpflow's pure-Python files (cpflow.zip)
// and imports cpflow.web.browser, then answers each call with what that module's function of the name returns
// (JSON text). It says how far the start has come as it goes ({progress, stage}), then {ready} or {failed}.

let browser = null;

const progress = (fraction, stage) => postMessage({ progress: fraction, stage });

async function start({ runtime, base }) {
  progress(0.05, "Loading the Python runtime…");
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
