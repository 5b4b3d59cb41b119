// disputatio page: vanilla JS, no network beyond this server. Streams a debate's moves over
// server-sent events (read with fetch so the API key travels in a header), resumes a dropped
// stream from the last event id, and renders verdicts, referee keys and the RDC graph.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = { key: localStorage.getItem("disputatio.key") || "", caseId: null, lastId: 0,
  protocol: null, abort: null, sections: {}, sources: {} };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined) node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

async function api(path, options = {}) {
  const headers = { "X-API-Key": state.key, ...(options.headers || {}) };
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(options.json);
  }
  const resp = await fetch(path, { ...options, headers });
  if (resp.status === 204) return null;
  const body = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    const err = body.error || {};
    throw new Error(`${err.code || resp.status}: ${err.message || resp.statusText}`);
  }
  return body;
}

// ---- citations: [id] in text becomes a button that opens the section and its source ----------
const CITE_RE = /\[([A-Za-z0-9][\w.:#\/-]*)\]/g;

function withCitations(text) {
  const out = [];
  let last = 0;
  for (const m of String(text ?? "").matchAll(CITE_RE)) {
    out.push(text.slice(last, m.index));
    out.push(citeButton(m[1]));
    last = m.index + m[0].length;
  }
  out.push(String(text ?? "").slice(last));
  return out;
}

function citeButton(id, label) {
  return el("button", { type: "button", class: "cite", "data-cite": id,
    "aria-label": `open source ${id}`, onclick: () => openSource(id) }, label || `[${id}]`);
}

async function openSource(id) {
  const dlg = $("#source");
  $("#source-title").textContent = `Section ${id}`;
  $("#source-meta").textContent = "loading…";
  $("#source-text").textContent = state.sections[id]?.text || "";
  $("#source-doc").hidden = true;
  dlg.showModal();
  try {
    const s = await api(`/sections/${encodeURIComponent(id)}`);
    const where = [s.title, s.source_uri && s.source_uri.split("/").pop(),
      s.page ? `page ${s.page}` : null, (s.heading_path || []).join(" › ")].filter(Boolean);
    $("#source-meta").textContent = where.join(" · ");
    $("#source-text").textContent = s.text;
    const doc = $("#source-doc");
    doc.hidden = false;
    doc.onclick = async () => {
      const d = await api(`/documents/${s.document_id}`);
      $("#source-title").textContent = d.title || d.source_uri;
      $("#source-meta").textContent = `${d.source_uri} · collection ${d.collection}`;
      $("#source-text").textContent = d.markdown;
      doc.hidden = true;
    };
  } catch (e) {
    $("#source-meta").textContent = state.sections[id] ? "(snippet from the answer)" : String(e.message);
  }
}

// ---- moves ------------------------------------------------------------------------------
function moveText(m) {
  if (Array.isArray(m.checks)) {  // a cross-examination
    const lines = m.checks.map((c) => `${c.claim_id || c.claim}: ${c.verdict}${c.rationale ? ` (${c.rationale})` : ""}`);
    return [...lines, m.defense ? `Defense: ${m.defense}` : null].filter(Boolean).join("\n");
  }
  if (Array.isArray(m.claims) && m.claims.length) {  // a brief or an RDC move
    const head = m.summary || m.pitch || "";
    const claims = m.claims.map((c) => `• ${c.axis ? `${c.axis}: ` : ""}${c.text}` +
      (c.citations && c.citations.length ? ` ${c.citations.map((x) => `[${x}]`).join("")}` : ""));
    return [head, ...claims].filter(Boolean).join("\n");
  }
  if (m.question && m.answer !== undefined)  // an answered clarification
    return `${m.question} → ${Array.isArray(m.answer) ? m.answer.join(", ") : m.answer}`;
  if (Array.isArray(m.ranking)) return m.ranking.length ? `ranks ${m.ranking.join(" > ")}` : "abstains";
  const text = m.content ?? m.text ?? m.summary ?? m.answer ?? m.argument ?? m.pitch ?? m.question;
  if (text !== undefined && text !== null) return typeof text === "string" ? text : JSON.stringify(text);
  return JSON.stringify(m).slice(0, 600);
}

function moveCard(data) {
  const m = data.move || {};
  const who = m.agent || m.speaker || m.option || m.examiner || m.id || data.field;
  const kind = m.kind || m.role || (data.field || "").replace(/s$/, "");
  const meta = [m.round !== undefined ? `round ${m.round}` : null, m.node && m.node !== "root" ? `node ${m.node}` : null,
    m.phase || null].filter(Boolean).join(" · ");
  const text = moveText(m);
  const cites = [];
  for (const c of m.citations || []) {
    const id = typeof c === "string" ? c : c.id;
    if (id && !String(text).includes(`[${id}]`)) cites.push(citeButton(id));
  }
  return el("li", { class: `move ${kind}`, "data-seq": data.seq },
    el("header", {}, el("strong", {}, who), el("span", {}, kind), el("span", {}, meta)),
    el("p", {}, withCitations(text)), cites.length ? el("div", {}, "cites ", cites) : null);
}

function setStatus(s) {
  const b = $("#status");
  b.textContent = s;
  b.className = `badge ${s}`;
}

// ---- streaming --------------------------------------------------------------------------
async function follow(caseId, from = 0) {
  if (state.abort) state.abort.abort();
  const ctrl = new AbortController();
  state.abort = ctrl;
  state.lastId = from;
  for (let attempt = 0; attempt < 30 && !ctrl.signal.aborted; attempt++) {
    try {
      const resp = await fetch(`/debate/${caseId}/stream`, { signal: ctrl.signal,
        headers: { "X-API-Key": state.key, "Last-Event-ID": String(state.lastId) } });
      if (!resp.ok) throw new Error((await resp.json()).error?.message || resp.statusText);
      const ended = await readEvents(resp, caseId);
      if (ended) return;
    } catch (e) {
      if (ctrl.signal.aborted) return;
      setStatus("reconnecting");
    }
    await new Promise((r) => setTimeout(r, 1000));  // resume from state.lastId
  }
}

async function readEvents(resp, caseId) {
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    buf += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const ev = { event: "message", data: "" };
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const i = line.indexOf(":");
        const field = i < 0 ? line : line.slice(0, i);
        const val = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
        if (field === "data") ev.data += val; else ev[field] = val;
      }
      if (ev.event === "message" && !ev.data) continue;
      if (ev.id) state.lastId = Number(ev.id);
      const data = ev.data ? JSON.parse(ev.data) : null;
      if (handle(ev.event, data, caseId, ev.id)) return true;
    }
  }
}

