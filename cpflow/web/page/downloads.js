// Puzzles out: the puzzle's text (as the server wrote it), the solution shown, the picture (SVG, PNG, drawn
// by the server), and a link that opens the puzzle (Share).

import { isBlank, problems } from "./board.js";
import { $ } from "./dom.js";
import { linkOf } from "./link.js";
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
  $("share").addEventListener("click", () => share(page));
  page.hooks.on("changed", () => ($("shared").hidden = true)); // a link to the board before
  document.addEventListener("pointerdown", ({ target }) => {
    if (!$("shared").contains(target) && !$("share").contains(target)) $("shared").hidden = true; // shown over the page
  });
}

async function share(page) {
  // A link that opens the puzzle (link.js), copied; shown under the button too (over the page, until the next tap
  // elsewhere), to copy by hand where the browser refuses the clipboard (a page not served from this machine over
  // http, a permission refused).
  if (isBlank(page.board)) return showError("Nothing to share yet: place endpoints, pick a level or Generate one.");
  if (problems(page.board)) return showError(problems(page.board)); // a link to it would not open
  const text = await written(page);
  if (text === null) return;
  const link = location.origin + location.pathname + location.search + linkOf(text);
  $("share-link").value = link;
  $("shared").hidden = false;
  try {
    await navigator.clipboard.writeText(link);
    say("Link copied: it opens this puzzle.", "ok");
  } catch (_) {
    say("The browser did not let the page copy: copy the link shown under Share.", "unknown");
    $("share-link").focus();
    $("share-link").select();
  }
}
