// The Generate panel: a puzzle with a proven unique solution, of the size, shape, variants and grade asked
// for (the grades are the server's, from the page's config), loaded into the editor and played
// (Play starts on it, unless it has bridges). It is drawn once, on the board: the server's picture beside it
// would be a second copy.

import { seconds } from "./answers.js";
import { $ } from "./dom.js";
import { options } from "./options.js";
import { loadBoard, readSize } from "./session.js";
import { say, showError } from "./status.js";

const count = (id) => parseInt($(id).value, 10) || 0;

export async function generate(page) {
  const size = readSize(page);
  if (!size) return;
  say("Generating a puzzle with a proven unique solution…");
  const limit = options().time_limit;
  const body = {
    size: `${size.width}x${size.height}`,
    shape: size.shape,
    holes: count("holes"),
    walls: count("walls"),
    warps: count("warps"),
    bridges: count("gen-bridges"),
    ...($("grade").value ? { grade: $("grade").value } : {}),
    ...($("colours").value.trim() ? { colours: $("colours").value.trim() } : {}),
    ...(limit ? { time_limit: limit } : {}),
  };
  try {
    const answer = await page.api.job("api/generate", body);
    if (!answer) return;
    await loadBoard(page, answer.board, `generated_${answer.width}x${answer.height}_${answer.seed}`);
    const playing = !page.board.bridges.size && page.hooks.emit("play", []).includes(true);
    const next = playing ? "Drag from a dot to draw its path, or press Solve." : "Solve it yourself, or press Solve.";
    const an = /^(8|11x|18x)/.test(`${answer.width}x`) ? "an" : "a"; // an 8x8, an 11x11, an 18x18; a 5x5
    say(`Generated ${an} ${answer.width}x${answer.height} puzzle with ${answer.colours} colours, proven unique (seed ${answer.seed}) · ${seconds(answer.seconds)}. ${next}`, "ok");
  } catch (error) {
    showError(error.message);
  }
}

export function startGenerate(page) {
  $("grade").append(...page.config.grades.map((grade) => new Option(grade)));
  $("generate").addEventListener("click", () => generate(page));
}
