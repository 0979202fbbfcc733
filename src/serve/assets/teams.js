// Teams ticked by division: a button beside each division ticks all its teams, or unticks
// them when all are ticked (the form posts the ticks alone, with or without this script).
for (const division of document.querySelectorAll('fieldset.division')) {
  const boxes = [...division.querySelectorAll('input[type=checkbox]')];
  const name = division.querySelector('legend').textContent;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'tick-all';
  const all = () => boxes.every((b) => b.checked);
  const label = () => {
    button.textContent = (all() ? 'Untick all of ' : 'Tick all of ') + name;
  };
  button.addEventListener('click', () => {
    const tick = !all();
    for (const b of boxes) b.checked = tick;
    label();
    division.dispatchEvent(new Event('change', { bubbles: true }));
  });
  division.addEventListener('change', label);
  label();
  division.append(button);
}
