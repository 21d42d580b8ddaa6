(function () {
  'use strict';
  // The index of an exported store: click a heading to sort by it (again to
  // reverse), type to keep the sessions holding every word.
  const body = document.querySelector('#ix tbody');
  const rows = Array.from(body.rows);
  const heads = document.querySelectorAll('#ix th');
  const num = { messages: true, cost: true };
  const count = document.getElementById('count'), none = document.getElementById('none');
  function value(tr, k) { const v = tr.querySelector('td[data-k="' + k + '"]').dataset.v; return num[k] ? +v : v; }
  heads.forEach((th) => th.addEventListener('click', () => {
    const k = th.dataset.k;
    const dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    heads.forEach((h) => h.setAttribute('aria-sort', 'none'));
    th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
    const sorted = rows.slice().sort((a, b) => {
      const x = value(a, k), y = value(b, k);
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    body.append(...sorted);
  }));
  const texts = rows.map((tr) => tr.textContent.toLowerCase());
  function filter() {
    const words = document.getElementById('q').value.toLowerCase().split(/\s+/).filter(Boolean);
    let n = 0;
    rows.forEach((tr, i) => { const ok = words.every((w) => texts[i].includes(w)); tr.hidden = !ok; if (ok) n++; });
    count.textContent = words.length ? n + ' of ' + rows.length : '';
    none.hidden = n > 0;
  }
  document.getElementById('q').addEventListener('input', filter);
  filter();
  document.documentElement.dataset.ready = '1';
})();
