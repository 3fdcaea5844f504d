// Play mode: draw paths on the board as in the game, and ask for a hint (`api/hint`).
//
// The play is the cells drawn so far (`drawn`: cell key -> colour, endpoints left out), sent as `cpflow hint
// --play` reads it: the puzzle's text with those cells coloured, written by the server (`api/board` with
// `drawn`). A stroke starts on an endpoint or a drawn cell and colours each neighbouring cell the pointer
// enters in its colour (over another colour's cell too); going back over the stroke's last cell takes it back.
// As in the game, a stroke from an endpoint draws its path anew (the cells joined to that endpoint go as it leaves
// it; a tap keeps them), a path stops at its other endpoint, and one drawn over is cut there (what lies beyond the cut,
// seen from the end it was started from, goes: passages.js). Mouse, pen and touch alike (Pointer Events). Each stroke can be undone (Undo, Ctrl-Z). Once every cell is drawn the server checks the play (`api/hint`, whose "solved" the
// verifier stands behind): "Solved!" with the moves and the time, or a rule broken, shown when Hint is pressed.
// Going into Play or out of it clears the answer shown beside the board.
// A hint's cells are shown in its colour with the cells that force it outlined, and
// Apply draws them; a mistake's cells are crossed out; an unsolvable puzzle shows why (`why`: cells that
// must be covered, colours that must connect), from a hint or from Solve and Unique.
// It registers on the page's hooks: "draw" draws the play over the board, "changed" (the board was edited)
// starts the play over, "answered" marks why, "play" starts a play read from a screenshot, "link" a puzzle opened
// from a link (with the play it holds). The page's address keeps the play drawn (link.js), the tab the rest (keep.js),
// so a reload goes on.

import { cellOf, endpointAt, key, problems, record } from "./board.js";
import { nextWhy, offerWhy, whyOffered } from "./chain.js";
import { $, el, pts } from "./dom.js";
import { colourOf, drawEditor, pointAt } from "./draw.js";
import { keepPlay, keptPlay, restorePlay } from "./keep.js";
import { drawingOf } from "./link.js";
import { options } from "./options.js";
import { colourIn, cutAway, joined, passagesOf } from "./passages.js";
import { resetAnswer, showDrawing, written } from "./session.js";
import { say, showError } from "./status.js";

export function startPlay(page) {
  const play = {
    on: false,
    drawn: new Map(), // cell key -> colour
    undos: [], // the play before each stroke or applied hint
    stroke: null, // { colour, trail: [cell keys] } while the pointer is down
    from: new Map(), // colour -> the key of the endpoint its path was last started from (a cut keeps that side)
    marks: null, // { kind: "step" | "chain" | "piece" | "mistake" | "why", cells: [[r, c]], because: [[r, c]], colour }
    why: null, // a what if's chain being shown link by link (chain.js)
    moves: 0, // strokes that drew or took back a cell, and hints applied
    hints: 0, // hints applied
    began: null, // when Play started on this board (performance.now())
    version: 0, // counts changes to the play, so that a check of an older play is not shown
    took: null, // seconds from the start of Play to "Solved!", once solved (until the play changes)
  };
  const mode = { page, play };
  page.hooks.on("draw", (svg) => drawPlay(mode, svg));
  page.hooks.on("changed", () => {
    Object.assign(play, { drawn: new Map(), undos: [], from: new Map(), marks: null, moves: 0, hints: 0, began: null });
    edited(play);
    showDrawing(page, "");
    if (play.on) setPlaying(mode, false); // a new board (loaded, or made anew) starts in the editor
  });
  page.hooks.on("answered", (kind, answer) => {
    if (!answer.why) return;
    markWhy(mode, answer.why);
    say(`${$("status").textContent} · ${answer.why.sentence}`, "bad");
  });
  page.hooks.on("play", (cells) => playFrom(mode, cells));
  page.hooks.on("link", (cells) => openLink(mode, cells));
  listen(mode);
}

// ---- the board's passages (passages.js) ----

const passages = ({ page }, cell) => passagesOf(page, cell);
const colourAt = ({ page, play }, k) => colourIn(page, play.drawn, k);

function playText({ page, play }) {
  // The puzzle's text with the drawn cells coloured: what `cpflow hint --play` reads.
  const drawn = [...play.drawn].map(([k, colour]) => [...cellOf(k), colour]);
  return page.api.sketch({ ...record(page.board), drawn }).then((answer) => answer.text);
}

// ---- drawing the play ----

