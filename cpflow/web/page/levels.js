// Levels to play without making one: the project's own puzzles (`levels.json`, written by puzzles/levels.py
// with each one's size and grade), smallest first, in a picker grouped by size. Picking one reads it on the
// server (`api/read`), as a file is read, and starts Play on it. A link (or a reload) of a level's puzzle, as the
// board's writer writes it, shows that level picked. On a phone the picker shows the level picked as its name over
// its grade (`level-shown`, under the select, which takes the taps): "name · grade" on one line did not fit.

import { $ } from "./dom.js";
import { showShot } from "./files.js";
import { puzzleIn } from "./link.js";
import { loadBoard } from "./session.js";
import { say, showError } from "./status.js";

export async function startLevels(page) {
  const picker = $("level");
  let levels = [];
  const shown = () => {
    const level = levels[Number(picker.value)];
    const [name, grade] = $("level-shown").children;
    [name.textContent, grade.textContent] = picker.value && level ? [level.name, level.grade] : ["Pick a level…", ""];
  };
  const linked = () => {
    const i = levels.findIndex((level) => level.text === puzzleIn(location.hash));
    if (i >= 0) picker.value = String(i);
    shown();
  };
  page.hooks.on("link", linked); // heard before the levels arrive too: `linked` again once they have
  try {
    const response = await fetch("levels.json");
    if (response.ok) levels = await response.json();
  } catch (_) {} // no levels: the picker stays empty, Generate and the editor still work
  const groups = new Map();
  for (const [i, level] of levels.entries()) {
    const size = `${level.width}x${level.height}${level.shape === "hex" ? " hex" : ""}`;
    if (!groups.has(size)) groups.set(size, Object.assign(document.createElement("optgroup"), { label: size }));
    groups.get(size).append(new Option(`${level.name} · ${level.grade}`, String(i)));
  }
  picker.append(...groups.values());
  linked();
  let loading = false;
  page.hooks.on("changed", () => {
    if (!loading) picker.value = ""; // another board than the level picked
    shown();
  });
  picker.addEventListener("change", async () => {
    shown();
    const level = levels[Number(picker.value)];
    if (!picker.value || !level) return;
    loading = true;
    try {
      await play(page, level);
    } finally {
      loading = false;
    }
  });
}

async function play(page, level) {
  say(`Loading ${level.name}…`);
  try {
    const answer = await page.api.job("api/read", { puzzle: level.text, name: `${level.name}.txt` });
    if (!answer) return;
    showShot(null);
    await loadBoard(page, answer, level.name);
    const playing = page.hooks.emit("play", []).includes(true);
    const size = `${level.width}x${level.height}${level.shape === "hex" ? " hex" : ""}`;
    if (playing) say(`${level.name}: ${size}, ${level.grade}, ${Object.keys(answer.endpoints).length} colours. Drag from a dot to draw its path; fill every cell.`);
  } catch (error) {
    showError(error.message);
  }
}
