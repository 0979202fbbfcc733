for (const cal of document.querySelectorAll('fieldset.calendar')) {
  const count = cal.querySelector('p.count');
  if (!count) continue;
  const max = Number(count.dataset.max);
  const update = () => {
    const n = cal.querySelectorAll('input[type=checkbox]:checked').length;
    count.querySelector('.n').textContent = n;
    count.classList.toggle('over', max >= 0 && n > max);
  };
  cal.addEventListener('change', update);
}
