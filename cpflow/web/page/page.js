// cpflow's page: an editor for the board (drawn here), and the server's answers (drawn by the server).
//
// The board lives in `board` (size, shape, endpoints, holes, bridges, walls, warps); it is written as a
// puzzle file (`puzzleText`: a classic grid for plain boards, cpflow's `board` format otherwise), kept in
// the page's address after `#puzzle=`, and sent to the JSON API as it is. Cells are [row, col].
// A screenshot of the game (chosen, or dropped on the editor's panel) is read by the server (`api/import`)
// into the same board, shown beside the editor to be checked and fixed before solving.
// One line tells the last action's outcome: the status (`say`) or an error (`showError`), each replacing the other.
// Everything runs from this file: the server's Content-Security-Policy allows no inline script or style.
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const NAMES = CONFIG.palette.map(([name]) => name); // the colour names new endpoints take, in order
const PALETTE = Object.fromEntries(CONFIG.palette);
const HEX_R = 1 / Math.sqrt(3); // a hexagon one unit tall, as cpflow/board/geometry.py draws it
const $ = (id) => document.getElementById(id);

let board = emptyBoard(5, 5, "square");
let named = "puzzle"; // what downloads are called: the file or screenshot the board was read from
let cursor = [0, 0];
let shown = { solutions: [], picture: false }; // the solutions on display, for the downloads
let inFlight = null; // the request under way, aborted when another starts

// ---- the board ----

function emptyBoard(width, height, shape) {
  return { width, height, shape, ends: [], holes: new Set(), bridges: new Set(), walls: new Set(), warps: [], rgb: {} };
}

const key = ([r, c]) => `${r},${c}`;
const cellOf = (k) => k.split(",").map(Number);
const wallKey = (a, b) => [key(a), key(b)].sort(compareKeys).join("|");
function compareKeys(x, y) {
  const [a, b] = [cellOf(x), cellOf(y)];
  return a[0] - b[0] || a[1] - b[1];
}

function endpointAt(cell) {
  const k = key(cell);
  for (const end of board.ends) for (const c of end.cells) if (key(c) === k) return end;
  return null;
}

function colourOf(name) {
  return board.rgb[name] || PALETTE[name] || "#bbbbbb";
}

function ink(hex) {
  // Black on light colours, white on dark ones, as the server's labels are.
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
}

function nextName() {
  const used = new Set(board.ends.map((e) => e.colour));
  return NAMES.find((n) => !used.has(n));
}

function neighbours([r, c]) {
  let steps = [[-1, 0], [0, -1], [0, 1], [1, 0]];
  if (board.shape === "hex") {
    steps = c % 2 === 0 ? [[-1, 0], [0, -1], [0, 1], [1, -1], [1, 1], [1, 0]] : [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, 0]];
  }
  return steps.map(([dr, dc]) => [r + dr, c + dc]).filter(([a, b]) => a >= 0 && b >= 0 && a < board.height && b < board.width);
}

function isPlain() {
  return board.shape === "square" && !board.holes.size && !board.bridges.size && !board.walls.size && !board.warps.length;
}

// ---- what the tools do ----

function useTool(tool, cell) {
  clearError();
  const k = key(cell);
  if (tool === "endpoint") return placeEndpoint(cell);
  if (tool === "hole") {
    if (board.holes.has(k)) board.holes.delete(k);
    else {
      removeEndpoint(cell);
      board.bridges.delete(k);
      board.holes.add(k);
      for (const w of [...board.walls]) if (w.split("|").includes(k)) board.walls.delete(w);
    }
  } else if (tool === "bridge") {
    if (board.shape !== "square") return showError("Bridges stand on square boards only.");
    if (board.holes.has(k)) return showError("A hole cannot be a bridge: remove the hole first.");
    if (board.bridges.has(k)) board.bridges.delete(k);
    else {
      removeEndpoint(cell);
      board.bridges.add(k);
    }
  }
  changed();
}

