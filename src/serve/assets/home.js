const $ = (id) => document.getElementById(id);
const csrf = document.querySelector('meta[name="csrf"]').content;
const opened = new URLSearchParams(location.search).get("league");
if (opened) (async () => {
  const r = await fetch(`/api/leagues/${encodeURIComponent(opened)}`);
  if (!r.ok) { $("errors").textContent = "That league is not yours or no longer exists."; return; }
  const l = await r.json();
  const v = await fetch(`/api/leagues/${l.id}/versions/${l.versions}`);
  if (v.ok) { $("league").value = await v.text(); $("state").textContent = `${l.name}, version ${l.versions}`; }
})();
$("file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (f) $("league").value = await f.text();
});
$("import").addEventListener("click", async () => {
  $("errors").textContent = ""; $("imported").textContent = "";
  const f = $("entries").files[0];
  if (!f) { $("errors").textContent = "Choose the entries file first."; return; }
  const bytes = new Uint8Array(await f.arrayBuffer());
  let bin = ""; for (const b of bytes) bin += String.fromCharCode(b);
  const r = await fetch("/api/import", { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ league: $("league").value, name: f.name, data: btoa(bin) }) });
  const body = await r.json();
  if (!r.ok) { $("errors").textContent = (body.messages || [body.error]).join("\n"); return; }
  $("league").value = body.league;
  $("imported").textContent = `Imported ${f.name}: the league file below has its teams.`;
});
// The rows of a CSV file (quoted fields with commas, quotes and line breaks read whole).
function csvRows(text) {
  const rows = []; let row = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field); field = ""; rows.push(row); row = [];
    } else field += c;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows.filter((r) => r.length > 1 || r[0] !== "");
}
// Text safe inside HTML.
// A date as every page writes it: 4 Dec 2026 (the service's short date).
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const day = (iso) => { const [y, m, d] = String(iso).split("-").map(Number); return d ? `${d} ${MONTHS[m - 1]} ${y}` : String(iso); };
// How much better a list could be, from the score and the best bound proved.
const headroom = (score, bound) => (score > 0 ? Math.max(0, (100 * (score - bound)) / score).toFixed(1) : "0.0");
// A line of a list's changes (status, division, old date, home, away, new date, home, away, why) in words.
function inWords(l) {
  const [status, division, od, oh, oa, nd, nh, na, why] = l;
  const what = (h, a) => `${h} v ${a} (${division})`;
  const t = status === "moved" ? `${what(nh || oh, na || oa)} moves from ${day(od)} to ${day(nd)}`
    : status === "scratched" ? `${what(oh, oa)} on ${day(od)} is dropped`
    : status === "new" ? `${what(nh, na)} is added on ${day(nd)}` : `${what(oh || nh, oa || na)}: ${status}`;
  return why ? `${t} (${why})` : t;
}
const html = (t) => String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
let timer = null;
$("solve").addEventListener("click", async () => {
  $("errors").textContent = "";
  $("figures").hidden = true; $("links").hidden = true; $("report").hidden = true;
  if (timer) clearInterval(timer);
  const limit = Number($("limit").value) || 30;
  const drafts = Number($("drafts").value) || 1;
  // The league this page opened or solved before, by its id (another league may share its name).
  const id = leagueId || opened;
  const r = id
    ? await fetch(`/api/jobs?time_limit=${limit}` + (drafts > 1 ? `&alternatives=${drafts}` : ""), { method: "POST", body: JSON.stringify({ league: $("league").value, league_id: id }), headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf } })
    : await fetch(`/api/jobs?time_limit=${limit}` + (drafts > 1 ? `&alternatives=${drafts}` : ""), { method: "POST", body: $("league").value, headers: { "X-CSRF-Token": csrf } });
  const body = await r.json();
  if (r.status === 429) { $("errors").textContent = "The service is busy: " + body.error + " (retry in " + (r.headers.get("Retry-After") || "a few") + " s)"; return; }
  if (!r.ok) { $("errors").textContent = (body.messages || [body.error]).join("\n"); return; }
  leagueId = body.league_id;
  watch(body.id, limit);
});
function watch(id, limit) {
  $("progressRow").hidden = false;
  timer = setInterval(async () => {
    const r = await fetch(`/api/jobs/${id}`);
    if (!r.ok) return;
    const s = await r.json();
    $("state").textContent = s.state;
    $("bar").value = Math.min(1, s.elapsed / limit);
    let text = `${s.elapsed.toFixed(1)} s of ${limit} s`;
    if (s.incumbent != null) text += `, score so far ${s.incumbent.toFixed(0)} (lower is better)`;
    if (s.incumbent != null && s.bound != null) text += `; no list can be more than ${headroom(s.incumbent, s.bound)}% better`;
    $("progressText").textContent = text;
    if (!["queued", "running"].includes(s.state)) { clearInterval(timer); finished(id, s); }
  }, 500);
}
function finished(id, s) {
  $("bar").value = 1;
  if (s.messages && s.messages.length) $("errors").textContent = s.messages.join("\n");
  if (s.state !== "done") return;
  const rows = [["Fixtures", s.fixtures], ["Keeps every rule", s.valid ? "yes" : "no"],
    ["Times a team plays two home or two away matches in a row", s.breaks],
    ["Score (lower is better)", s.incumbent != null ? s.incumbent.toFixed(0) : "-"],
    ["No list can be better by more than", s.gap != null ? (100 * s.gap).toFixed(1) + "%" : "-"]];
  $("figures").innerHTML = rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join("");
  $("figures").hidden = false;
  $("links").innerHTML = `<a href="/api/jobs/${id}/fixtures.csv" download="fixtures.csv">Download the fixture list (CSV)</a>
    <a href="/api/jobs/${id}/report/" target="_blank">Open the report</a>` +
    (s.drafts > 1 ? ` <a id="compareLink" href="/api/jobs/${id}/compare" target="_blank">Compare the ${s.drafts} drafts (for the committee)</a>` : "");
  $("links").hidden = false;
  $("report").src = `/api/jobs/${id}/report/`;
  $("report").hidden = false;
  $("publishing").hidden = false;
  const many = s.drafts > 1;
  $("draftChoice").hidden = !many; $("draftLabel").hidden = !many;
  $("draftChoice").innerHTML = many ? Array.from({ length: s.drafts }, (_, i) => `<option value="${i + 1}">draft ${i + 1}</option>`).join("") : "";
  $("publish").textContent = many ? "Choose and publish this draft" : "Publish this list";
  $("publish").onclick = () => publish(id);
  draftJob = id;
  loadDraft();
}
$("invite").addEventListener("click", async () => {
  const r = await fetch(`/api/leagues/${leagueId}/invitations`, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: "{}" });
  const body = await r.json();
  if (!r.ok) { $("errors").textContent = body.error; return; }
  const link = `${location.origin}/invite/${body.token}`;
  $("invitation").innerHTML = `Send this link to the committee member (it works once they log in): <a id="inviteLink" href="${link}">${link}</a>`;
});
let publication = null;
let leagueId = null;
async function publish(job, confirm) {
  const draft = $("draftChoice").hidden ? {} : { draft: Number($("draftChoice").value) };
  if (confirm) draft.confirm = true;
  const r = await fetch(`/api/jobs/${job}/publish`, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(draft) });
  const body = await r.json();
  // A list not made from the version in force: the changes it would make, and a second button.
  if (r.status === 409 && body.changes) {
    const shown = body.changes.slice(0, 40);
    $("published").innerHTML = `<p id="undoes">${html(body.error)}:</p><ul>${shown.map((c) => `<li>${html(c)}</li>`).join("")}</ul>` +
      (body.changes.length > shown.length ? `<p>and ${body.changes.length - shown.length} more.</p>` : "") +
      `<button type="button" id="publishAnyway">Publish anyway, with these changes</button>`;
    $("publishAnyway").onclick = () => publish(job, true);
    $("publishAnyway").focus();
    return;
  }
  if (!r.ok) { $("errors").textContent = (body.messages || [body.error]).join("\n"); return; }
  showPublication(body);
}
async function showPublication(p) {
  publication = p.id;
  $("published").innerHTML = `Version ${p.number} published: <a href="${p.url}" target="_blank">${location.origin}${p.url}</a>
    · <a href="${p.url}lms.csv" download="lms.csv">LMS import file</a>` +
    (leagueId ? ` · <a href="/leagues/${leagueId}#season">Run the season from the league's page</a>` : "");
  const csv = await (await fetch(`${p.url}fixtures.csv`)).text();
  const rows = csvRows(csv).slice(1);
  $("moveFixture").innerHTML = rows.map((f) => `<option value="${html(f[2])} v ${html(f[3])}" data-date="${html(f[0])}">${day(f[0])} ${html(f[2])} v ${html(f[3])}</option>`).join("");
  const teams = [...new Set(rows.flatMap((f) => [f[2], f[3]]))].sort();
  $("changeTeam").innerHTML = teams.map((t) => `<option>${html(t)}</option>`).join("");
  $("movePanel").hidden = false;
  $("moves").innerHTML = "";
}
$("showMoves").addEventListener("click", async () => {
  const fixture = $("moveFixture").value;
  let url = `/api/publications/${publication}/moves?fixture=${encodeURIComponent(fixture)}`;
  if ($("agreed").value) url += `&agreed=${$("agreed").value}`;
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) { $("errors").textContent = body.error; return; }
  const against = (c) => (c < 0 ? `better by ${(-c).toFixed(0)}` : c > 0 ? `worse by ${c.toFixed(0)}` : "the same");
  $("moves").innerHTML = `<tr><th>Date</th><th>Against the list now</th><th>What it costs</th><th>Rule 2.6</th><th></th></tr>` +
    body.moves.map((m, i) => `<tr><td>${day(m.date)}</td><td>${against(m.change)}</td><td>${html(m.costs.join("; ") || "no change for either team")}</td>
      <td>${html(m.window || "-")}</td><td><button type="button" data-date="${m.date}" class="moveHere">Move here</button></td></tr>`).join("");
  for (const b of document.querySelectorAll(".moveHere")) b.onclick = () => move(fixture, b.dataset.date);
});
// A withdrawal takes no date: rule 11.2 strikes out all the team's results; the rerun starts
// from the service's today.
$("changeKind").addEventListener("change", () => {
  const withdraw = $("changeKind").value === "withdraw";
  $("changeDate").hidden = withdraw; $("changeDateLabel").hidden = withdraw;
});
$("preview").addEventListener("click", async () => {
  const withdraw = $("changeKind").value === "withdraw";
  const team = $("changeTeam").value, date = withdraw ? document.querySelector('meta[name="today"]').content : $("changeDate").value;
  if (!date) { $("errors").textContent = "Give the date."; return; }
  // A postponement frees the date from the day itself; a withdrawal reruns from today.
  const spec = { league_id: leagueId, rerun_of: publication, from: date, time_limit: 10 };
  if ($("changeKind").value === "withdraw") spec.withdraw = [team]; else spec.unavailable = [`${team}=${date}`];
  await rerunPreview(spec);
});
// Runs a rerun job, shows what it moves (and how many stay), and offers to publish it.
async function rerunPreview(spec) {
  $("errors").textContent = ""; $("diff").innerHTML = ""; $("confirm").hidden = true;
  const r = await fetch("/api/jobs", { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(spec) });
  const job = await r.json();
  if (!r.ok) { $("errors").textContent = (job.messages || [job.error]).join("\n"); return false; }
  let s;
  do { await new Promise((ok) => setTimeout(ok, 500)); s = await (await fetch(`/api/jobs/${job.id}`)).json(); }
  while (["queued", "running"].includes(s.state));
  if (s.state !== "done") { $("errors").textContent = (s.messages || [s.state]).join("\n"); return false; }
  const diff = await (await fetch(`/api/jobs/${job.id}/files/fixtures.diff.csv`)).text();
  const lines = csvRows(diff);
  const changed = lines.slice(1).filter((l) => l[0] !== "unchanged");
  $("diff").innerHTML = `<tr><th>What changes for the clubs</th></tr>` +
    changed.map((l) => `<tr><td>${html(inWords(l))}</td></tr>`).join("") +
    `<tr><td>${lines.length - 1 - changed.length} fixtures unchanged</td></tr>`;
  $("confirm").hidden = false;
  $("confirm").onclick = async () => {
    const p = await fetch(`/api/jobs/${job.id}/publish`, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: "{}" });
    const body = await p.json();
    if (!p.ok) { $("errors").textContent = (body.messages || [body.error]).join("\n"); return; }
    $("confirm").hidden = true;
    showPublication(body);
  };
  return true;
}
// Rule 2.6 before publication: the chosen draft's fixtures, the changes the clubs agreed.
let draftJob = null, agreed = [];
function draftUrl() {
  return $("draftChoice").hidden ? `/api/jobs/${draftJob}/fixtures.csv` : `/api/jobs/${draftJob}/files/draft-${$("draftChoice").value}.csv`;
}
async function loadDraft() {
  // The chosen draft's own report and CSV, before it is chosen.
  if (!$("draftChoice").hidden) {
    const n = $("draftChoice").value;
    $("report").src = `/api/jobs/${draftJob}/drafts/${n}/report/`;
    const link = $("draftLinks") || Object.assign(document.createElement("span"), { id: "draftLinks" });
    link.innerHTML = ` <a href="/api/jobs/${draftJob}/files/draft-${n}.csv" download="draft-${n}.csv">Download draft ${n} (CSV)</a>
      <a href="/api/jobs/${draftJob}/drafts/${n}/report/" target="_blank">Open draft ${n}'s report</a>`;
    $("links").appendChild(link);
  }
  const csv = await (await fetch(draftUrl())).text();
  const rows = csvRows(csv).slice(1);
  $("agreedFixture").innerHTML = rows.map((f) => `<option value="${html(f[2])}\t${html(f[3])}" data-date="${html(f[0])}">${day(f[0])} ${html(f[2])} v ${html(f[3])}</option>`).join("");
  agreed = []; $("agreedList").innerHTML = ""; $("rerunAgreed").hidden = true;
  return csv;
}
$("draftChoice").addEventListener("change", loadDraft);
$("addAgreed").addEventListener("click", () => {
  const [home, away] = $("agreedFixture").value.split("\t");
  const date = $("agreedDate").value;
  if (!date) { $("errors").textContent = "Give the agreed date."; return; }
  agreed.push({ home, away, date });
  $("agreedList").innerHTML = agreed.map((a) => `<li>${html(a.home)} v ${html(a.away)} on ${day(a.date)}</li>`).join("");
  $("rerunAgreed").hidden = false;
});
$("rerunAgreed").addEventListener("click", async () => {
  const csv = await (await fetch(draftUrl())).text();
  const dates = csvRows(csv).slice(1).map((l) => l[0]).sort();
  const quote = (t) => JSON.stringify(t);
  const league = $("league").value.replace(/\s*$/, "\n") + agreed.map((a) =>
    `\n[[fixed]]\nhome = ${quote(a.home)}\naway = ${quote(a.away)}\ndate = ${a.date}\n`).join("");
  // Nothing is played before publication: the rerun may move fixtures from the draft's first
  // date, or from the earliest agreed date when that comes first.
  const from = [dates[0], ...agreed.map((a) => a.date)].sort()[0];
  if (await rerunPreview({ league, league_id: leagueId, current: csv, from, time_limit: 10 })) {
    $("league").value = league;
    agreed = []; $("agreedList").innerHTML = ""; $("rerunAgreed").hidden = true;
  }
});
async function move(fixture, date) {
  const req = { fixture, date };
  if ($("agreed").value) req.agreed = $("agreed").value;
  const r = await fetch(`/api/publications/${publication}/move`, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(req) });
  const body = await r.json();
  if (!r.ok) { $("errors").textContent = [body.error].concat(body.messages || []).join("\n"); return; }
  $("moved").innerHTML = `${html(fixture)} moved to ${day(date)}: <a href="${body.url}changes.csv" download="changes.csv">what changed</a>`;
  showPublication(body);
}
