// disputatio page: the answer claim by claim, verdicts, the referee's keys and the RDC graph.
"use strict";

function sourceLabel(c) {
  const name = fileName(c);
  return [c.title, name !== c.title ? name : null, c.page ? `p. ${c.page}` : null].filter(Boolean).join(" · ");
}

function showAnswer(text, citations, claims) {
  const a = $("#answer");
  a.classList.remove("muted");
  const ul = $("#citations");
  ul.replaceChildren();
  for (const c of citations || []) {
    const id = typeof c === "string" ? c : c.id;
    if (typeof c !== "string") state.sources[id] = sourceLabel(c);
    ul.append(el("li", {}, citeButton(id), " ", typeof c === "string" ? "" : sourceLabel(c)));
  }
  if (claims && claims.length) a.replaceChildren(...(text ? [el("p", { class: "verdict-line" }, text)] : []), claimList(claims));
  else a.replaceChildren(...withCitations(text || "(no answer)"));
}

// ---- claims: the answer sentence by sentence, each with the checker's verdict -------------------
const VERDICTS = {
  supported: ["✓", "supported by the sentence it cites"],
  unsupported: ["✗", "not supported by the sections it cites"],
  uncited: ["?", "cites nothing, and no shown sentence supports it"],
  not_found: ["∅", "the documents do not answer"],
};

function claimTitle(c) {
  const [, word] = VERDICTS[c.verdict] || ["", "states nothing to check"];
  const lines = [`${c.verdict || "not a factual claim"}: ${word}`];
  if (c.reason) lines.push(c.reason);
  if (c.attributed) lines.push("attributed: the checker, not the writer, found its source");
  for (const e of [c.evidence, ...(c.more_evidence || [])].filter(Boolean)) {
    const where = state.sources[e.section_id] || e.section_id;
    lines.push(`“${e.sentence}” — ${where}`);
  }
  if (c.dropped) lines.push("dropped from the answer");
  return lines.join("\n");
}

// The answer's own label ("Verdict: …", "Support:") is its layout, not part of the claim.
const LABEL_RE = /^\W*(?:final\s+)?(?:verdict|answer|support|evidence)\s*:\s*/i;
// a MedRAG answer's option marker (\boxed{A}), before or after the claim
const BOXED_RE = /\s*\\boxed\{[^{}\n]{0,40}\}\s*/g;
const shownText = (c) => String(c.text || "").replace(BOXED_RE, " ").trim().replace(LABEL_RE, "");
const isBareLabel = (c) => !c.verdict && !shownText(c).replace(/[\s.:]/g, "");

function claimItem(c) {
  const verdict = c.verdict || "none";
  const [mark] = VERDICTS[c.verdict] || ["·"];
  const cls = ["claim", verdict, c.dropped ? "dropped" : "", c.attributed ? "attributed" : ""].filter(Boolean).join(" ");
  const text = c.dropped ? el("del", { class: "claim-text" }, shownText(c)) : el("span", { class: "claim-text" }, shownText(c));
  return el("li", { class: cls, title: claimTitle(c), "data-verdict": verdict },
    el("span", { class: "mark", "aria-label": c.verdict ? c.verdict.replace("_", " ") : "not a factual claim" }, mark), " ",
    c.part && c.part !== "root" ? el("span", { class: "part muted" }, `${c.part}: `) : null, text, (c.citations || []).map((id) => citeButton(id)),
    c.attributed ? el("span", { class: "muted" }, " (attributed)") : null);
}

function claimList(claims) {
  const judged = claims.filter((c) => c.factual !== false && ["supported", "unsupported", "uncited"].includes(c.verdict));
  const supported = judged.filter((c) => c.verdict === "supported").length;
  const dropped = claims.filter((c) => c.dropped).length;
  const summary = judged.length ? `${supported} of ${judged.length} claim${judged.length === 1 ? "" : "s"} supported` +
    (dropped ? `; ${dropped} dropped` : "") : claims.some((c) => c.verdict === "not_found") ?
    "the documents do not answer" : "no factual claim";
  return el("div", { class: "claims-box" },
    el("ol", { class: "claims", "aria-label": "the answer, claim by claim" }, claims.filter((c) => !isBareLabel(c)).map(claimItem)),
    el("p", { class: "support muted" }, `support: ${summary}`));
}

function showVerdict(v) {
  if (!v) return;
  if (v.answer !== undefined) {
    const claims = v.claims || [];
    // a MedRAG verdict is an option's key: it reads with the option's text
    const how = [v.consensus_type, v.agreement_round ? `round ${v.agreement_round}` : null].filter(Boolean).join(", ");
    const head = v.consensus_type ? `Answer: ${optionText(v.answer) ?? "none"}${how ? `  (${how})` : ""}` : null;
    if (claims.length) showAnswer(head, v.citations, claims);
    else showAnswer(head || v.answer, v.citations);
  }
  if (v.confidence !== undefined && v.confidence !== null)
    $("#answer").append(el("div", { class: "muted" }, `confidence ${Number(v.confidence).toFixed(2)}`));
  if (v.ruling) showRuling(v.ruling, v.plan);
  if (v.verdict) showJury(v.verdict);
  if (v.answer === undefined && v.claims && v.claims.length) $("#answer").append(claimList(v.claims));
}