function placeEndpoint(cell) {
  const k = key(cell);
  if (board.holes.has(k)) return showError(`Cell (${cell}) is a hole: an endpoint needs a cell on the board.`);
  if (board.bridges.has(k)) return showError(`Cell (${cell}) is a bridge: endpoints cannot stand on bridges.`);
  if (endpointAt(cell)) removeEndpoint(cell);
  else {
    const open = board.ends.find((e) => e.cells.length === 1);
    if (open) open.cells.push(cell);
    else {
      const name = nextName();
      if (!name) return showError("No colour names left.");
      board.ends.push({ colour: name, cells: [cell] });
    }
  }
  changed();
}

function removeEndpoint(cell) {
  const end = endpointAt(cell);
  if (!end) return;
  end.cells = end.cells.filter((c) => key(c) !== key(cell));
  if (!end.cells.length) board.ends = board.ends.filter((e) => e !== end);
}

function toggleWall(a, b) {
  clearError();
  if (!neighbours(a).some((n) => key(n) === key(b))) return;
  if (board.holes.has(key(a)) || board.holes.has(key(b))) return showError("A wall stands between two cells of the board, not beside a hole.");
  const w = wallKey(a, b);
  if (board.walls.has(w)) board.walls.delete(w);
  else board.walls.add(w);
  changed();
}

function clearCell(cell) {
  const k = key(cell);
  removeEndpoint(cell);
  board.holes.delete(k);
  board.bridges.delete(k);
  changed();
}

// ---- the board as a puzzle file ----

function problems() {
  const open = board.ends.find((e) => e.cells.length === 1);
  if (open) return `Colour ${open.colour} has one endpoint: click a cell for its partner (or click it to remove it).`;
  if (!board.ends.length) return "The board has no endpoints yet: click two cells to place a pair.";
  return null;
}

function puzzleText() {
  const marks = [];
  for (let r = 0; r < board.height; r++) {
    const row = [];
    for (let c = 0; c < board.width; c++) {
      const k = key([r, c]);
      row.push(board.holes.has(k) ? "#" : board.bridges.has(k) ? "+" : ".");
    }
    marks.push(row);
  }
  for (const end of board.ends) for (const [r, c] of end.cells) marks[r][c] = end.colour;
  const rows = marks.map((row) => row.join("")).join("\n");
  if (isPlain()) return rows + "\n";
  let text = `board ${board.width}x${board.height}${board.shape === "hex" ? " hex" : ""}\n${rows}\n`;
  if (board.walls.size) text += `walls ${[...board.walls].join(" ")}\n`;
  if (board.warps.length) text += `warps ${board.warps.map(([a, b]) => `${key(a)}|${key(b)}`).join(" ")}\n`;
  return text;
}

function fromRead(answer) {
  // The server's reading of a file: names that are not one character are renamed to ones that are.
  const names = Object.keys(answer.endpoints);
  const rename = names.every((n) => n.length === 1 && !".#+".includes(n)) ? (n) => n : (n) => NAMES[names.indexOf(n)];
  const next = emptyBoard(answer.width, answer.height, answer.shape);
  for (const n of names) {
    next.ends.push({ colour: rename(n), cells: answer.endpoints[n] });
    next.rgb[rename(n)] = answer.colours[n];
  }
  for (const h of answer.holes) next.holes.add(key(h));
  for (const b of answer.bridges) next.bridges.add(key(b));
  for (const [a, b] of answer.walls) next.walls.add(wallKey(a, b));
  next.warps = answer.warps;
  return next;
}

// ---- drawing the editor ----

function centre([r, c]) {
  if (board.shape === "hex") return [HEX_R + 1.5 * HEX_R * c, r + 0.5 + (c % 2 === 0 ? 0.5 : 0)];
  return [c + 0.5, r + 0.5];
}

function outline(cell) {
  const [x, y] = centre(cell);
  if (board.shape === "hex") return [0, 60, 120, 180, 240, 300].map((a) => [x + HEX_R * Math.cos((a * Math.PI) / 180), y + HEX_R * Math.sin((a * Math.PI) / 180)]);
  return [[x - 0.5, y - 0.5], [x + 0.5, y - 0.5], [x + 0.5, y + 0.5], [x - 0.5, y + 0.5]];
}

function extent() {
  if (board.shape === "hex") return [HEX_R * (2 + 1.5 * (board.width - 1)), board.height + 0.5];
  return [board.width, board.height];
}

