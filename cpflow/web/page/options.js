// The Options panel: the engine, the time limit, the count's limit and the rules' variants, each bounded
// by the server's caps (the page's config).

import { $ } from "./dom.js";

export function options() {
  // What every job is asked with: the engine, the rules, and the time limit if one is given.
  const limit = parseFloat($("time-limit").value);
  return {
    engine: $("engine").value,
    allow_touch: $("touch").checked,
    allow_blanks: $("blanks").checked,
    ...(limit > 0 ? { time_limit: limit } : {}),
  };
}

export function countLimit() {
  return Math.max(1, parseInt($("limit").value, 10) || 100);
}

export function startOptions(config) {
  const { limits } = config;
  $("engine").replaceChildren(...config.engines.map((name) => new Option(name)));
  $("width").max = $("height").max = limits.max_side;
  $("time-limit").placeholder = limits.time_limit;
  document.querySelector("label[for=time-limit]").textContent = `Time limit (s, at most ${limits.max_time_limit})`;
  $("time-limit").max = limits.max_time_limit;
  $("limit").max = limits.max_count;
}