function handle(type, data, caseId, seq) {
  if (type === "status") setStatus(data.status);
  else if (type === "move") {
    $("#moves").append(moveCard({ ...data, seq }));
    const list = $("#moves");
    list.scrollTop = list.scrollHeight;
  } else if (type === "interrupt") { setStatus("interrupted"); showPoll(caseId, data.value); }
  else if (type === "graph") drawGraph(data.graph);
  else if (type === "posterior") drawPosterior(data.posterior);
  else if (type === "plan") showPlan(data.plan);
  else if (type === "final") { setStatus("done"); showVerdict(data.verdict); }
  else if (type === "error") { setStatus("failed"); $("#answer").textContent = data.message; }
  else if (type === "end") { if (data.status) setStatus(data.status); loadSessions(); return true; }
  return false;
}

// ---- results ----------------------------------------------------------------------------
function sourceLabel(c) {
  return [c.title, c.source && c.source.split("/").pop(), c.page ? `p. ${c.page}` : null].filter(Boolean).join(" · ");
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

function claimItem(c) {
  const verdict = c.verdict || "none";
  const [mark] = VERDICTS[c.verdict] || ["·"];
  const cls = ["claim", verdict, c.dropped ? "dropped" : "", c.attributed ? "attributed" : ""].filter(Boolean).join(" ");
  const text = c.dropped ? el("del", { class: "claim-text" }, c.text) : el("span", { class: "claim-text" }, c.text);
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
    el("ol", { class: "claims", "aria-label": "the answer, claim by claim" }, claims.map(claimItem)),
    el("p", { class: "support muted" }, `support: ${summary}`));
}