function sharedSide(a, b) {
  const near = outline(a).filter((p) => outline(b).some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) < 1e-6));
  return near.length === 2 ? near : null;
}

const SVG = "http://www.w3.org/2000/svg";
function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}
const pts = (points) => points.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");

function draw() {
  const svg = $("editor");
  const [w, h] = extent();
  svg.replaceChildren();
  svg.setAttribute("viewBox", `-0.05 -0.05 ${w + 0.1} ${h + 0.1}`);
  const big = Math.max(board.width, board.height);
  for (let r = 0; r < board.height; r++) {
    for (let c = 0; c < board.width; c++) {
      const k = key([r, c]);
      const kind = board.holes.has(k) ? "hole" : board.bridges.has(k) ? "bridge" : "cell";
      el("polygon", { class: `e-${kind}`, points: pts(outline([r, c])), "data-cell": k }, svg);
      const [x, y] = centre([r, c]);
      if (kind === "hole") el("path", { class: "e-hole-mark", d: `M${x - 0.2},${y - 0.2}L${x + 0.2},${y + 0.2}M${x + 0.2},${y - 0.2}L${x - 0.2},${y + 0.2}` }, svg);
      if (kind === "bridge") el("path", { class: "e-bridge-mark", d: `M${x - 0.45},${y}H${x + 0.45}M${x},${y - 0.45}V${y + 0.45}` }, svg);
    }
  }
  for (const w of board.walls) {
    const [a, b] = w.split("|").map(cellOf);
    const side = sharedSide(a, b);
    if (side) el("line", { class: "e-wall", x1: side[0][0], y1: side[0][1], x2: side[1][0], y2: side[1][1] }, svg);
  }
  for (const [a, b] of board.warps) {
    for (const cell of [a, b]) {
      const [x, y] = centre(cell);
      el("circle", { class: "e-warp", cx: x, cy: y, r: 0.42 }, svg);
    }
  }
  for (const end of board.ends) {
    for (const cell of end.cells) {
      const [x, y] = centre(cell);
      const open = end.cells.length === 1;
      el("circle", { class: open ? "e-dot e-open" : "e-dot", cx: x, cy: y, r: 0.33, fill: colourOf(end.colour), "data-colour": end.colour }, svg);
      if (big <= 30) {
        const label = el("text", { class: "e-label", x, y: y + 0.12, "text-anchor": "middle", fill: ink(colourOf(end.colour)) }, svg);
        label.textContent = end.colour;
      }
    }
  }
  el("polygon", { class: "e-cursor", points: pts(outline(cursor)) }, svg);
  svg.setAttribute("aria-label", `Puzzle editor, ${board.width} by ${board.height} ${board.shape}; cursor at row ${cursor[0] + 1}, column ${cursor[1] + 1}${describe(cursor)}. Arrow keys move, Enter places, Delete removes.`);
}

function describe(cell) {
  const k = key(cell);
  const end = endpointAt(cell);
  if (end) return `, endpoint ${end.colour}`;
  if (board.holes.has(k)) return ", a hole";
  if (board.bridges.has(k)) return ", a bridge";
  return "";
}

// ---- pointer and keyboard ----

function pointAt(event) {
  const svg = $("editor");
  const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  return [p.x, p.y];
}

function nearestCells([x, y]) {
  const found = [];
  for (let r = 0; r < board.height; r++) {
    for (let c = 0; c < board.width; c++) {
      const [cx, cy] = centre([r, c]);
      found.push([Math.hypot(cx - x, cy - y), [r, c]]);
    }
  }
  return found.sort((a, b) => a[0] - b[0]);
}

