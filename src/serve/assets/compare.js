// The drafts' comparison: a button per draft publishes it (the session's CSRF token guards it).
// A draft that would change fixtures of the season's published version is named with those
// changes first, and published only when asked a second time.
const chosen = document.getElementById("chosen");
async function publish(draft, confirm) {
  const r = await fetch(`/api/jobs/${chosen.dataset.job}/publish`, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": chosen.dataset.csrf }, body: JSON.stringify({ draft, confirm }) });
  const p = await r.json();
  chosen.textContent = "";
  if (r.ok) {
    chosen.append(`Draft ${draft} chosen and published as version ${p.number}: `);
    const a = document.createElement("a");
    a.href = p.url;
    a.textContent = location.origin + p.url;
    chosen.append(a);
    return;
  }
  const said = document.createElement("p");
  said.id = "undoes";
  said.textContent = p.error;
  chosen.append(said);
  if (r.status === 409 && p.changes) {
    const ul = document.createElement("ul");
    for (const c of p.changes) { const li = document.createElement("li"); li.textContent = c; ul.append(li); }
    const again = document.createElement("button");
    again.type = "button";
    again.id = "publishAnyway";
    again.textContent = `Publish draft ${draft} anyway`;
    again.onclick = () => publish(draft, true);
    chosen.append(ul, again);
  }
}
for (const b of document.querySelectorAll(".choose")) b.onclick = () => publish(Number(b.dataset.draft), false);