function showVerdict(v) {
  if (!v) return;
  if (v.answer !== undefined) {
    const claims = v.claims || [];
    const head = v.consensus_type ? `Answer: ${v.answer}  (${v.consensus_type})` : null;
    if (claims.length) showAnswer(head, v.citations, claims);
    else showAnswer(v.answer + (v.consensus_type ? `  (${v.consensus_type})` : ""), v.citations);
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

function showPoll(caseId, value) {
  const box = $("#poll");
  box.hidden = false;
  const questions = (value && value.questions) || [];
  const form = el("form", { "aria-label": "clarification poll" }, el("h3", {}, "The planner asks"));
  questions.forEach((q, i) => {
    const name = q.id || `q${i + 1}`;
    if (q.choices && q.choices.length) {
      form.append(el("fieldset", {}, el("legend", {}, q.question),
        q.choices.map((c) => el("label", {}, el("input", { type: q.kind === "multi_choice" ? "checkbox" : "radio",
          name, value: c, required: q.kind === "multi_choice" ? null : "" }), " ", c))));
    } else {
      form.append(el("label", { for: `poll-${name}` }, q.question), el("input", { id: `poll-${name}`, name, required: "" }));
    }
  });
  form.append(el("button", { type: "submit" }, "Answer"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const answers = {};
    questions.forEach((q, i) => {
      const name = q.id || `q${i + 1}`;
      const inputs = [...form.querySelectorAll(`[name="${name}"]`)];
      const picked = inputs.filter((x) => (x.type === "radio" || x.type === "checkbox" ? x.checked : true)).map((x) => x.value);
      answers[name] = q.kind === "multi_choice" ? picked : picked[0] || "";
    });
    try {
      await api(`/debate/${caseId}/clarify`, { method: "POST", json: { answers } });
      box.hidden = true;
      box.replaceChildren();
      setStatus("running");
    } catch (err) { $("#ask-error").textContent = err.message; }
  });
  box.replaceChildren(form);
  form.querySelector("input")?.focus();
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

// ---- actions ----------------------------------------------------------------------------
function reset() {
  $("#moves").replaceChildren();
  $("#answer").replaceChildren("No answer yet.");
  $("#answer").classList.add("muted");
  $("#citations").replaceChildren();
  $("#referee-view").replaceChildren();
  $("#rdc-view").replaceChildren();
  $("#poll").hidden = true;
  $("#ask-error").textContent = "";
  lastGraph = null; lastPosterior = {};
}

function parseOptions(protocol) {
  const lines = $("#options").value.split("\n").map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return undefined;
  if (protocol === "referee") return lines;
  if (lines.every((l) => /^[A-Za-z0-9]+\s*=/.test(l)))
    return Object.fromEntries(lines.map((l) => { const i = l.indexOf("="); return [l.slice(0, i).trim(), l.slice(i + 1).trim()]; }));
  return protocol === "medrag" ? lines : undefined;
}

async function startDebate(e) {
  e.preventDefault();
  reset();
  const protocol = $("#protocol").value;
  const body = { protocol };
  try {
    if (protocol === "rdc") body.case = JSON.parse($("#case").value);
    else body.question = $("#question").value.trim();
    const options = parseOptions(protocol);
    if (options && protocol !== "rdc") body.options = options;
    const started = await api("/debate/start", { method: "POST", json: body });
    state.caseId = started.case_id;
    setStatus("queued");
    follow(started.case_id, 0);
  } catch (err) { $("#ask-error").textContent = err.message; }
}

async function quickAnswer() {
  reset();
  setStatus("querying");
  try {
    const r = await api("/query", { method: "POST", json: { query: $("#question").value.trim(), return_context: true } });
    if (r.answer === null) {
      setStatus("refused");
      $("#answer").textContent = `${r.error.code}: ${r.error.message} (best score ${fmt(r.error.max_rerank_score)})`;
      return;
    }
    for (const c of r.contexts || []) {
      state.sections[c.parent_chunk_id] = { text: c.snippet };
      state.sources[c.parent_chunk_id] = sourceLabel(c.metadata);
    }
    showAnswer(r.claims && r.claims.length ? null : r.answer, (r.contexts || []).filter((c) => (r.citations || []).includes(c.parent_chunk_id)).map((c) =>
      ({ id: c.parent_chunk_id, title: c.metadata.title, source: c.metadata.source, page: c.metadata.page })), r.claims);
    setStatus("done");
  } catch (err) { setStatus("failed"); $("#ask-error").textContent = err.message; }
}

async function loadSessions() {
  if (!state.key) return;
  try {
    const { sessions } = await api("/sessions");
    $("#sessions").replaceChildren(...sessions.map((s) => el("li", {},
      el("button", { type: "button", onclick: () => { reset(); state.caseId = s.case_id; follow(s.case_id, 0); } },
        `${s.protocol}: ${s.question.slice(0, 80)}`),
      el("span", { class: `badge ${s.status}` }, s.status),
      el("span", { class: "muted" }, new Date(s.created_at).toLocaleString()),
      el("button", { type: "button", "aria-label": `delete session ${s.case_id}`, onclick: async () => {
        try { await api(`/sessions/${s.case_id}`, { method: "DELETE" }); loadSessions(); }
        catch (err) { $("#ask-error").textContent = err.message; } } }, "Delete"))));
    if (!sessions.length) $("#sessions").replaceChildren(el("li", { class: "muted" }, "No sessions yet."));
  } catch (err) { $("#sessions").replaceChildren(el("li", { class: "error" }, err.message)); }
}

async function checkHealth() {
  const h = $("#health");
  try {
    const r = await fetch("/health", { headers: { "X-API-Key": state.key } });
    const body = await r.json();
    if (r.status === 401) { h.textContent = "key refused"; return; }
    const channels = Object.entries(body.channels || {}).map(([n, c]) => `${n} ${c.ok ? "ok" : "down"}`).join(", ");
    h.textContent = `tenant ${body.tenant} · database ${body.database?.ok ? "ok" : "down"} · ${channels}`;
    loadSessions();
  } catch (err) { h.textContent = `server unreachable`; }
}

async function onProtocol() {
  const p = $("#protocol").value;
  $("#options-box").hidden = !(p === "medrag" || p === "referee" || p === "hierarchical");
  $("#case-box").hidden = p !== "rdc";
  $("#question").required = p !== "rdc";
  if (p === "rdc" && !$("#case").value && state.key) {
    try { const { cases } = await api("/debate/cases"); if (cases[0]) $("#case").value = JSON.stringify(cases[0], null, 2); }
    catch (err) { $("#ask-error").textContent = err.message; }
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("#api-key").value = state.key;
  $("#key-form").addEventListener("submit", (e) => {
    e.preventDefault();
    state.key = $("#api-key").value.trim();
    localStorage.setItem("disputatio.key", state.key);
    checkHealth();
  });
  $("#ask-form").addEventListener("submit", startDebate);
  $("#quick").addEventListener("click", quickAnswer);
  $("#protocol").addEventListener("change", onProtocol);
  $("#refresh").addEventListener("click", loadSessions);
  $("#question").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) $("#ask-form").requestSubmit();
  });
  onProtocol();
  if (state.key) checkHealth();
});