function onClick(event) {
  const [first, second] = nearestCells(pointAt(event));
  if (!first || first[0] > 0.75) return;
  cursor = first[1];
  if (tool() === "wall") {
    if (second && second[0] - first[0] < 0.3) toggleWall(first[1], second[1]);
    else {
      showError("With the wall tool, click on the line between two cells.");
      draw();
    }
    return;
  }
  useTool(tool(), first[1]);
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const TOOL_KEYS = { e: "endpoint", h: "hole", w: "wall", b: "bridge" };

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const step = ARROWS[event.key];
  if (step) {
    const to = [cursor[0] + step[0], cursor[1] + step[1]];
    if (event.shiftKey) {
      const near = neighbours(cursor).filter((n) => step[0] ? n[0] === to[0] && n[1] === cursor[1] : n[1] === to[1] && n[0] === cursor[0]);
      if (near.length) toggleWall(cursor, near[0]);
    } else if (to[0] >= 0 && to[1] >= 0 && to[0] < board.height && to[1] < board.width) {
      cursor = to;
      draw();
    }
  } else if (event.key === "Enter" || event.key === " ") {
    if (tool() === "wall") showError("With the wall tool, Shift+arrow toggles the wall on that side of the cursor.");
    else useTool(tool(), cursor);
  } else if (event.key === "Delete" || event.key === "Backspace") {
    clearCell(cursor);
  } else if (TOOL_KEYS[event.key.toLowerCase()]) {
    document.querySelector(`input[name=tool][value=${TOOL_KEYS[event.key.toLowerCase()]}]`).checked = true;
  } else if (event.key === "s") {
    ask("solve");
  } else if (event.key === "u") {
    ask("unique");
  } else return;
  event.preventDefault();
}

const tool = () => document.querySelector("input[name=tool]:checked").value;

// ---- talking to the server ----

function options() {
  const limit = parseFloat($("time-limit").value);
  return {
    engine: $("engine").value,
    allow_touch: $("touch").checked,
    allow_blanks: $("blanks").checked,
    ...(limit > 0 ? { time_limit: limit } : {}),
  };
}

async function post(path, body, as = "json") {
  // `body` is an object sent as JSON, or a Blob (a screenshot) sent as its bytes.
  if (inFlight) inFlight.abort(); // the server stops the job of a request nobody waits for
  const request = new AbortController();
  inFlight = request;
  busy(true);
  const raw = body instanceof Blob;
  // The server takes JSON, or an image's bytes as an image type or application/octet-stream: types a page of
  // another site cannot send without asking first.
  const type = raw ? (body.type.startsWith("image/") ? body.type : "application/octet-stream") : "application/json";
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": type },
      body: raw ? body : JSON.stringify(body),
      signal: request.signal,
    });
    if (!response.ok) {
      let message = `The server answered ${response.status}.`;
      try {
        message = (await response.json()).error || message;
      } catch (_) {}
      throw new Error(message);
    }
    return as === "json" ? await response.json() : await response.blob();
  } catch (error) {
    if (error.name === "AbortError") return null;
    if (error instanceof TypeError) throw new Error(`Cannot reach the server (${error.message}).`);
    throw error;
  } finally {
    if (inFlight === request) {
      inFlight = null;
      busy(false);
    }
  }
}

function busy(on) {
  for (const id of ["solve", "unique", "count", "fix", "generate", "shot"]) $(id).disabled = on;
  document.body.classList.toggle("busy", on);
}

async function ask(kind) {
  const problem = problems();
  if (problem) return showError(problem);
  const body = { puzzle: puzzleText(), name: "puzzle", ...options() };
  const doing = { solve: "Solving", unique: "Proving uniqueness", count: "Counting solutions" }[kind];
  say(`${doing}…`);
  try {
    if (kind === "count") body.limit = Math.max(1, parseInt($("limit").value, 10) || 100);
    else body.draw = true;
    const began = performance.now();
    const answer = await post(`api/${kind}`, body);
    if (answer) show(kind, answer, (performance.now() - began) / 1000);
  } catch (error) {
    showError(error.message);
  }
}

const seconds = (s) => (s < 10 ? s.toFixed(3) : s.toFixed(1)) + " s";