// Referee rendering keys: _Table{a|b;c|d}, _Poll{title:x=1,y=2}, _Score{axis:x=1,y=2}.
function splitEsc(s, sep) {
  const out = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\" && i + 1 < s.length) { cur += s[++i]; continue; }
    if (s[i] === sep) { out.push(cur); cur = ""; continue; }
    cur += s[i];
  }
  out.push(cur);
  return out;
}
function rawSplit(s, sep) {  // split on unescaped sep, keeping escapes for the next level
  const out = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\" && i + 1 < s.length) { cur += s[i] + s[i + 1]; i++; continue; }
    if (s[i] === sep) { out.push(cur); cur = ""; continue; }
    cur += s[i];
  }
  out.push(cur);
  return out;
}
function parseKeys(text) {
  const keys = [];
  const re = /_(Table|Poll|Score)\{((?:\\.|[^\\}])*)\}/g;
  for (const m of String(text || "").matchAll(re)) {
    if (m[1] === "Table") keys.push({ type: "table", rows: rawSplit(m[2], ";").map((r) => splitEsc(r, "|")) });
    else {
      const [head, ...rest] = rawSplit(m[2], ":");
      const values = rawSplit(rest.join(":"), ",").map((p) => {
        const [n, v] = rawSplit(p, "=");
        return { name: splitEsc(n, "\u0000")[0], value: Number(v) };
      });
      const name = splitEsc(head, "\u0000")[0];
      keys.push(m[1] === "Poll" ? { type: "poll", title: name, values } : { type: "score", axis: name, values });
    }
  }
  return keys;
}

function bars(values, max = 10, unit = "") {
  const shown = (v) => Number(v).toFixed(unit === "%" ? 1 : 2).replace(/\.0+$/, "") + unit;
  const box = el("div", { class: "bars", role: "img",
    "aria-label": values.map((v) => `${v.name} ${shown(v.value)}`).join(", ") });
  for (const v of values) {
    box.append(el("span", {}, v.name),
      el("div", { class: "bar", style: `width:${Math.max(0, Math.min(100, (100 * v.value) / max))}%` }),
      el("span", {}, shown(v.value)));
  }
  return box;
}

function table(rows) {
  const [head, ...body] = rows;
  return el("table", {}, el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, body.map((r) => el("tr", {}, r.map((c, i) => i === 0 ? el("th", { scope: "row" }, c) : el("td", {}, c))))));
}

function renderKey(k) {
  if (k.type === "table") return table(k.rows);
  if (k.type === "poll") return el("div", {}, el("h4", {}, k.title), bars(k.values));
  return el("div", {}, el("h4", {}, `score: ${k.axis}`), bars(k.values));
}

function showRuling(ruling, plan) {
  const box = $("#referee-view");
  box.replaceChildren(el("h3", {}, "Referee"));
  let keys = ruling.keys && ruling.keys.length ? ruling.keys : parseKeys(ruling.rendered);
  if (!keys.length && ruling.scores && ruling.scores.length) {  // structured scores of today
    const options = [...new Set(ruling.scores.map((s) => s.option))];
    const axes = [...new Set(ruling.scores.map((s) => s.axis))];
    const cell = (o, a) => ruling.scores.find((s) => s.option === o && s.axis === a)?.score ?? "–";
    keys = [{ type: "table", rows: [["Axis", ...options], ...axes.map((a) => [a, ...options.map((o) => String(cell(o, a)))])] }];
    if (ruling.totals && ruling.totals.length)
      keys.unshift({ type: "poll", title: "weighted score", values: ruling.totals.map((t) => ({ name: t.option, value: t.weighted_score })) });
  }
  for (const k of keys) box.append(renderKey(k));
  const prose = String(ruling.rendered || "").replace(/_(Table|Poll|Score)\{(?:\\.|[^\\}])*\}/g, "").trim();
  if (prose) box.append(el("p", { class: "answer" }, withCitations(prose)));
  if (ruling.recommendation) {
    $("#answer").classList.remove("muted");
    $("#answer").replaceChildren(`Recommendation: ${ruling.recommendation}` +
      (ruling.confidence ? ` (confidence ${ruling.confidence})` : ""));
  }
}

function showPlan(plan) {
  if (!plan || !plan.options) return;
  const box = $("#referee-view");
  box.replaceChildren(el("h3", {}, "Referee plan"),
    el("p", {}, `Options: ${plan.options.map((o) => o.name || o).join(", ")}`),
    plan.axes ? el("p", {}, `Axes: ${plan.axes.map((a) => `${a.name} (${a.weight})`).join(", ")}`) : null);
}

