// cpflow's page: an editor for the board, and the server's answers about it. This module starts the parts,
// each of which has one job and is handed the page's state (`session.js`: one object, no globals):
//   board.js the board as edited · layout.js where the server draws its cells · draw.js drawing the editor
//   edit.js the tools, the pointer and the keyboard · api.js the JSON API's client · status.js the status line
//   answers.js Solve, Unique?, Count, Fix · generate.js Generate · options.js the Options panel
//   files.js puzzles and screenshots in · downloads.js files and links out · play.js Play mode and hints
//   passages.js where a path may go · keep.js what a reload keeps of a play besides its drawing
//   levels.js the levels to play (levels.json, the project's own puzzles)
//   link.js the puzzle in the page's address (`#p=`, what Share copies), and the play drawn on it (`&d=`)
//   hooks.js what Play registers to hear of drawing, changes and answers.
// The board's text and its layout come from the server (`api/board`), which writes and lays out boards as
// the CLI does: the page copies neither. The address holds the puzzle after `#p=` and the play after `&d=` (link.js),
// so a link opens it in Play, and a reload goes on with the drawing.
// Everything runs from these files: the server's Content-Security-Policy allows no inline script or style.

import { ask, fix } from "./answers.js";
import { emptyBoard } from "./board.js";
import { $ } from "./dom.js";
import { startDownloads } from "./downloads.js";
import { redrawOnResize } from "./draw.js";
import { startEditing } from "./edit.js";
import { readText, showShot, startFiles } from "./files.js";
import { startGenerate } from "./generate.js";
import { startLevels } from "./levels.js";
import { drawnIn, puzzleIn } from "./link.js";
import { startOptions } from "./options.js";
import { startPlay } from "./play.js";
import { createPage, readSize, setBoard } from "./session.js";
import { say, showError } from "./status.js";

async function start() {
  const page = createPage(JSON.parse($("config").textContent));
  startOptions(page.config);
  startEditing(page, (kind) => ask(page, kind));
  redrawOnResize(page);
  startPlay(page);
  startGenerate(page);
  startFiles(page);
  startDownloads(page);
  const levels = startLevels(page);
  // The editor's tools: open beside the board on a wide screen, folded away on a phone (the board first).
  $("editing").open = matchMedia("(min-width: 821px)").matches;
  for (const kind of ["solve", "unique", "count"]) $(kind).addEventListener("click", () => ask(page, kind));
  $("fix").addEventListener("click", () => fix(page));
  $("board-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const size = readSize(page);
    if (!size) return;
    showShot(null);
    await setBoard(page, emptyBoard(size.width, size.height, size.shape));
    say("Place endpoints, or Generate a puzzle.");
  });
  $("clear").addEventListener("click", async () => {
    const { width, height, shape } = page.board;
    showShot(null);
    await setBoard(page, emptyBoard(width, height, shape));
    say("Cleared. Place endpoints, or Generate a puzzle.");
  });
  const opened = await openLink(page, location.hash);
  if (!opened) await setBoard(page, page.board); // the empty board, when no link opens a puzzle
  // A link pasted into the address bar of the page already open (the page writes its own address unheard).
  addEventListener("hashchange", () => openLink(page, location.hash));
  await levels;
  document.body.dataset.ready = "true";
}

const BAD_LINK = "This link does not open a puzzle: part of it is missing or changed. Ask for the link again, or pick a level.";

async function openLink(page, hash) {
  // The puzzle a link holds, in Play with the play it holds (play.js); a bad one: what a player can do, the reader's
  // line (as for a file) under Details (any other error, a server busy, as it comes). True if one opened.
  const text = puzzleIn(hash);
  if (!text) return false;
  $("text").value = text;
  const refused = (line) => (line.startsWith("link:") ? showError(BAD_LINK, line) : showError(line));
  const opened = await readText(page, text, "link", refused);
  if (opened) page.hooks.emit("link", drawnIn(hash, page.board));
  return opened;
}

start();