function show(kind, answer, roundTrip) {
  const took = `${seconds(answer.seconds)} (${seconds(roundTrip)} with the round trip)`;
  if (kind === "count") {
    const many = `${answer.count} solution${answer.count === 1 ? "" : "s"}`;
    const cut = answer.exact ? "" : " (stopped at the limit or the time limit)";
    say(`${answer.exact ? "Exactly" : "At least"} ${many}${cut} · ${took}`, answer.exact ? "ok" : "unknown");
    return;
  }
  let verdict;
  let tone = "ok";
  if (kind === "solve") {
    verdict = { solved: "Solved", unsolvable: "Unsolvable: no solution exists", unknown: "Unknown: the time limit came first" }[answer.status];
    tone = answer.status === "solved" ? "ok" : answer.status === "unsolvable" ? "bad" : "unknown";
  } else {
    const n = answer.differences.length;
    verdict = {
      unique: "Unique: exactly one solution",
      "not-unique": `Not unique: two solutions, the ${n} cell${n === 1 ? "" : "s"} where they differ outlined`,
      unsolvable: "Unsolvable: no solution exists",
      unknown: "Unknown: the time limit came first",
    }[answer.verdict];
    tone = { unique: "ok", "not-unique": "bad", unsolvable: "bad", unknown: "unknown" }[answer.verdict];
  }
  say(`${verdict} · ${took}`, tone);
  $("result").innerHTML = answer.svg; // the server's drawing, as `cpflow render` makes it
  if (matchMedia("(max-width: 820px)").matches) $("answer").scrollIntoView({ behavior: "smooth", block: "start" });
  $("result").dataset.kind = kind;
  shown = { solutions: answer.solution_texts, picture: true };
  $("get-solution").disabled = !shown.solutions.length;
}

async function generate() {
  const size = readSize();
  if (!size) return;
  say("Generating a puzzle with a proven unique solution…");
  const body = {
    size: `${size.width}x${size.height}`,
    shape: size.shape,
    holes: parseInt($("holes").value, 10) || 0,
    walls: parseInt($("walls").value, 10) || 0,
    warps: parseInt($("warps").value, 10) || 0,
    bridges: parseInt($("gen-bridges").value, 10) || 0,
    ...($("grade").value ? { grade: $("grade").value } : {}),
    draw: true,
    ...($("colours").value.trim() ? { colours: $("colours").value.trim() } : {}),
    ...(options().time_limit ? { time_limit: options().time_limit } : {}),
  };
  try {
    const answer = await post("api/generate", body);
    if (!answer) return;
    loadBoard(answer.board, `generated_${answer.width}x${answer.height}_${answer.seed}`);
    $("result").innerHTML = answer.svg;
    say(`Generated a ${answer.width}x${answer.height} puzzle with ${answer.colours} colours, proven unique (seed ${answer.seed}) · ${seconds(answer.seconds)}. Solve it yourself, or press Solve.`, "ok");
  } catch (error) {
    showError(error.message);
  }
}

async function fix() {
  // For a designer: the smallest edit that leaves exactly one solution, loaded into the editor.
  const problem = problems();
  if (problem) return showError(problem);
  say("Looking for one edit that leaves exactly one solution…");
  const asked = options();
  delete asked.engine; // the repair proves with the default engine
  try {
    const answer = await post("api/fix", { puzzle: puzzleText(), name: "puzzle", ...asked });
    if (!answer) return;
    const took = seconds(answer.seconds);
    if (answer.status === "fixed") {
      loadBoard(answer.board, "fixed");
      const edit = answer.edit.words.charAt(0).toUpperCase() + answer.edit.words.slice(1);
      say(`Fixed: ${edit}. Now exactly one solution (${answer.tried} proofs) · ${took}. Press Unique? to see it proven.`, "ok");
    } else {
      const said = {
        unique: ["Already unique: nothing to fix", "ok"],
        "not fixed": ["Not unique, and no single edit tried makes it unique", "bad"],
        unsolvable: ["Unsolvable: no solution exists, so there is nothing to fix", "bad"],
        unknown: ["Unknown: the time limit came before an edit was proven", "unknown"],
      }[answer.status];
      say(`${said[0]} · ${took}`, said[1]);
    }
  } catch (error) {
    showError(error.message);
  }
}

async function readText(text, name) {
  if (!text.trim()) return showError("Paste a puzzle first (or upload a file).");
  const index = Math.max(1, parseInt($("index").value, 10) || 1);
  try {
    const answer = await post("api/read", { puzzle: text, name, index });
    if (!answer) return;
    loadBoard(answer, ["pasted", "link"].includes(name) ? "puzzle" : name);
    say(`Loaded ${name}: ${answer.width}x${answer.height} ${answer.shape}, ${Object.keys(answer.endpoints).length} colours. Press Solve.`);
    return true;
  } catch (error) {
    showError(error.message);
  }
}

