// cpflow's page, Play mode: draw paths on the board as in the game, and ask for a hint (`api/hint`).
//
// The play is the cells drawn so far (`drawn`: cell key -> colour, endpoints left out), as `cpflow hint
// --play` reads it: the puzzle's text with those cells coloured (`playText`). A stroke starts on an
// endpoint or a drawn cell and colours each neighbouring cell the pointer enters in its colour (over
// another colour's cell too: the hint then says what is wrong); going back over the stroke's last cell
// takes it back. Mouse, pen and touch alike (Pointer Events). Each stroke can be undone (Undo, Ctrl-Z).
// A hint's cells are shown in its colour with the cells that force it outlined, and Apply draws them;
// a mistake's cells are crossed out; an unsolvable puzzle shows why (`why`: cells that must be covered,
// colours that must connect), from a hint or from Solve and Unique.
// It extends page.js (loaded before it, sharing its globals): `draw` also draws the play, `changed`
// (the board was edited) starts the play over.
"use strict";

let playing = false;
let drawn = new Map(); // cell key -> colour
let undos = []; // the play before each stroke or applied hint
let stroke = null; // { colour, trail: [cell keys] } while the pointer is down
let marks = null; // { kind: "step" | "mistake" | "why", cells: [[r, c]], because: [[r, c]], colour }

const drawBoard = draw;
draw = function () {
  drawBoard();
  drawPlay();
};

const boardChanged = changed;
changed = function (...args) {
  drawn = new Map();
  undos = [];
  marks = null;
  if (playing) setPlaying(false); // a new board (loaded, or made anew) starts in the editor
  boardChanged(...args);
};

const showAnswer = show;
show = function (kind, answer, roundTrip) {
  showAnswer(kind, answer, roundTrip);
  if (answer.why) {
    markWhy(answer.why);
    say(`${$("status").textContent} · ${answer.why.sentence}`, "bad");
  }
};

// ---- the board's passages ----

function passages(cell) {
  // The cells a path steps to from `cell`: its neighbours less holes and walls, and the other end of a warp.
  const k = key(cell);
  const found = neighbours(cell).filter((n) => !board.holes.has(key(n)) && !board.walls.has(wallKey(cell, n)));
  for (const [a, b] of board.warps) {
    if (key(a) === k) found.push(b);
    if (key(b) === k) found.push(a);
  }
  return found;
}

const colourAt = (k) => drawn.get(k) || endpointAt(cellOf(k))?.colour || null;

function playText() {
  // The puzzle's text with the drawn cells coloured: what `cpflow hint --play` reads.
  const lines = puzzleText().split("\n");
  const first = isPlain() ? 0 : 1;
  for (const [k, colour] of drawn) {
    const [r, c] = cellOf(k);
    const row = lines[first + r];
    lines[first + r] = row.slice(0, c) + colour + row.slice(c + 1);
  }
  return lines.join("\n");
}

// ---- drawing the play ----

function drawPlay() {
  const svg = $("editor");
  if (playing) {
    for (const [k, colour] of drawn) el("polygon", { class: "p-cell", points: pts(outline(cellOf(k))), fill: colourOf(colour) }, svg);
    for (const k of new Set([...drawn.keys(), ...board.ends.flatMap((e) => e.cells.map(key))])) {
      const colour = colourAt(k);
      for (const next of passages(cellOf(k))) {
        const n = key(next);
        if (k < n && colourAt(n) === colour && adjacent(cellOf(k), next)) {
          const [[x1, y1], [x2, y2]] = [centre(cellOf(k)), centre(next)];
          el("line", { class: "p-pipe", x1, y1, x2, y2, stroke: colourOf(colour), "data-pipe": `${k}|${n}` }, svg);
        }
      }
    }
  }
  if (!marks) return;
  for (const cell of marks.because || []) el("polygon", { class: "p-because", points: pts(outline(cell)) }, svg);
  for (const cell of marks.cells) {
    if (marks.kind === "step") el("polygon", { class: "p-step", points: pts(outline(cell)), fill: colourOf(marks.colour), "data-mark": key(cell) }, svg);
    if (marks.kind === "why") el("polygon", { class: "p-why", points: pts(outline(cell)), "data-mark": key(cell) }, svg);
    if (marks.kind === "mistake") {
      const [x, y] = centre(cell);
      el("path", { class: "p-wrong", d: `M${x - 0.3},${y - 0.3}L${x + 0.3},${y + 0.3}M${x + 0.3},${y - 0.3}L${x - 0.3},${y + 0.3}`, "data-mark": key(cell) }, svg);
    }
  }
}

function adjacent(a, b) {
  return neighbours(a).some((n) => key(n) === key(b)); // a warp's two ends are drawn apart
}

// ---- strokes ----

function cellUnder(event) {
  const [nearest] = nearestCells(pointAt(event));
  return nearest && nearest[0] <= 0.5 ? nearest[1] : null;
}

