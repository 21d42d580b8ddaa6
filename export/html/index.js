(function () {
  'use strict';
  // The index of an exported site: sessions grouped by project. Click a
  // heading to sort every group by it (again to reverse); the filters keep
  // the sessions holding every word typed, of one project, between two days.
  const table = document.getElementById('ix');
  const groups = Array.from(table.tBodies);
  const rows = groups.flatMap((g) => Array.from(g.rows).filter((tr) => !tr.classList.contains('group')));
  const heads = table.querySelectorAll('thead th');
  const num = { messages: true, duration: true, tokens: true, cost: true };
  const $ = (id) => document.getElementById(id);
  const q = $('q'), proj = $('proj'), from = $('from'), to = $('to'), count = $('count'), none = $('none');
  function value(tr, k) { const v = tr.querySelector('td[data-k="' + k + '"]').dataset.v; return num[k] ? +v : v; }
  heads.forEach((th) => th.querySelector('button').addEventListener('click', () => {
    const k = th.dataset.k;
    const dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    heads.forEach((h) => h.setAttribute('aria-sort', 'none'));
    th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
    groups.forEach((g) => {
      const rs = Array.from(g.rows).filter((tr) => !tr.classList.contains('group'));
      rs.sort((a, b) => { const x = value(a, k), y = value(b, k); return (x < y ? -1 : x > y ? 1 : 0) * dir; });
      g.append(...rs);
    });
  }));
  // a row's text and its project's, so a word of the project keeps it
  const texts = rows.map((tr) => (tr.textContent + ' ' + tr.parentElement.dataset.project).toLowerCase());
  function filter() {
    const words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    const p = proj.value, f = from.value, t = to.value;
    let n = 0;
    rows.forEach((tr, i) => {
      const day = tr.dataset.day;
      const ok = words.every((w) => texts[i].includes(w)) &&
        (!p || tr.parentElement.dataset.project === p) &&
        (!f || (day && day >= f)) && (!t || (day && day <= t));
      tr.hidden = !ok;
      if (ok) n++;
    });
    groups.forEach((g) => { g.hidden = !Array.from(g.rows).some((tr) => !tr.hidden && !tr.classList.contains('group')); });
    count.textContent = (words.length || p || f || t) ? n + ' of ' + rows.length : '';
    none.hidden = n > 0;
  }
  [q, proj, from, to].forEach((el) => el.addEventListener('input', filter));
  $('filters').addEventListener('submit', (e) => e.preventDefault());
  filter();
  document.documentElement.dataset.ready = '1';
})();
