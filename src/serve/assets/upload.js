// A league file or results chosen on the page fill the form's text box; an entries
// spreadsheet goes as base64 with its file name.
for (const f of document.querySelectorAll('form.upload')) {
  const file = f.querySelector('input[type=file]'), text = f.querySelector('textarea');
  file.addEventListener('change', async () => { if (file.files[0]) text.value = await file.files[0].text(); });
}
for (const f of document.querySelectorAll('form.entries')) {
  const file = f.querySelector('input[type=file]');
  file.addEventListener('change', async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    const bytes = new Uint8Array(await chosen.arrayBuffer());
    let raw = "";
    for (let i = 0; i < bytes.length; i += 0x8000) raw += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    f.querySelector("input[name=name]").value = chosen.name;
    f.querySelector("input[name=data]").value = btoa(raw);
  });
}