// ---- RDC: the debate graph with posteriors, and the jury's verdict -------------------------
let lastGraph = null, lastPosterior = {};
function drawPosterior(p) { lastPosterior = p || {}; if (lastGraph) drawGraph(lastGraph); }
function drawGraph(g) {
  lastGraph = g;
  const nodes = g.nodes || [], edges = g.edges || [];
  const W = 560, H = 360, cx = W / 2, cy = H / 2;
  const hyps = nodes.filter((n) => n.kind === "hypothesis");
  const others = nodes.filter((n) => n.kind !== "hypothesis");
  const pos = {};
  hyps.forEach((n, i) => { pos[n.id] = [cx + 90 * Math.cos((2 * Math.PI * i) / hyps.length), cy + 70 * Math.sin((2 * Math.PI * i) / hyps.length)]; });
  others.forEach((n, i) => { pos[n.id] = [cx + 240 * Math.cos((2 * Math.PI * i) / Math.max(others.length, 1)), cy + 150 * Math.sin((2 * Math.PI * i) / Math.max(others.length, 1))]; });
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `debate graph: ${nodes.length} nodes, ${edges.length} edges`);
  const attrs = (node, values) => Object.entries(values).forEach(([k, v]) => node.setAttribute(k, v));
  for (const e of edges) {
    const a = pos[e.source], b = pos[e.target];
    if (!a || !b) continue;
    const line = document.createElementNS(ns, "line");
    attrs(line, { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: e.sign < 0 ? "#b3261e" : "#237a3b", "stroke-width": 1.5 });
    svg.append(line);
  }
  // hypotheses: name and posterior under the circle; other nodes: a number, named in the
  // legend below (long labels beside the dots ran over each other and off the edge)
  const labels = [];
  const legend = el("ol", { class: "legend", "aria-label": "graph nodes" });
  let number = 0;
  for (const n of nodes) {
    const [x, y] = pos[n.id];
    const c = document.createElementNS(ns, "circle");
    const p = lastPosterior[n.id];
    const hyp = n.kind === "hypothesis";
    const r = hyp ? 10 + 25 * (p ?? n.prior ?? 0.2) : 7;
    attrs(c, { cx: x, cy: y, r, fill: hyp ? "#1f5fbf" : "#8a94a8", opacity: 0.85 });
    const title = document.createElementNS(ns, "title");
    title.textContent = n.label || n.id;
    c.append(title);
    svg.append(c);
    const t = document.createElementNS(ns, "text");
    if (hyp) {
      attrs(t, { x, y: y + r + 14, "text-anchor": "middle", class: "hyp" });
      t.textContent = `${(n.label || n.id).slice(0, 30)}${p !== undefined ? ` ${(100 * p).toFixed(0)}%` : ""}`;
    } else {
      number += 1;
      attrs(t, { x, y: y - 11, "text-anchor": "middle" });
      t.textContent = String(number);
      legend.append(el("li", {}, n.label || n.id, n.kind ? el("span", { class: "muted" }, ` (${n.kind})`) : null));
    }
    labels.push(t);
  }
  svg.append(...labels);  // drawn last: above every circle and edge
  const box = $("#rdc-view");
  box.replaceChildren(el("h3", {}, "Debate graph (posteriors)"), svg);
  try {  // fit the view to what was drawn, labels included (none is cut at the edge)
    const bb = svg.getBBox();
    if (bb.width && bb.height) svg.setAttribute("viewBox", `${bb.x - 6} ${bb.y - 6} ${bb.width + 12} ${bb.height + 12}`);
  } catch (err) { /* not rendered: keep the default view */ }
  if (number) box.append(legend);
  if (Object.keys(lastPosterior).length) {
    const label = (id) => (nodes.find((n) => n.id === id) || {}).label || id;
    box.append(bars(Object.entries(lastPosterior).map(([id, value]) => ({ name: label(id), value: 100 * value })), 100, "%"));
  }
}

function showJury(v) {
  const box = $("#rdc-view");
  const rows = [["Hypothesis", "prior", "posterior"], ...(v.differential || []).map((r) =>
    [r.label || r.id, fmt(r.prior), fmt(r.posterior)])];
  box.append(el("h3", {}, "Jury verdict"), table(rows));
  if (v.test_plan && v.test_plan.length)
    box.append(el("h4", {}, "Test plan"), table([["test", "EIG (nats)", "utility"], ...v.test_plan.map((t) => [t.label, fmt(t.eig), fmt(t.utility)])]));
  $("#answer").classList.remove("muted");
  $("#answer").textContent = `Most likely: ${v.top}${v.halt_reason ? ` (stopped: ${v.halt_reason})` : ""}`;
}
const fmt = (x) => (x === null || x === undefined ? "–" : Number(x).toFixed(3));
