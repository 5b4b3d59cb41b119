// disputatio page: vanilla JS, no network beyond this server. Streams a debate's moves over
// server-sent events (read with fetch so the API key travels in a header), resumes a dropped
// stream from the last event id, and hands moves to moves.js and results to results.js (both are
// loaded after this file and share its globals).
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = { key: localStorage.getItem("disputatio.key") || "", caseId: null, lastId: 0,
  protocol: null, abort: null, sections: {}, sources: {}, options: null, nodes: {},
  protocols: {} };  // GET /debate/protocols by name: what each protocol's request takes

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
    const where = [s.title, fileName(s), s.page ? `page ${s.page}` : null,
      (s.heading_path || []).join(" › ")].filter(Boolean);
    $("#source-meta").textContent = where.join(" · ");
    $("#source-text").textContent = s.text;
    const doc = $("#source-doc");
    doc.hidden = false;
    doc.onclick = async () => {
      const d = await api(`/documents/${s.document_id}`);
      $("#source-title").textContent = d.title || fileName(d) || "Document";
      $("#source-meta").textContent = [fileName(d), d.collection ? `collection ${d.collection}` : null]
        .filter(Boolean).join(" · ");
      $("#source-text").textContent = d.markdown;
      doc.hidden = true;
    };
  } catch (e) {
    $("#source-meta").textContent = state.sections[id] ? "(snippet from the answer)" : String(e.message);
  }
}

// The document's file name: the API's `file_name` when it gives one, else the last segment of its
// source (never a whole server path).
function fileName(d) {
  if (d.file_name) return d.file_name;
  const src = d.source_uri || d.source || "";
  return src ? src.split(/[\\/]/).filter(Boolean).pop() || null : null;
}

function badge(sel, s) {
  const b = $(sel);
  b.textContent = s;
  b.className = `badge ${s}`;
  b.hidden = false;
}
const setStatus = (s) => badge("#status", s);  // the debate's
const setAnswerStatus = (s) => badge("#answer-status", s);  // a quick answer's

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
  else if (type === "nodes") drawTree(data.nodes);
  else if (type === "move") {
    markNode(data.move);
    $("#moves").append(moveCard({ ...data, seq }));
    const list = $("#moves");
    list.scrollTop = list.scrollHeight;
  } else if (type === "interrupt") { setStatus("interrupted"); showPoll(caseId, data.value); }
  else if (type === "graph") drawGraph(data.graph);
  else if (type === "posterior") drawPosterior(data.posterior);
  else if (type === "plan") showPlan(data.plan);
  else if (type === "final") { setStatus("done"); showVerdict(data.verdict); }
  else if (type === "error") { setStatus("failed"); $("#answer").textContent = data.message; }
  else if (type === "end") {
    if (data.status) setStatus(data.status);
    if (Object.keys(state.nodes).length) loadTree(caseId);
    loadSessions();
    return true;
  }
  return false;
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
  $("#answer-status").hidden = true;
  drawTree({});
  state.options = null;
  lastGraph = null; lastPosterior = {};
}

async function loadTree(caseId) {  // the finished tree, node by node (GET /sessions/{id})
  try {
    const s = await api(`/sessions/${caseId}`);
    if (state.caseId === caseId) annotateTree((s.result || {}).tree);
  } catch (err) { $("#ask-error").textContent = err.message; }
}

async function openSession(caseId) {  // replay a past debate; its request names its options
  if (state.abort) state.abort.abort();
  reset();
  state.caseId = caseId;
  try {
    const s = await api(`/sessions/${caseId}`);
    state.options = (s.request || {}).options || null;
    state.protocol = s.protocol;
  } catch (err) { $("#ask-error").textContent = err.message; }
  follow(caseId, 0);
}

// The protocol's entry of GET /debate/protocols ({} until they are loaded).
const protocolOf = (name) => state.protocols[name] || {};
const takesCase = (name) => protocolOf(name).needs_question === false;  // a CASE, no question

// The options typed one per line, in the first shape the protocol takes: `letters` ({A: text},
// when every line is `A=…`) or `names` (a list); undefined when it takes neither.
function parseOptions(protocol) {
  const forms = protocolOf(protocol).option_forms || [];
  const lines = $("#options").value.split("\n").map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return undefined;
  if (forms.includes("letters") && lines.every((l) => /^[A-Za-z0-9]+\s*=/.test(l)))
    return Object.fromEntries(lines.map((l) => { const i = l.indexOf("="); return [l.slice(0, i).trim(), l.slice(i + 1).trim()]; }));
  return forms.includes("names") ? lines : undefined;
}

async function startDebate(e) {
  e.preventDefault();
  reset();
  const protocol = $("#protocol").value;
  const body = { protocol };
  try {
    if (takesCase(protocol)) body.case = JSON.parse($("#case").value);
    else body.question = $("#question").value.trim();
    const options = parseOptions(protocol);
    if (options) body.options = options;
    state.options = body.options || null;
    state.protocol = protocol;
    const started = await api("/debate/start", { method: "POST", json: body });
    state.caseId = started.case_id;
    setStatus("queued");
    follow(started.case_id, 0);
  } catch (err) { $("#ask-error").textContent = err.message; }
}

async function quickAnswer() {  // its status has its own badge: no debate runs
  if (state.abort) state.abort.abort();
  reset();
  state.caseId = null;
  setStatus("idle");
  setAnswerStatus("querying");
  try {
    const r = await api("/query", { method: "POST", json: { query: $("#question").value.trim(), return_context: true } });
    if (r.answer === null) {
      setAnswerStatus("refused");
      $("#answer").textContent = `${r.error.code}: ${r.error.message} (best score ${fmt(r.error.max_rerank_score)})`;
      return;
    }
    for (const c of r.contexts || []) {
      state.sections[c.parent_chunk_id] = { text: c.snippet };
      state.sources[c.parent_chunk_id] = sourceLabel(c.metadata);
    }
    showAnswer(r.claims && r.claims.length ? null : r.answer, (r.contexts || []).filter((c) => (r.citations || []).includes(c.parent_chunk_id)).map((c) =>
      ({ id: c.parent_chunk_id, title: c.metadata.title, file_name: c.metadata.file_name, source: c.metadata.source,
        page: c.metadata.page })), r.claims);
    setAnswerStatus("done");
  } catch (err) { setAnswerStatus("failed"); $("#ask-error").textContent = err.message; }
}

async function loadSessions() {
  if (!state.key) return;
  try {
    const { sessions } = await api("/sessions");
    $("#sessions").replaceChildren(...sessions.map((s) => el("li", {},
      el("button", { type: "button", onclick: () => openSession(s.case_id) },
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
    loadProtocols();
    loadSessions();
  } catch (err) { h.textContent = `server unreachable`; }
}

// The protocol choices, from the server's registry (in its order); the one chosen stays chosen.
async function loadProtocols() {
  try {
    const { protocols } = await api("/debate/protocols");
    const select = $("#protocol");
    const chosen = select.value;
    state.protocols = Object.fromEntries(protocols.map((p) => [p.protocol, p]));
    select.replaceChildren(...protocols.map((p) =>
      el("option", { value: p.protocol, title: p.description || null }, p.label)));
    if (state.protocols[chosen]) select.value = chosen;
    onProtocol();
  } catch (err) { $("#ask-error").textContent = err.message; }
}

async function onProtocol() {
  const p = $("#protocol").value;
  $("#options-box").hidden = !(protocolOf(p).option_forms || []).length;
  $("#case-box").hidden = !takesCase(p);
  $("#question").required = !takesCase(p);
  if (takesCase(p) && !$("#case").value && state.key) {
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
