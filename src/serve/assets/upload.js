for (const f of document.querySelectorAll('form.upload')) {
  const file = f.querySelector('input[type=file]'), text = f.querySelector('textarea');
  file.addEventListener('change', async () => { if (file.files[0]) text.value = await file.files[0].text(); });
}
