// disputatio page: each streamed move as a readable card (who, round, answer, rationale, cited
// ids; everything else in a collapsed "details"), and the hierarchical debate's sub-question tree.
"use strict";

// ---- options: "B" reads "B — blood culture" when the debate's options letter their text ---------
function optionText(choice) {
  if (choice === null || choice === undefined || choice === "") return null;
  const opts = state.options;
  if (opts && !Array.isArray(opts) && typeof opts === "object" && opts[choice] !== undefined)
    return `${choice} — ${opts[choice]}`;
  return String(choice);
}

// ---- moves ------------------------------------------------------------------------------
const ANSWER_LINE_RE = /^\s*(?:\**\s*)?answer[\s_-]*choice\s*[:=].*$/gim;

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
  if (typeof m.response === "string")  // a MedRAG turn: the rationale, its answer line apart
    return m.response.replace(ANSWER_LINE_RE, "").trim();
  const text = m.content ?? m.text ?? m.summary ?? m.argument ?? m.pitch ?? m.question ??
    (typeof m.answer === "string" ? m.answer : undefined);
  return typeof text === "string" ? text.replace(ANSWER_LINE_RE, "").trim() : "";
}

//: fields a card shows in its head or body (the rest go to its details)
const SHOWN = new Set(["agent", "speaker", "option", "examiner", "kind", "role", "round", "node",
  "phase", "checks", "defense", "claims", "summary", "pitch", "question", "answer", "ranking",
  "response", "content", "text", "argument", "citations", "choice", "raw", "labels"]);

function num(x) { return Number.isInteger(x) ? String(x) : Number(x).toFixed(1); }

function usageText(usage) {  // {agent: {calls, latency_ms, input_tokens, output_tokens}}
  return Object.entries(usage || {}).map(([who, u]) =>
    `${who}: ${u.calls ?? 1} call${u.calls === 1 ? "" : "s"}, ${u.input_tokens ?? "?"} → ` +
    `${u.output_tokens ?? "?"} tokens, ${num(u.latency_ms ?? 0)} ms`).join("; ");
}

function documentsList(xml, labels) {  // MedRAG's "<section id=… source=…>text</section>" blocks
  const re = /<section\s+id="([^"]*)"[^>]*>([\s\S]*?)<\/section>/g;
  const items = [...String(xml).matchAll(re)].map((d) => {
    const id = (labels || {})[d[1]] || d[1];
    return el("li", {}, citeButton(id), " ", d[2].trim());
  });
  return items.length ? el("ol", { class: "docs" }, items) : el("p", { class: "long" }, String(xml));
}

function detailValue(key, v, m) {
  if (key === "usage") return usageText(v);
  if (key === "documents") return documentsList(v, m.labels);
  if (key === "peers_text") return el("p", { class: "long" }, String(v).replace(/<\/?[a-z_]+[^>]*>/g, "").trim());
  if (key === "retrieval" && v && typeof v === "object") {
    const found = (v.ids || []).length;
    return [v.query ? `“${v.query}” → ` : "", v.refused ? "refused" : `${found} section${found === 1 ? "" : "s"}`,
      v.ms !== undefined ? ` in ${num(v.ms)} ms` : "", v.query_source ? ` (${v.query_source})` : ""].join("");
  }
  if (Array.isArray(v)) return v.map((x) => (typeof x === "object" ? detailValue("", x, m) : String(x))).join(", ");
  if (v && typeof v === "object")
    return Object.entries(v).map(([k, x]) => `${k}: ${typeof x === "object" && x !== null ? detailValue(k, x, m) : x}`).join("; ");
  if (typeof v === "number") return num(v);
  return String(v);
}

function moveDetails(m) {
  const rows = [];
  for (const [k, v] of Object.entries(m)) {
    if (SHOWN.has(k) || v === null || v === undefined || v === "" || (Array.isArray(v) && !v.length)) continue;
    if (v && typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length) continue;
    rows.push(el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, detailValue(k, v, m)));
  }
  return rows.length ? el("details", { class: "move-details" }, el("summary", {}, "details"), el("dl", {}, rows)) : null;
}