function drawPlay(mode, svg) {
  const { page, play } = mode;
  const { layout } = page;
  if (play.on) {
    const under = el("g", { class: "p-drawn" }, svg); // under the endpoints, whose letters stay readable
    svg.insertBefore(under, svg.querySelector(".e-dot"));
    for (const [k, colour] of play.drawn) el("polygon", { class: "p-cell", points: pts(layout.outline(cellOf(k))), fill: colourOf(page, colour) }, under);
    for (const k of new Set([...play.drawn.keys(), ...page.board.ends.flatMap((e) => e.cells.map(key))])) {
      const colour = colourAt(mode, k);
      for (const next of passages(mode, cellOf(k))) {
        const n = key(next);
        if (k < n && colourAt(mode, n) === colour && layout.touch(cellOf(k), next)) { // a warp's two ends are drawn apart
          const [[x1, y1], [x2, y2]] = [layout.centre(cellOf(k)), layout.centre(next)];
          el("line", { class: "p-pipe", x1, y1, x2, y2, stroke: colourOf(page, colour), "data-pipe": `${k}|${n}` }, under);
        }
      }
    }
  }
  const { marks } = play;
  if (!marks) return;
  for (const cell of marks.because || []) el("polygon", { class: "p-because", points: pts(layout.outline(cell)) }, svg);
  for (const cell of marks.cells) {
    if (marks.kind === "step" || marks.kind === "chain") el("polygon", { class: "p-step", points: pts(layout.outline(cell)), fill: colourOf(page, marks.colour), "data-mark": key(cell) }, svg);
    if (marks.kind === "why") el("polygon", { class: "p-why", points: pts(layout.outline(cell)), "data-mark": key(cell) }, svg);
    if (marks.kind === "mistake") {
      const [x, y] = layout.centre(cell);
      el("path", { class: "p-wrong", d: `M${x - 0.3},${y - 0.3}L${x + 0.3},${y + 0.3}M${x + 0.3},${y - 0.3}L${x - 0.3},${y + 0.3}`, "data-mark": key(cell) }, svg);
    }
  }
  if (marks.kind === "piece") { // a what if's path piece joined between two empty cells (chain.js)
    const [[x1, y1], [x2, y2]] = marks.cells.map((cell) => layout.centre(cell));
    el("line", { class: "p-piece", x1, y1, x2, y2, "data-mark": marks.cells.map(key).join("|") }, svg);
  }
}

// ---- strokes ----

function cellUnder({ page }, event) {
  if (!page.layout) return null;
  const [nearest] = page.layout.nearest(pointAt(event));
  return nearest && nearest[0] <= 0.5 ? nearest[1] : null;
}

function onDown(mode, event) {
  const { play } = mode;
  if (!play.on) return;
  const cell = cellUnder(mode, event);
  const colour = cell && colourAt(mode, key(cell));
  if (!colour) return;
  event.preventDefault();
  edited(play);
  try {
    $("editor").setPointerCapture(event.pointerId); // the stroke goes on outside the board, as a drag does
  } catch (_) {} // a pointer the browser no longer knows: the stroke still works inside the board
  play.undos.push(new Map(play.drawn));
  play.marks = null;
  play.stroke = { colour, trail: [key(cell)] };
  if (endpointAt(mode.page.board, cell)) play.from.set(colour, key(cell));
}

function onMove(mode, event) {
  const { page, play } = mode;
  if (!play.stroke) return;
  const cell = cellUnder(mode, event);
  if (!cell) return;
  const k = key(cell);
  const { trail, colour } = play.stroke;
  const last = trail[trail.length - 1];
  if (k === last || !passages(mode, cellOf(last)).some((n) => key(n) === k)) return;
  const atEnd = endpointAt(page.board, cellOf(last));
  if (trail.length > 1 && trail[trail.length - 2] === k) {
    if (!atEnd) play.drawn.delete(last); // back over the stroke: take its last cell back
    trail.pop();
  } else {
    if (atEnd && trail.length > 1) return; // the path reached its other end: it stops there, as in the game
    const end = endpointAt(page.board, cell);
    if (end && end.colour !== colour) return; // another colour's endpoint is never drawn over
    if (atEnd) for (const j of joined(page, play.drawn, last, colour)) play.drawn.delete(j); // a path drawn anew
    const over = play.drawn.get(k); // another colour's cell drawn over: its path is cut there
    const piece = over && over !== colour ? joined(page, play.drawn, k, over) : null;
    if (!end) play.drawn.set(k, colour);
    if (piece) for (const j of cutAway(page, play.drawn, k, over, piece, play.from.get(over))) play.drawn.delete(j);
    trail.push(k);
  }
  drawEditor(page);
}

function onUp(mode) {
  const { play } = mode;
  if (!play.stroke) return;
  const cells = play.stroke.trail.length - 1;
  play.stroke = null;
  if (!cells) play.undos.pop(); // a tap draws nothing
  else play.moves++;
  playChanged(mode);
  if (cells) checkIfDrawn(mode);
}