function onDown(event) {
  if (!playing) return;
  const cell = cellUnder(event);
  const colour = cell && colourAt(key(cell));
  if (!colour) return;
  event.preventDefault();
  try {
    $("editor").setPointerCapture(event.pointerId); // the stroke goes on outside the board, as a drag does
  } catch (_) {} // a pointer the browser no longer knows: the stroke still works inside the board
  undos.push(new Map(drawn));
  marks = null;
  stroke = { colour, trail: [key(cell)] };
}

function onMove(event) {
  if (!stroke) return;
  const cell = cellUnder(event);
  if (!cell) return;
  const k = key(cell);
  const { trail, colour } = stroke;
  const last = trail[trail.length - 1];
  if (k === last || !passages(cellOf(last)).some((n) => key(n) === k)) return;
  if (trail.length > 1 && trail[trail.length - 2] === k) {
    if (!endpointAt(cellOf(last))) drawn.delete(last); // back over the stroke: take its last cell back
    trail.pop();
  } else {
    const end = endpointAt(cell);
    if (end && end.colour !== colour) return; // another colour's endpoint is never drawn over
    if (!end) drawn.set(k, colour);
    trail.push(k);
  }
  draw();
}

function onUp() {
  if (!stroke) return;
  const cells = stroke.trail.length - 1;
  stroke = null;
  if (!cells) undos.pop(); // a tap draws nothing
  playChanged();
}

function playChanged() {
  $("undo").disabled = !undos.length;
  $("apply").disabled = !(marks && marks.kind === "step");
  draw();
}

function undo() {
  if (!undos.length) return;
  drawn = undos.pop();
  marks = null;
  playChanged();
  say("Undone.");
}

// ---- hints ----

async function hint() {
  const problem = problems();
  if (problem) return showError(problem);
  say("Looking for the next step…");
  try {
    const limit = options().time_limit;
    const answer = await post("api/hint", { puzzle: puzzleText(), play: playText(), ...(limit ? { time_limit: limit } : {}) });
    if (answer) showHint(answer);
  } catch (error) {
    showError(error.message);
  }
}

function showHint(answer) {
  marks = null;
  if (answer.status === "step") {
    marks = { kind: "step", cells: answer.cells, because: answer.because, colour: answer.colour };
    say(`Hint (${answer.rule}): ${answer.reason} Apply draws ${answer.cells.length === 1 ? "it" : "them"}.`, "ok");
  } else if (answer.status === "mistake") {
    marks = { kind: "mistake", cells: answer.cells, because: [] };
    say(`Mistake: ${answer.reason}`, "bad");
  } else if (answer.status === "solved") {
    say("Solved: every cell is drawn and every rule holds.", "ok");
  } else if (answer.status === "unsolvable") {
    if (answer.why) markWhy(answer.why);
    say(`No solution: ${answer.reason}`, "bad");
  } else {
    say(`No hint: ${answer.reason}`, "unknown");
  }
  playChanged();
}

function apply() {
  if (!marks || marks.kind !== "step") return;
  undos.push(new Map(drawn));
  for (const cell of marks.cells) if (!endpointAt(cell)) drawn.set(key(cell), marks.colour);
  marks = null;
  playChanged();
  say("Drawn. Go on, or ask for another hint.");
}

function markWhy(why) {
  const ends = board.ends.filter((e) => why.connect.includes(e.colour)).flatMap((e) => e.cells);
  marks = { kind: "why", cells: why.cover, because: ends };
  draw();
}

// ---- the mode ----

function setPlaying(on) {
  if (on && board.bridges.size) {
    return showError("Drawing on boards with bridges is not supported yet: Solve, Unique and the CLI's `cpflow hint` are.");
  }
  if (on && problems()) return showError(problems());
  playing = on;
  $("play").setAttribute("aria-pressed", String(on));
  $("play-bar").hidden = !on;
  $("tools").disabled = on;
  document.body.classList.toggle("playing", on);
  marks = null;
  playChanged();
  if (on) say("Play: drag from an endpoint to draw its path. Hint shows the next step; Undo takes a stroke back.");
}

function playFrom(cells) {
  // A play read from a screenshot (`[row, column, colour]` per drawn cell): Play mode, those cells drawn.
  // False when Play cannot start on this board (its reason is shown).
  setPlaying(true);
  if (!playing) return false;
  drawn = new Map(cells.map(([r, c, colour]) => [key([r, c]), colour]));
  undos = [];
  playChanged();
  return true;
}

function startPlay() {
  const editor = $("editor");
  editor.addEventListener("click", (event) => playing && event.stopImmediatePropagation(), true);
  editor.addEventListener("pointerdown", onDown);
  editor.addEventListener("pointermove", onMove);
  editor.addEventListener("pointerup", onUp);
  editor.addEventListener("pointercancel", onUp);
  $("play").addEventListener("click", () => setPlaying(!playing));
  $("hint").addEventListener("click", hint);
  $("apply").addEventListener("click", apply);
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", () => {
    undos.push(new Map(drawn));
    drawn = new Map();
    marks = null;
    playChanged();
    say("Drawing cleared.");
  });
  document.addEventListener("keydown", (event) => {
    if (playing && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      event.preventDefault();
      undo();
    }
  });
}

startPlay();