function loadBoard(answer, name, screenshot = null) {
  // A board the server read (a file, a screenshot, a generated puzzle) into the editor, replacing the last.
  board = fromRead(answer);
  named = fileStem(name);
  syncSize();
  cursor = [0, 0];
  resetAnswer();
  showShot(screenshot);
  changed(false);
}

async function importShot(file) {
  if (file.size > CONFIG.limits.max_image_bytes) {
    return showError(`${file.name}: larger than this server's limit of ${CONFIG.limits.max_image_bytes} bytes for a screenshot.`);
  }
  say(`Importing ${file.name}: reading the board, its dots and their colours…`);
  try {
    const answer = await post(`api/import?name=${encodeURIComponent(file.name)}`, file);
    if (!answer) return;
    loadBoard(answer, file.name, file);
    $("text").value = answer.text;
    const n = Object.keys(answer.endpoints).length;
    const unsure = answer.unsure.length ? ` Unsure of the pipe at ${answer.unsure.length} cell${answer.unsure.length === 1 ? "" : "s"}: left out.` : "";
    if (answer.play.length && board.bridges.size) {
      // Play mode does not draw over bridges yet: the board is shown, and the CLI hints on the screenshot itself.
      say(`Imported ${file.name}: ${answer.width}x${answer.height}, ${n} colours, ${answer.play.length} cells drawn.${unsure} Drawing on boards with bridges is not supported on this page yet: \`cpflow hint ${file.name}\` gives the next step from the pipes drawn.`, "ok");
      return;
    }
    if (answer.play.length && playFrom(answer.play)) {
      // a level half played: its pipes, ready for Hint
      say(`Imported ${file.name}: ${answer.width}x${answer.height}, ${n} colours, ${answer.play.length} cells drawn.${unsure} Check it against the screenshot, then press Hint.`, "ok");
      return;
    }
    say(`Imported ${file.name}: ${answer.width}x${answer.height}, ${n} colours.${unsure} Check it against the screenshot and fix what is wrong, then press Solve.`, "ok");
  } catch (error) {
    showError(error.message);
  }
}

function showShot(file) {
  // The screenshot beside the editor while the board is the one read from it.
  const image = $("shot-image");
  if (image.src) URL.revokeObjectURL(image.src);
  image.removeAttribute("src");
  if (file) image.src = URL.createObjectURL(file);
  $("shot-view").hidden = !file;
}

async function loadFile(file) {
  // A file chosen or dropped: a picture is a screenshot to import, anything else a puzzle file's text.
  if (isImage(file)) return importShot(file);
  if (file.size > CONFIG.limits.max_bytes) return showError(`${file.name}: larger than this server's limit of ${CONFIG.limits.max_bytes} bytes.`);
  const text = fileText(new Uint8Array(await file.arrayBuffer()));
  $("text").value = text;
  await readText(text, file.name);
}

const isImage = (file) => file.type.startsWith("image/") || /\.(png|jpe?g|gif|bmp|webp)$/i.test(file.name);

function dropFiles(panel) {
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
    if (file) loadFile(file);
  });
}

async function download(kind) {
  const problem = problems();
  if (problem && kind !== "solution") return showError(problem);
  if (kind === "puzzle") return save(new Blob([puzzleText()], { type: "text/plain" }), `${named}.txt`);
  if (kind === "solution") return save(new Blob([shown.solutions[0]], { type: "text/plain" }), `${named}.solution.txt`);
  try {
    const body = { puzzle: puzzleText(), solutions: shown.solutions.slice(0, 2), picture: kind };
    const blob = await post("api/render", body, "blob");
    if (blob) save(blob, `${named}${shown.solutions.length ? ".solution" : ""}.${kind}`);
  } catch (error) {
    showError(error.message);
  }
}

function fileStem(name) {
  // A file's name without its folder and extension, in characters any system takes ("puzzle" when none is left).
  const stem = name.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "").replace(/[^\p{L}\p{N}_.-]+/gu, "_").slice(0, 100);
  return stem.replace(/^[._]+/, "") || "puzzle";
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