function playChanged({ page, play }) {
  showDrawing(page, drawingOf(play.drawn));
  keepPlay(play); // for a reload: the count, the clock and the undos (keep.js)
  $("undo").disabled = !play.undos.length;
  $("apply").disabled = !(play.marks && play.marks.kind === "step");
  whyOffered(play);
  drawEditor(page);
}

function undo(mode) {
  const { play } = mode;
  if (!play.undos.length) return;
  play.drawn = play.undos.pop();
  play.marks = null;
  edited(play);
  playChanged(mode);
  say("Undone.");
  checkIfDrawn(mode);
}

// ---- hints ----

async function hint(mode) {
  const { page } = mode;
  const problem = problems(page.board);
  if (problem) return showError(problem);
  say("Looking for the next step…");
  try {
    const limit = options().time_limit;
    const [puzzle, play] = await Promise.all([written(page), playText(mode)]);
    if (puzzle === null) return;
    const answer = await page.api.job("api/hint", { puzzle, play, ...(limit ? { time_limit: limit } : {}) });
    if (answer) showHint(mode, answer);
  } catch (error) {
    showError(error.message);
  }
}

function showHint(mode, answer) {
  const { play } = mode;
  play.marks = null;
  if (answer.status === "step") {
    play.marks = { kind: "step", cells: answer.cells, because: answer.because, colour: answer.colour };
    // The reason says the rule in a player's words: the rule's name (`answer.rule`, "degree") is the CLI's, not shown.
    say(`Hint: ${answer.reason} Apply draws ${answer.cells.length === 1 ? "it" : "them"}.`, "ok");
  } else if (answer.status === "mistake") {
    play.marks = { kind: "mistake", cells: answer.cells, because: [] };
    say(`Mistake: ${answer.reason}`, "bad");
  } else if (answer.status === "solved") {
    saySolved(mode);
  } else if (answer.status === "unsolvable") {
    if (answer.why) markWhy(mode, answer.why);
    say(`No solution: ${answer.reason}`, "bad");
  } else if (answer.status === "not-unique") {
    play.marks = { kind: "mistake", cells: answer.cells, because: [] }; // where two solutions differ
    say(answer.reason.charAt(0).toUpperCase() + answer.reason.slice(1), "bad");
  } else {
    say(`No hint: ${answer.reason}`, "unknown");
  }
  offerWhy(play, answer);
  playChanged(mode);
}

function apply(mode) {
  const { page, play } = mode;
  if (!play.marks || play.marks.kind !== "step") return;
  play.undos.push(new Map(play.drawn));
  for (const cell of play.marks.cells) if (!endpointAt(page.board, cell)) play.drawn.set(key(cell), play.marks.colour);
  play.marks = null;
  play.moves++;
  play.hints++;
  edited(play);
  playChanged(mode);
  say("Drawn. Go on, or ask for another hint.");
  checkIfDrawn(mode);
}

// ---- the end ----

function allDrawn({ page, play }) {
  // Every cell a path must cover is drawn: the play is ready to be checked.
  const { board } = page;
  for (let r = 0; r < board.height; r++) {
    for (let c = 0; c < board.width; c++) {
      const k = key([r, c]);
      if (!board.holes.has(k) && !play.drawn.has(k) && !endpointAt(board, [r, c])) return false;
    }
  }
  return true;
}

async function checkIfDrawn(mode) {
  // The last cell is drawn: the server says whether every rule holds (the same check as Hint's).
  const { page, play } = mode;
  if (!play.on || !allDrawn(mode)) return;
  const version = play.version;
  say("Every cell is drawn: checking…");
  try {
    const [puzzle, drawn] = await Promise.all([written(page), playText(mode)]);
    if (puzzle === null || version !== play.version) return;
    const answer = await page.api.job("api/hint", { puzzle, play: drawn });
    if (!answer || version !== play.version) return; // the play changed meanwhile: its own check follows
    if (answer.status === "solved") saySolved(mode);
    else if (answer.status === "unknown") say("Every cell is drawn; the check ran out of time: press Hint to try again.", "unknown");
    else say("Every cell is drawn, but not every rule holds: Hint shows what is wrong.", "bad");
  } catch (error) {
    showError(error.message);
  }
}

function edited(play) {
  // The play changed: a check under way is of an older play, and a time of solving no longer holds.
  play.version++;
  play.took = null;
}

function saySolved({ play }) {
  const done = "Every cell is drawn and every rule holds.";
  if (!play.moves) return say(`Solved! ${done}`, "ok"); // a finished play opened from a link: no moves, no time here
  play.took ??= Math.round((performance.now() - (play.began ?? performance.now())) / 1000);
  const took = play.took;
  const time = took < 60 ? `${took} s` : `${Math.floor(took / 60)} min ${String(took % 60).padStart(2, "0")} s`;
  const hints = play.hints ? `, ${play.hints} hint${play.hints === 1 ? "" : "s"} applied` : "";
  say(`Solved! ${play.moves} move${play.moves === 1 ? "" : "s"} in ${time}${hints}. ${done}`, "ok");
}

