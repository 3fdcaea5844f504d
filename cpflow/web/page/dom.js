// The page's elements: one by its id, and SVG elements made in a drawing.

export const $ = (id) => document.getElementById(id);

const SVG = "http://www.w3.org/2000/svg";

export function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}

export const pts = (points) => points.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");
