// The drafts' comparison: a button per draft publishes it (the session's CSRF token guards it).
const chosen = document.getElementById("chosen");
for (const b of document.querySelectorAll(".choose")) b.onclick = async () => {
  const r = await fetch(`/api/jobs/${chosen.dataset.job}/publish`, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": chosen.dataset.csrf }, body: JSON.stringify({ draft: Number(b.dataset.draft) }) });
  const p = await r.json();
  chosen.innerHTML = r.ok ? `Draft ${b.dataset.draft} chosen and published as version ${p.number}: <a href="${p.url}">${location.origin}${p.url}</a>` : p.error;
};
