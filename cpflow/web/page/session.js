// The page's state, in one object (`page`) that every part is handed: the board being edited, the name
// downloads take, the keyboard's cursor, the answer on display, the layout the server gave for the board,
// and the board's text as the server last wrote it (kept in the page's address after `#p=`, with the play drawn on it
// after `&d=`: link.js).

import { createApi } from "./api.js";
import { emptyBoard, fromRead, problems, record } from "./board.js";
import { $ } from "./dom.js";
import { drawEditor } from "./draw.js";
import { createHooks } from "./hooks.js";
import { Layout } from "./layout.js";
import { linkOf } from "./link.js";
import { say, showError } from "./status.js";

const BUSY = ["solve", "unique", "count", "fix", "generate", "shot"]; // the buttons that start a job

export function createPage(config) {
  return {
    config,
    names: config.palette.map(([name]) => name), // the colour names new endpoints take, in order
    palette: Object.fromEntries(config.palette),
    board: emptyBoard(5, 5, "square"),
    named: "puzzle", // what downloads are called: the file or screenshot the board was read from
    cursor: [0, 0],
    shown: { solutions: [], picture: false }, // the solutions on display, for the downloads
    layout: null, // the server's layout of the board's shape and size (`Layout`)
    layouts: new Map(), // those already asked for, by shape and size
    sketch: { version: 0, text: Promise.resolve(null) }, // the board's text, once the server has written it
    drawing: "", // the play drawn on it, as the address holds it after the puzzle (link.js, `drawingOf`)
    hooks: createHooks(),
    api: createApi((on) => {
      for (const id of BUSY) $(id).disabled = on;
      document.body.classList.toggle("busy", on);
    }),
  };
}

export const written = (page) => page.sketch.text; // a promise of the board's text (null if the server refused it)

export function changed(page, clearAnswer = true) {
  // The board was edited or replaced: what was asked about the old one goes, and the server writes the new one.
  page.hooks.emit("changed");
  if (clearAnswer && page.api.abort()) say("Stopped: the board changed."); // the server stops the job
  if (clearAnswer && (page.shown.picture || $("result").childElementCount)) {
    resetAnswer(page);
    say("The board changed: ask again for a new answer.");
  }
  const { board } = page;
  const size = `${board.shape} ${board.width}x${board.height}`;
  page.layout = page.layouts.get(size) || null; // none yet: the editor is drawn when the server's arrives
  drawEditor(page);
  return sketch(page, size);
}

function sketch(page, size) {
  // Ask the server for the board's text (and its layout, when the shape or size is new to the page).
  const version = ++page.sketch.version;
  const { board } = page;
  document.body.dataset.writing = "true";
  page.sketch.text = page.api
    .sketch({ ...record(board), geometry: !page.layout })
    .then((answer) => {
      if (answer.geometry) page.layouts.set(size, new Layout(answer.geometry, board));
      if (version !== page.sketch.version) return answer.text; // a later edit writes the address
      if (!page.layout) {
        page.layout = page.layouts.get(size);
        drawEditor(page);
      }
      const address = addressOf(board, answer.text, page.drawing);
      if (address !== null) history.replaceState(null, "", address);
      return answer.text;
    })
    .catch((error) => {
      showError(error.message);
      return null;
    })
    .finally(() => {
      if (version === page.sketch.version) delete document.body.dataset.writing;
    });
  return page.sketch.text;
}

function addressOf(board, text, drawing) {
  // The page's address for the board: its link while it is a puzzle (link.js), with the play drawn on it; the bare
  // address while it has no pair (blank, or a new board); unchanged (null) while a pair waits for its second endpoint,
  // so that a reload opens the board as it was before that endpoint rather than a link the reader refuses.
  if (!problems(board)) return linkOf(text, drawing);
  return board.ends.length ? null : location.pathname + location.search;
}

export function showDrawing(page, drawing) {
  // The play drawn on the board changed: the address keeps it after the puzzle's link (`drawing`, from link.js's
  // `drawingOf`), so that a reload opens the puzzle in Play with it. An address naming no puzzle is left as it is.
  page.drawing = drawing;
  const puzzle = location.hash.match(/^#p=[^&]*/);
  if (puzzle) history.replaceState(null, "", location.pathname + location.search + puzzle[0] + drawing);
}

export function setBoard(page, board, name = "puzzle") {
  // A board of its own (made anew, cleared) in the editor; settles once the server has laid it out.
  page.board = board;
  page.named = fileStem(name);
  page.cursor = [0, 0];
  syncSize(page);
  return changed(page);
}

export async function loadBoard(page, answer, name) {
  // A board the server read (a file, a screenshot, a generated or fixed puzzle) into the editor, replacing the
  // last; settles once it is drawn.
  page.board = fromRead(answer, page.names);
  page.named = fileStem(name);
  page.cursor = [0, 0];
  syncSize(page);
  resetAnswer(page);
  await changed(page, false);
}

export function resetAnswer(page) {
  $("result").replaceChildren();
  delete $("result").dataset.kind;
  page.shown = { solutions: [], picture: false };
  $("get-solution").disabled = true;
}

export function readSize(page) {
  // The size and shape asked for in the form, or null (the error shown) when the server's caps refuse it.
  const width = parseInt($("width").value, 10);
  const height = parseInt($("height").value, 10);
  const { max_side: side, max_cells: cells } = page.config.limits;
  if (!(width >= 2 && height >= 2 && width <= side && height <= side && width * height <= cells)) {
    showError(`A board is 2 to ${side} cells a side and ${cells} cells at most; ${$("width").value}x${$("height").value} is not.`);
    return null;
  }
  return { width, height, shape: $("shape").value };
}

function syncSize(page) {
  $("width").value = page.board.width;
  $("height").value = page.board.height;
  $("shape").value = page.board.shape;
}

function fileStem(name) {
  // A file's name without its folder and extension, in characters any system takes ("puzzle" when none is left).
  const stem = name.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "").replace(/[^\p{L}\p{N}_.-]+/gu, "_").slice(0, 100);
  return stem.replace(/^[._]+/, "") || "puzzle";
}
