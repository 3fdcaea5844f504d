// The Generate panel: a puzzle with a proven unique solution, of the size, shape, variants and grade asked
// for (the grades are the server's, from the page's config), loaded into the editor and drawn.

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
    draw: true,
    ...($("colours").value.trim() ? { colours: $("colours").value.trim() } : {}),
    ...(limit ? { time_limit: limit } : {}),
  };
  try {
    const answer = await page.api.job("api/generate", body);
    if (!answer) return;
    await loadBoard(page, answer.board, `generated_${answer.width}x${answer.height}_${answer.seed}`);
    $("result").innerHTML = answer.svg;
    say(`Generated a ${answer.width}x${answer.height} puzzle with ${answer.colours} colours, proven unique (seed ${answer.seed}) · ${seconds(answer.seconds)}. Solve it yourself, or press Solve.`, "ok");
  } catch (error) {
    showError(error.message);
  }
}

export function startGenerate(page) {
  $("grade").append(...page.config.grades.map((grade) => new Option(grade)));
  $("generate").addEventListener("click", () => generate(page));
}
