// A limit's form: shows only the fields its chosen kind reads. A field with a value or an
// error stays shown, so nothing typed is hidden; the server checks every field again.
const kind = document.getElementById('f-kind');
if (kind) {
  const fields = document.querySelectorAll('div.field[data-kinds]');
  const filled = (div) =>
    div.classList.contains('has-error') ||
    [...div.querySelectorAll('input, textarea, select')].some((e) =>
      e.type === 'checkbox' ? e.checked : e.value.trim() !== '');
  const update = () => {
    for (const div of fields) {
      const reads = div.dataset.kinds.split(' ').includes(kind.value);
      div.hidden = kind.value !== '' && !reads && !filled(div);
    }
  };
  kind.addEventListener('change', update);
  update();
}