function save(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000); // a slow disk may start writing late
  say(`Saved ${name}`);
}

// ---- page state ----

function say(text, tone = "") {
  // The last action's outcome, in place of the line before it (an error's too).
  clearError();
  $("status").textContent = text;
  $("status").className = tone;
}

function showError(message) {
  // What went wrong, in place of the status line: it would tell of an earlier action.
  $("status").textContent = "";
  $("status").className = "";
  $("error").textContent = message;
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function resetAnswer() {
  $("result").replaceChildren();
  delete $("result").dataset.kind;
  shown = { solutions: [], picture: false };
  $("get-solution").disabled = true;
}

function changed(clearAnswer = true) {
  if (clearAnswer && inFlight) {
    inFlight.abort(); // its answer would be about another board; the server stops the job
    say("Stopped: the board changed.");
  }
  if (clearAnswer && (shown.picture || $("result").childElementCount)) {
    resetAnswer();
    say("The board changed: ask again for a new answer.");
  }
  draw();
  const hash = board.ends.length || !isPlain() ? `#puzzle=${encodeURIComponent(puzzleText())}` : "";
  history.replaceState(null, "", hash || location.pathname + location.search);
}

function readSize() {
  const width = parseInt($("width").value, 10);
  const height = parseInt($("height").value, 10);
  const { max_side: side, max_cells: cells } = CONFIG.limits;
  if (!(width >= 2 && height >= 2 && width <= side && height <= side && width * height <= cells)) {
    showError(`A board is 2 to ${side} cells a side and ${cells} cells at most; ${$("width").value}x${$("height").value} is not.`);
    return null;
  }
  return { width, height, shape: $("shape").value };
}

function syncSize() {
  $("width").value = board.width;
  $("height").value = board.height;
  $("shape").value = board.shape;
}

async function start() {
  $("engine").replaceChildren(...CONFIG.engines.map((name) => new Option(name)));
  $("width").max = $("height").max = CONFIG.limits.max_side;
  $("time-limit").placeholder = CONFIG.limits.time_limit;
  document.querySelector("label[for=time-limit]").textContent = `Time limit (s, at most ${CONFIG.limits.max_time_limit})`;
  $("time-limit").max = CONFIG.limits.max_time_limit;
  $("limit").max = CONFIG.limits.max_count;
  $("board-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const size = readSize();
    if (!size) return;
    board = emptyBoard(size.width, size.height, size.shape);
    named = "puzzle";
    cursor = [0, 0];
    showShot(null);
    changed();
    say("Place endpoints, or Generate a puzzle.");
  });
  $("editor").addEventListener("click", onClick);
  $("editor").addEventListener("keydown", onKey);
  for (const kind of ["solve", "unique", "count"]) $(kind).addEventListener("click", () => ask(kind));
  $("fix").addEventListener("click", fix);
  $("generate").addEventListener("click", generate);
  $("clear").addEventListener("click", () => {
    board = emptyBoard(board.width, board.height, board.shape);
    named = "puzzle";
    showShot(null);
    changed();
    say("Cleared. Place endpoints, or Generate a puzzle.");
  });
  $("read").addEventListener("click", () => readText($("text").value, "pasted"));
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    $("file").value = "";
    if (file) await loadFile(file);
  });
  $("shot").addEventListener("change", async () => {
    const file = $("shot").files[0];
    $("shot").value = ""; // so that choosing the same file again imports it again
    if (file) await importShot(file);
  });
  dropFiles($("edit"));
  for (const kind of ["puzzle", "solution", "svg", "png"]) $(`get-${kind}`).addEventListener("click", () => download(kind));
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      say("Link copied: it opens this puzzle.");
    } catch (_) {
      showError(`Copy this address: ${location.href}`);
    }
  });
  const linked = location.hash.startsWith("#puzzle=") ? decodeURIComponent(location.hash.slice(8)) : "";
  draw();
  if (linked) {
    $("text").value = linked;
    await readText(linked, "link");
  }
  document.body.dataset.ready = "true";
}

start();
