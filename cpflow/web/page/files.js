// Puzzles in: text pasted, a file chosen or dropped (any format cpflow reads, read by the server), or a
// screenshot of the game (`api/import`), shown beside the editor to be checked and fixed before solving.

import { $ } from "./dom.js";
import { loadBoard } from "./session.js";
import { say, showError } from "./status.js";

export async function readText(page, text, name, refused = showError) {
  // The puzzle a text holds, read by the server into the editor; true if it was. What is wrong with it goes to
  // `refused` (the reader's line: `name:line:col: what is wrong`).
  if (!text.trim()) return refused("Paste a puzzle first (or upload a file).");
  const index = Math.max(1, parseInt($("index").value, 10) || 1);
  try {
    const answer = await page.api.job("api/read", { puzzle: text, name, index });
    if (!answer) return;
    showShot(null);
    await loadBoard(page, answer, ["pasted", "link"].includes(name) ? "puzzle" : name);
    say(`Loaded ${name}: ${answer.width}x${answer.height} ${answer.shape}, ${Object.keys(answer.endpoints).length} colours. Press Solve.`);
    return true;
  } catch (error) {
    refused(error.message);
  }
}

async function importShot(page, file) {
  const cap = page.config.limits.max_image_bytes;
  if (file.size > cap) return showError(`${file.name}: larger than this server's limit of ${cap} bytes for a screenshot.`);
  say(`Importing ${file.name}: reading the board, its dots and their colours…`);
  try {
    const answer = await page.api.job(`api/import?name=${encodeURIComponent(file.name)}`, file);
    if (!answer) return;
    showShot(file);
    await loadBoard(page, answer, file.name);
    $("text").value = answer.text;
    const n = Object.keys(answer.endpoints).length;
    const unsure = answer.unsure.length ? ` Unsure of the pipe at ${answer.unsure.length} cell${answer.unsure.length === 1 ? "" : "s"}: left out.` : "";
    const read = `Imported ${file.name}: ${answer.width}x${answer.height}, ${n} colours`;
    if (answer.play.length && page.board.bridges.size) {
      // Play mode does not draw over bridges yet: the board is shown, and the CLI hints on the screenshot itself.
      say(`${read}, ${answer.play.length} cells drawn.${unsure} Drawing on boards with bridges is not supported on this page yet: \`cpflow hint ${file.name}\` gives the next step from the pipes drawn.`, "ok");
      return;
    }
    if (answer.play.length && page.hooks.emit("play", answer.play).includes(true)) {
      // a level half played: its pipes, ready for Hint
      say(`${read}, ${answer.play.length} cells drawn.${unsure} Check it against the screenshot, then press Hint.`, "ok");
      return;
    }
    say(`${read}.${unsure} Check it against the screenshot and fix what is wrong, then press Solve.`, "ok");
  } catch (error) {
    showError(error.message);
  }
}

export function showShot(file) {
  // The screenshot beside the editor while the board is the one read from it.
  const image = $("shot-image");
  if (image.src) URL.revokeObjectURL(image.src);
  image.removeAttribute("src");
  if (file) image.src = URL.createObjectURL(file);
  $("shot-view").hidden = !file;
}

async function loadFile(page, file) {
  // A file chosen or dropped: a picture is a screenshot to import, anything else a puzzle file's text.
  if (isImage(file)) return importShot(page, file);
  const cap = page.config.limits.max_bytes;
  if (file.size > cap) return showError(`${file.name}: larger than this server's limit of ${cap} bytes.`);
  const text = fileText(new Uint8Array(await file.arrayBuffer()));
  $("text").value = text;
  await readText(page, text, file.name);
}

const isImage = (file) => file.type.startsWith("image/") || /\.(png|jpe?g|gif|bmp|webp)$/i.test(file.name);

function dropFiles(page, panel) {
  // Dropping a file anywhere on the page loads it (the editor's panel is outlined while one is dragged).
  const hasFiles = (event) => [...event.dataTransfer.types].includes("Files");
  let depth = 0; // dragenter and dragleave fire for every child crossed
  document.addEventListener("dragenter", (event) => {
    if (hasFiles(event)) panel.classList.toggle("dropping", ++depth > 0);
  });
  document.addEventListener("dragleave", (event) => {
    if (hasFiles(event)) panel.classList.toggle("dropping", --depth > 0);
  });
  document.addEventListener("dragover", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault(); // or the browser opens the file instead of the page
    event.dataTransfer.dropEffect = "copy";
  });
  document.addEventListener("drop", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth = 0;
    panel.classList.remove("dropping");
    const file = event.dataTransfer.files[0];
    if (file) loadFile(page, file);
  });
}

function fileText(bytes) {
  // A file's text. Its first byte that is not UTF-8 is kept as a lone surrogate (U+DC00 + the byte, Python's
  // "surrogateescape"), so that the server finds it where `cpflow solve` would and says the same line.
  const bad = firstBadByte(bytes);
  const decode = (part) => new TextDecoder("utf-8").decode(part);
  if (bad < 0) return decode(bytes);
  return decode(bytes.subarray(0, bad)) + String.fromCharCode(0xdc00 + bytes[bad]) + decode(bytes.subarray(bad + 1));
}

function firstBadByte(bytes) {
  // Where UTF-8 decoding fails first (as Python's decoder reports it), or -1.
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const [size, low, high] = b < 0x80 ? [1] : b < 0xc2 ? [0] : b < 0xe0 ? [2, 0x80, 0xbf] : b === 0xe0 ? [3, 0xa0, 0xbf]
      : b === 0xed ? [3, 0x80, 0x9f] : b < 0xf0 ? [3, 0x80, 0xbf] : b === 0xf0 ? [4, 0x90, 0xbf]
      : b < 0xf4 ? [4, 0x80, 0xbf] : b === 0xf4 ? [4, 0x80, 0x8f] : [0];
    if (size === 0) return i;
    for (let k = 1; k < size; k++) {
      const next = bytes[i + k];
      const [from, to] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (next === undefined || next < from || next > to) return i;
    }
    i += size;
  }
  return -1;
}

export function startFiles(page) {
  $("read").addEventListener("click", () => readText(page, $("text").value, "pasted"));
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    $("file").value = "";
    if (file) await loadFile(page, file);
  });
  $("shot").addEventListener("change", async () => {
    const file = $("shot").files[0];
    $("shot").value = ""; // so that choosing the same file again imports it again
    if (file) await importShot(page, file);
  });
  dropFiles(page, $("edit"));
}
