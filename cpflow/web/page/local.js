// The page's other back end: on the static site (`cpflow site`, whose config says `"backend": "browser"`) no server
// answers, and cpflow's Python in the browser does (window.cpflow, the site's cpflow.js), with the records the JSON API
// answers. api.js sends here instead of `fetch`. While the runtime loads, a progress bar shows under the buttons, and
// the blank board the page opens with is drawn at once from what the site wrote for it (blank.json).

import { $ } from "./dom.js";

export const inBrowser = JSON.parse($("config").textContent).backend === "browser";
if (inBrowser) document.querySelector('a[href="docs"]')?.parentElement.remove(); // no JSON API here

let site = null; // window.cpflow, once its loader is imported
let blank = null; // the blank boards' sketches, by "shape WxH"

function cpflow() {
  if (!site) {
    site = import("./cpflow.js").then(() => {
      showLoading(window.cpflow);
      return window.cpflow;
    });
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});
  }
  return site;
}

export async function send(path, body, as, signal) {
  // The answer the server would give (a record, or a Blob for a picture); an Error with its line when it fails.
  if (body instanceof Blob) {
    throw new Error("Importing a screenshot needs OpenCV, which this page does not load in the browser: use `cpflow import SHOT` or `cpflow serve`.");
  }
  const early = path === "api/board" && (await blankSketch(body));
  if (early) return early;
  const python = await cpflow();
  const png = path === "api/render" && body.picture === "png";
  const answer = await python.answer(path, png ? { ...body, picture: "svg" } : body);
  if (signal?.aborted) return null; // another job or an edit took its place (the answer was still worked out)
  if (as === "json") return answer;
  const svg = new Blob([answer.text], { type: "image/svg+xml" });
  return png ? pngOf(svg) : svg;
}

async function blankSketch(body) {
  // A blank board's text and layout, before the runtime is up; null for any other board, or once it is up.
  const empty = !Object.keys(body.endpoints || {}).length && ["holes", "bridges", "walls", "warps", "drawn"].every((key) => !(body[key] || []).length);
  if (!empty || (site && window.cpflow)) return null;
  blank ??= fetch("blank.json").then((answer) => (answer.ok ? answer.json() : {}), () => ({}));
  const known = (await blank)[`${body.shape || "square"} ${body.width}x${body.height}`];
  cpflow(); // the runtime starts loading meanwhile
  return known ? { text: known.text, ...(body.geometry ? { geometry: known.geometry } : {}) } : null;
}

function showLoading(python) {
  // A progress bar under the board's buttons until the runtime is up; then it goes (or says why it cannot start).
  const bar = document.createElement("div");
  bar.id = "runtime";
  bar.setAttribute("role", "status");
  const meter = document.createElement("progress");
  meter.max = 1;
  const stage = document.createElement("span");
  bar.append(meter, " ", stage);
  $("status").before(bar);
  const stop = python.onProgress((fraction, said) => {
    meter.value = fraction;
    stage.textContent = said;
  });
  python.ready.then(
    () => {
      stop();
      bar.remove();
      document.body.dataset.python = "ready";
    },
    (error) => {
      stop();
      stage.textContent = error.message;
      meter.remove();
    },
  );
}

async function pngOf(svg) {
  // The picture as PNG, drawn from its SVG by the browser (Pillow, which the server draws PNGs with, is not here).
  const image = new Image();
  image.src = URL.createObjectURL(svg);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth * 2;
  canvas.height = image.naturalHeight * 2;
  canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
  URL.revokeObjectURL(image.src);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}