function markWhy({ page, play }, why) {
  // The cells that cannot all be covered, and the ends of the colours that cannot all connect. A why that found
  // none (`found` false: none in time) has no cells, only its sentence (a hint's why is the same record as a solve's).
  if (why.found === false) return;
  const ends = page.board.ends.filter((e) => why.connect.includes(e.colour)).flatMap((e) => e.cells);
  play.marks = { kind: "why", cells: why.cover, because: ends };
  drawEditor(page);
}

// ---- the mode ----

function setPlaying(mode, on) {
  const { page, play } = mode;
  if (on && page.board.bridges.size) {
    return showError("Drawing on boards with bridges is not supported yet: Solve, Unique and the CLI's `cpflow hint` are.");
  }
  if (on && problems(page.board)) return showError(problems(page.board));
  play.on = on;
  if (on && play.began === null) play.began = performance.now();
  resetAnswer(page); // the answer shown goes: a solution beside the board being played, or one left from Play
  $("play").setAttribute("aria-pressed", String(on));
  $("play-bar").hidden = !on;
  $("tools").disabled = on;
  $("clear").disabled = on; // the editor's Clear would wipe the level being played: Restart clears the drawing
  document.body.classList.toggle("playing", on);
  play.marks = null;
  playChanged(mode);
  if (on) say("Play: drag from an endpoint to draw its path. Hint shows the next step; Undo takes a stroke back.");
  else say("Play stopped: the board is in the editor (the drawing is kept for the next Play).");
}

function playFrom(mode, cells) {
  // A play read from a screenshot (`[row, column, colour]` per drawn cell): Play mode, those cells drawn.
  // False when Play cannot start on this board (its reason is shown).
  const { play } = mode;
  setPlaying(mode, true);
  if (!play.on) return false;
  play.drawn = new Map(cells.map(([r, c, colour]) => [key([r, c]), colour]));
  play.undos = [];
  edited(play);
  playChanged(mode);
  return true;
}

function openLink(mode, cells) {
  // A puzzle opened from a link, ready to play: Play, with the cells the link's play draws (a board Play cannot draw
  // on, one with bridges, stays in the editor as loaded). True if it is in Play.
  const { page, play } = mode;
  const { width, height, shape, ends } = page.board;
  const kept = keptPlay(); // this tab's count for the address, read before Play keeps its own
  if (page.board.bridges.size || problems(page.board) || !playFrom(mode, cells)) return false;
  if (restorePlay(play, page.board, kept)) playChanged(mode); // a reload: its moves, clock and undos go on
  const drawn = cells.length ? `, ${cells.length} cell${cells.length === 1 ? "" : "s"} drawn` : "";
  say(`Loaded link: ${width}x${height} ${shape}, ${ends.length} colours${drawn}. Drag from a dot to draw its path; fill every cell.`);
  checkIfDrawn(mode); // a link of a finished play: checked, and "Solved!" if every rule holds
  return true;
}

function listen(mode) {
  const { play } = mode;
  const editor = $("editor");
  editor.addEventListener("click", (event) => play.on && event.stopImmediatePropagation(), true);
  // In Play the board's touches make no gestures: a finger lifted while moving started a fling (touch-action: none
  // stops the scroll, not the fling), and Chromium takes the next tap, on Hint or Undo, for one that stops the fling:
  // no click. Pointer Events still draw the stroke. (A tap on the board is no click in Play anyway.)
  editor.addEventListener("touchstart", (event) => play.on && event.preventDefault(), { passive: false });
  editor.addEventListener("pointerdown", (event) => onDown(mode, event));
  editor.addEventListener("pointermove", (event) => onMove(mode, event));
  editor.addEventListener("pointerup", () => onUp(mode));
  editor.addEventListener("pointercancel", () => onUp(mode));
  $("play").addEventListener("click", () => setPlaying(mode, !play.on));
  $("hint").addEventListener("click", () => hint(mode));
  $("apply").addEventListener("click", () => apply(mode));
  $("why").addEventListener("click", () => {
    nextWhy(play);
    playChanged(mode);
  });
  $("undo").addEventListener("click", () => undo(mode));
  $("restart").addEventListener("click", () => {
    edited(play);
    play.undos.push(new Map(play.drawn));
    play.drawn = new Map();
    play.marks = null;
    playChanged(mode);
    say("Restarted: the drawing is cleared (Undo brings it back).");
  });
  addEventListener("pagehide", () => keepPlay(play)); // the clock as it stands when the page goes
  document.addEventListener("keydown", (event) => {
    if (play.on && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      event.preventDefault();
      undo(mode);
    }
  });
}