function moveCard(data) {
  const m = data.move || {};
  const who = m.agent || m.speaker || m.option || m.examiner || m.id || data.field;
  const kind = m.kind || m.role || (data.field || "").replace(/s$/, "");
  const meta = [m.round !== undefined ? `round ${m.round}` : null, m.node && m.node !== "root" ? `node ${m.node}` : null,
    m.phase || null].filter(Boolean).join(" · ");
  const text = moveText(m);
  const choice = m.choice ?? (typeof m.response === "string" ? m.raw : undefined);
  const cites = [];
  for (const c of m.citations || []) {
    const id = typeof c === "string" ? c : c.id;
    if (id && !String(text).includes(`[${id}]`)) cites.push(citeButton(id));
  }
  const node = m.node && state.nodes[m.node];
  return el("li", { class: `move ${kind}`, "data-seq": data.seq, "data-node": m.node || null,
    title: node ? `sub-question ${m.node}: ${node.question}` : null },
    el("header", {}, el("strong", {}, who), el("span", {}, kind), el("span", {}, meta)),
    choice ? el("p", { class: "move-answer" }, "Answer: ", el("strong", {}, optionText(choice))) : null,
    text ? el("p", { class: "rationale" }, withCitations(text)) : null,
    cites.length ? el("div", { class: "move-cites" }, "cites ", cites) : null,
    moveDetails(m));
}

// ---- the sub-question tree of the hierarchical debate (the `nodes` event) ---------------------
const NODE_STEP = { answer: "answered", debate: "debated", review: "reviewed", summary: "summarized",
  aggregate: "aggregated", plan: "planned" };

function treeItem(nodes, id, seen) {
  const n = nodes[id];
  seen.add(id);
  const kids = (n.children || []).filter((c) => nodes[c] && !seen.has(c));
  return el("li", { "data-node": id, "data-status": "waiting" },
    el("div", { class: "node" }, el("span", { class: "node-id" }, id === "root" ? "question" : id),
      el("span", { class: "node-q" }, n.question), el("span", { class: "badge node-status" }, "waiting")),
    kids.length ? el("ul", {}, kids.map((c) => treeItem(nodes, c, seen))) : null);
}

function drawTree(nodes) {
  state.nodes = nodes || {};
  const ids = Object.keys(state.nodes);
  const box = $("#tree-view");
  if (!ids.length) { box.replaceChildren(); box.hidden = true; return; }
  const root = state.nodes.root ? "root" : ids.find((id) => !state.nodes[id].parent) || ids[0];
  const seen = new Set();
  const tree = el("ul", { class: "tree", "aria-label": "sub-question tree" }, treeItem(state.nodes, root, seen));
  for (const id of ids) if (!seen.has(id)) tree.append(treeItem(state.nodes, id, seen));  // orphans stay visible
  box.replaceChildren(el("h3", {}, `Sub-questions (${ids.length - 1})`), tree);
  box.hidden = false;
}

function setNodeStatus(id, status) {
  const li = document.querySelector(`#tree-view li[data-node="${CSS.escape(id)}"]`);
  if (!li) return null;
  li.dataset.status = status;
  li.querySelector(":scope > .node > .node-status").textContent = status;
  return li;
}

function markNode(move) {  // a move on a node moves its badge on
  if (move && move.node && move.kind) setNodeStatus(move.node, NODE_STEP[move.kind] || move.kind);
}

function annotateTree(tree) {  // the finished run's tree: each node's status, answer, confidence
  for (const n of tree || []) {
    const li = setNodeStatus(n.id, n.status || "done");
    if (!li || !n.answer) continue;
    const head = li.querySelector(":scope > .node");
    head.querySelector(".node-answer")?.remove();
    const conf = n.confidence !== undefined && n.confidence !== null ? ` (confidence ${Number(n.confidence).toFixed(2)})` : "";
    head.append(el("details", { class: "node-answer" }, el("summary", {}, `answer${conf}`),
      el("p", {}, withCitations(n.answer))));
  }
}
