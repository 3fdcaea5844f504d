// Puzzles out: the puzzle's text (as the server wrote it), the solution shown, the picture (SVG, PNG, drawn
// by the server), and a link that opens the puzzle.

import { problems } from "./board.js";
import { $ } from "./dom.js";
import { written } from "./session.js";
import { say, showError } from "./status.js";

async function download(page, kind) {
  const problem = problems(page.board);
  if (problem && kind !== "solution") return showError(problem);
  const { named, shown } = page;
  try {
    if (kind === "solution") return save(new Blob([shown.solutions[0]], { type: "text/plain" }), `${named}.solution.txt`);
    const puzzle = await written(page);
    if (puzzle === null) return;
    if (kind === "puzzle") return save(new Blob([puzzle], { type: "text/plain" }), `${named}.txt`);
    const blob = await page.api.job("api/render", { puzzle, solutions: shown.solutions.slice(0, 2), picture: kind }, "blob");
    if (blob) save(blob, `${named}${shown.solutions.length ? ".solution" : ""}.${kind}`);
  } catch (error) {
    showError(error.message);
  }
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

export function startDownloads(page) {
  for (const kind of ["puzzle", "solution", "svg", "png"]) $(`get-${kind}`).addEventListener("click", () => download(page, kind));
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      say("Link copied: it opens this puzzle.");
    } catch (_) {
      showError(`Copy this address: ${location.href}`);
    }
  });
}
