"""The grid viewer's page: one self-contained HTML page (no network: the script and the style are
inline, the data a JSON island) that draws a value per starting-hand class, coloured. The equity
grid study fills it with its grid (``jobs.grid_view``), a solved spot with its action
frequencies (``solver.solution.Solution.grid``); it lives here, the lower of the two layers that
draw it, so that neither imports upward. ``__TITLE__`` and ``__DATA__`` are filled in."""

# Viridis at five stops; the page interpolates linearly between them (tests do the same).
COLOR_STOPS = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))

PAGE = r"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { font: 13px system-ui, sans-serif; margin: 12px; color: #222; }
#controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-bottom: 10px; }
#controls label { display: flex; gap: 4px; align-items: center; }
#rangeText { width: 100%; font-family: monospace; margin: 6px 0; min-height: 1.4em; word-break: break-word; }
#panels { display: flex; flex-wrap: wrap; gap: 14px; }
.panel h3 { margin: 2px 0; font-size: 13px; }
table.grid { border-collapse: collapse; }
table.grid td { border: 1px solid #ddd; padding: 0; vertical-align: top; }
table.grid td.empty { border: none; }
table.grid th { font-weight: 600; color: #555; padding: 0 4px; font-size: 11px; }
.cls { display: inline-block; min-width: 34px; height: 22px; line-height: 22px; text-align: center;
       font-size: 10px; margin: 1px; border-radius: 2px; cursor: default; }
.hold .cls { width: 40px; height: 30px; line-height: 30px; font-size: 11px; }
.cls.lit { outline: 3px solid #e4007c; outline-offset: -3px; }
.cls.found { outline: 3px solid #ff8c00; outline-offset: -3px; }
#tip { position: fixed; display: none; background: #fff; border: 1px solid #888; padding: 6px 8px;
       font-size: 12px; pointer-events: none; white-space: pre; box-shadow: 2px 2px 6px #0003; }
#legend { display: flex; align-items: center; gap: 6px; }
#bar { width: 160px; height: 12px; }
</style></head><body>
<h2 id="title">__TITLE__</h2>
<div id="controls">
  <label>colour by <select id="column"></select></label>
  <span id="legend"><span id="lo"></span><canvas id="bar" width="160" height="12"></canvas><span id="hi"></span></span>
  <label>find <input id="search" placeholder="AKQ aab or As Ks Qh" size="16"></label>
  <label>top <input id="slider" type="range" min="0" max="100" step="0.5" value="0"> <span id="pct">0 %</span></label>
  <label>range <input id="range" placeholder="QQ+, AKs, AA*, AxKxQy, 10%" size="28"></label>
  <span id="status"></span>
</div>
<div id="rangeText"></div>
<div id="panels"></div>
<div id="tip"></div>
<script id="data" type="application/json">__DATA__</script>
<script>
(() => {
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const RANKS = "AKQJT98765432";
const SUITS = "shdc";
const byName = new Map(D.classes.map(c => [c.class, c]));
const total = D.classes.reduce((s, c) => s + c.combos, 0);
let column = D.columns[0];

function rgb(t) {
  const s = D.stops, x = Math.min(Math.max(t, 0), 1) * (s.length - 1);
  const i = Math.min(Math.floor(x), s.length - 2), f = x - i;
  return s[i].map((a, k) => Math.round(a + (s[i + 1][k] - a) * f));
}
function fmt(key, v) {
  if (typeof v !== "number") return String(v);
  if (key === "combos" || key === "hands") return v.toLocaleString("en-US");
  if (key.endsWith("_se")) return (100 * v).toFixed(3) + " %";
  return (100 * v).toFixed(3) + " %";
}
function pattern(name) {  // "AKQ aab" -> "AxKxQy"; "AKs" stays
  if (D.hole_cards === 2) return name;
  const [ranks, suits] = name.split(" ");
  const vars = "xyzw";
  return [...ranks].map((r, i) => r + vars["abcd".indexOf(suits[i])]).join("");
}
function box(c) {
  const el = document.createElement("span");
  el.className = "cls";
  el.dataset.name = c.class;
  el.textContent = D.hole_cards === 2 ? c.class : c.class.split(" ")[1];
  el.addEventListener("mousemove", e => showTip(e, c));
  el.addEventListener("mouseleave", () => { tip.style.display = "none"; });
  c.el = el;
  return el;
}
const tip = document.getElementById("tip");
function showTip(e, c) {
  const lines = [c.class + "   e.g. " + c.example];
  for (const [k, v] of Object.entries(c)) if (!["class", "example", "el"].includes(k)) lines.push(k + ": " + fmt(k, v));
  tip.textContent = lines.join("\n");
  tip.style.display = "block";
  tip.style.left = (e.clientX + 14) + "px";
  tip.style.top = (e.clientY + 14) + "px";
}
function build() {
  const panels = document.getElementById("panels");
  if (D.hole_cards === 2) {
    const t = document.createElement("table"); t.className = "grid hold";
    for (let i = 0; i < 13; i++) {
      const tr = t.insertRow();
      for (let j = 0; j < 13; j++) {
        const a = RANKS[Math.min(i, j)], b = RANKS[Math.max(i, j)];
        const name = i === j ? a + a : a + b + (i < j ? "s" : "o");
        const td = tr.insertCell();
        if (byName.has(name)) td.appendChild(box(byName.get(name)));
      }
    }
    const p = document.createElement("div"); p.className = "panel hold"; p.appendChild(t); panels.appendChild(p);
    return;
  }
  const cells = new Map();
  for (const c of D.classes) {
    const key = c.class.split(" ")[0];
    if (!cells.has(key)) cells.set(key, []);
    cells.get(key).push(c);
  }
  for (let a = 0; a < 13; a++) {
    const p = document.createElement("div"); p.className = "panel";
    const h = document.createElement("h3"); h.textContent = RANKS[a] + " high"; p.appendChild(h);
    const t = document.createElement("table"); t.className = "grid";
    const head = t.insertRow();
    head.appendChild(document.createElement("th"));
    for (let c = a; c < 13; c++) { const th = document.createElement("th"); th.textContent = RANKS[c]; head.appendChild(th); }
    for (let b = a; b < 13; b++) {
      const tr = t.insertRow();
      const th = document.createElement("th"); th.textContent = RANKS[a] + RANKS[b]; tr.appendChild(th);
      for (let c = a; c < 13; c++) {
        const td = tr.insertCell();
        if (c < b) { td.className = "empty"; continue; }
        const list = cells.get(RANKS[a] + RANKS[b] + RANKS[c]) || [];
        td.title = RANKS[a] + RANKS[b] + RANKS[c];
        for (const cl of list.sort((x, y) => x.class < y.class ? -1 : 1)) td.appendChild(box(cl));
      }
    }
    p.appendChild(t); panels.appendChild(p);
  }
}
function paint() {
  const vals = D.classes.map(c => c[column]).filter(v => typeof v === "number");
  const lo = Math.min(...vals), hi = Math.max(...vals);
  for (const c of D.classes) {
    const t = hi > lo ? (c[column] - lo) / (hi - lo) : 0;
    const [r, g, b] = rgb(t);
    c.el.style.background = `rgb(${r},${g},${b})`;
    c.el.style.color = t > 0.6 ? "#000" : "#fff";
  }
  document.getElementById("lo").textContent = fmt(column, lo);
  document.getElementById("hi").textContent = fmt(column, hi);
  const bar = document.getElementById("bar").getContext("2d");
  for (let x = 0; x < 160; x++) { const [r, g, b] = rgb(x / 159); bar.fillStyle = `rgb(${r},${g},${b})`; bar.fillRect(x, 0, 1, 12); }
}
function light(names, text) {
  for (const c of D.classes) c.el.classList.toggle("lit", names.has(c.class));
  const combos = D.classes.filter(c => names.has(c.class)).reduce((s, c) => s + c.combos, 0);
  document.getElementById("rangeText").textContent = text;
  document.getElementById("status").textContent =
    names.size ? `${names.size} classes, ${combos.toLocaleString("en-US")} hands, ${(100 * combos / total).toFixed(2)} %` : "";
}
function topClasses(percent) {  // whole classes, best first, until N % of all hands (as evaluator.ranges.top_percent)
  const sorted = [...D.classes].sort((x, y) => y[column] - x[column]);
  const names = new Set(); let n = 0;
  for (const c of sorted) { if (n >= total * percent / 100) break; names.add(c.class); n += c.combos; }
  return names;
}
function classOfCards(text) {
  const cards = text.trim().split(/[\s,]+/).filter(Boolean);
  if (cards.length !== D.hole_cards || !cards.every(t => /^[2-9TJQKA][shdc]$/i.test(t))) return null;
  const parsed = cards.map(t => ({ r: RANKS.indexOf(t[0].toUpperCase()), s: t[1].toLowerCase() }));
  if (D.hole_cards === 2) {
    const [a, b] = parsed.sort((x, y) => x.r - y.r);
    return a.r === b.r ? RANKS[a.r] + RANKS[a.r] : RANKS[a.r] + RANKS[b.r] + (a.s === b.s ? "s" : "o");
  }
  const perms = (xs) => xs.length <= 1 ? [xs] : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map(p => [x, ...p]));
  for (const p of perms(parsed)) {
    if (!p.every((c, i) => i === 0 || p[i - 1].r <= c.r)) continue;
    const seen = []; const pat = p.map(c => { if (!seen.includes(c.s)) seen.push(c.s); return "abcd"[seen.indexOf(c.s)]; }).join("");
    const name = p.map(c => RANKS[c.r]).join("") + " " + pat;
    if (byName.has(name)) return name;
  }
  return null;
}
function expandHoldem(token) {  // QQ+, 22-55, AKs, AKo, AK, A2s+, A5s-A2s
  const r = ch => RANKS.indexOf(ch);
  const out = [], t = token.toUpperCase().replace(/S$/, "s").replace(/O$/, "o");
  let m;
  if ((m = t.match(/^([2-9TJQKA])\1(\+)?$/))) { for (let i = r(m[1]); i >= (m[2] ? 0 : r(m[1])); i--) out.push(RANKS[i] + RANKS[i]); return out; }
  if ((m = t.match(/^([2-9TJQKA])\1-([2-9TJQKA])\3$/))) { const [a, b] = [r(m[1]), r(m[3])].sort((x, y) => x - y); for (let i = a; i <= b; i++) out.push(RANKS[i] + RANKS[i]); return out; }
  const kinds = s => s ? [s] : ["s", "o"];
  if ((m = t.match(/^([2-9TJQKA])([2-9TJQKA])([so])?(\+)?$/)) && m[1] !== m[2]) {
    const [hi, lo] = [r(m[1]), r(m[2])].sort((x, y) => x - y);
    for (let k = lo; k > (m[4] ? hi : lo - 1); k--) for (const s of kinds(m[3])) out.push(RANKS[hi] + RANKS[k] + s);
    return out;
  }
  if ((m = t.match(/^([2-9TJQKA])([2-9TJQKA])([so])?-\1([2-9TJQKA])\3?$/))) {
    const [a, b] = [r(m[2]), r(m[4])].sort((x, y) => x - y);
    for (let k = a; k <= b; k++) if (k > r(m[1])) for (const s of kinds(m[3])) out.push(m[1] + RANKS[k] + s);
    return out;
  }
  return null;
}
function matchesPattern(specs, c) {  // specs: [[rank or "*", variable or ""]]; suits are relabelled, so the example decides
  const cards = c.example.split(" ").map(t => ({ r: t[0], s: t[1] }));
  const perms = (xs) => xs.length <= 1 ? [xs] : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map(q => [x, ...q]));
  return perms(cards).some(p => {
    const bind = new Map();
    return specs.every(([r, v], i) => {
      if (r !== "*" && p[i].r !== r) return false;
      if (!v) return true;
      if (bind.has(v)) return bind.get(v) === p[i].s;
      if ([...bind.values()].includes(p[i].s)) return false;
      bind.set(v, p[i].s); return true;
    });
  });
}
function patternSpecs(tok) {
  if (!/^([2-9TJQKA*][wxyz]?|[wxyz])+$/.test(tok)) return null;
  const specs = [...tok.matchAll(/([2-9TJQKA*])([wxyz])?|([wxyz])/g)].map(m => m[3] ? ["*", m[3]] : [m[1], m[2] || ""]);
  if (specs.length > D.hole_cards) return null;
  while (specs.length < D.hole_cards) specs.push(["*", ""]);
  return specs;
}
function parseRange(text) {
  const names = new Set();
  for (const raw of text.split(",")) {
    const tok = raw.trim();
    if (!tok) continue;
    let m;
    if ((m = tok.match(/^(\d+(?:\.\d+)?)%$/))) { topClasses(parseFloat(m[1])).forEach(n => names.add(n)); continue; }
    if (byName.has(tok)) { names.add(tok); continue; }
    const fromCards = classOfCards(tok);
    if (fromCards) { names.add(fromCards); continue; }
    if (D.hole_cards === 2) { const h = expandHoldem(tok); if (h) { h.forEach(n => byName.has(n) && names.add(n)); continue; } }
    const specs = patternSpecs(tok.replace(/\s+/g, ""));
    if (specs) { D.classes.filter(c => matchesPattern(specs, c)).forEach(c => names.add(c.class)); continue; }
    return { error: `not understood: ${tok}` };
  }
  return { names };
}
build();
const sel = document.getElementById("column");
for (const c of D.columns) { const o = document.createElement("option"); o.value = o.textContent = c; sel.appendChild(o); }
sel.addEventListener("change", () => { column = sel.value; paint(); slide(); });
function slide() {
  const v = parseFloat(document.getElementById("slider").value);
  document.getElementById("pct").textContent = v + " %";
  if (!v) { light(new Set(), ""); return; }
  const names = topClasses(v);
  const order = D.classes.filter(c => names.has(c.class)).sort((x, y) => y[column] - x[column]);
  light(names, order.map(c => pattern(c.class)).join(", "));
}
document.getElementById("slider").addEventListener("input", slide);
document.getElementById("search").addEventListener("input", e => {
  const text = e.target.value.trim();
  const name = byName.has(text) ? text : classOfCards(text);
  for (const c of D.classes) c.el.classList.toggle("found", c.class === name);
  if (name) byName.get(name).el.scrollIntoView({ block: "center", inline: "center" });
  document.getElementById("status").textContent = text && !name ? "no such class" : "";
});
document.getElementById("range").addEventListener("input", e => {
  const r = parseRange(e.target.value);
  if (r.error) { document.getElementById("status").textContent = r.error; return; }
  light(r.names, e.target.value);
});
paint();
})();
</script></body></html>
"""
