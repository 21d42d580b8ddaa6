(async function () {
  'use strict';
  const $ = (s) => document.querySelector(s);
  const root = document.documentElement;
  const BATCH = 60;

  // Theme: follows prefers-color-scheme until the reader picks one.
  try { const t = localStorage.getItem('sesstool-theme'); if (t) root.dataset.theme = t; } catch (e) { /* storage may be off for file:// */ }
  $('#theme').addEventListener('click', () => {
    const dark = root.dataset.theme ? root.dataset.theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
    root.dataset.theme = dark ? 'light' : 'dark';
    try { localStorage.setItem('sesstool-theme', root.dataset.theme); } catch (e) { /* ignore */ }
  });

  // The entries are gzip-compressed JSON in base64; the browser inflates them.
  async function load() {
    const s = $('#data').textContent.replace(/\s+/g, '');
    const raw = atob(s);
    const bin = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bin[i] = raw.charCodeAt(i);
    const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'));
    return JSON.parse(await new Response(stream).text());
  }

  const D = await load();
  const N = D.nodes;
  const byId = new Map();
  const kids = N.map(() => []);
  N.forEach((n, i) => { byId.set(n.id, i); if (n.p >= 0 && n.p !== i) kids[n.p].push(i); });

  let leaf = D.leaf, path = [], onPath = new Set(), shown = [], rendered = 0, filter = 'default', query = [];

  function pathTo(i) {
    const out = [], seen = new Set();
    for (; i >= 0 && !seen.has(i); i = N[i].p) { seen.add(i); out.push(i); }
    return out.reverse();
  }
  // newestLeaf is the last entry in source order below i: where that branch resumes.
  function newestLeaf(i) {
    let best = -1; const st = [i], seen = new Set();
    while (st.length) {
      const j = st.pop();
      if (seen.has(j)) continue; seen.add(j);
      if (kids[j].length === 0) { if (j > best) best = j; } else st.push(...kids[j]);
    }
    return best < 0 ? i : best;
  }

  // ---- code colours: highlight.js, run on a block when it comes into view ----
  // Blocks are escaped text with their language in data-lang; colouring only
  // what is seen keeps a page of thousands of blocks quick. A language
  // highlight.js does not know stays plain text.
  const hl = window.hljs;
  function paint(pre) {
    const code = pre.firstElementChild;
    if (!code || code.classList.contains('hljs') || !hl.getLanguage(pre.dataset.lang)) return;
    try {
      // highlight.js escapes the text it returns: only its <span class> tags are markup
      code.innerHTML = hl.highlight(code.textContent, { language: pre.dataset.lang, ignoreIllegals: true }).value;
      code.classList.add('hljs');
    } catch (e) { /* leave the block plain */ }
  }
  const hlIO = hl && new IntersectionObserver((es) => {
    for (const e of es) if (e.isIntersecting) { hlIO.unobserve(e.target); paint(e.target); }
  }, { rootMargin: '300px 0px' });

  // ---- conversation pane: the selected path, inserted in batches ----
  const msgs = $('#msgs'), more = $('#more'), batch = document.createElement('template');
  function renderMore(upto) {
    const end = Math.min(shown.length, Math.max(rendered + BATCH, upto === undefined ? 0 : upto + 1));
    let html = '';
    for (; rendered < end; rendered++) html += N[shown[rendered]].h || '';
    batch.innerHTML = html; // inert until appended
    const codes = hlIO ? batch.content.querySelectorAll('pre[data-lang]') : [];
    msgs.append(batch.content);
    for (const c of codes) hlIO.observe(c);
    more.textContent = rendered < shown.length ? (shown.length - rendered) + ' more messages…' : '';
    // re-observing makes the observer report again even when a short batch
    // left the marker in view (it only reports changes otherwise)
    if (io) { io.unobserve(more); if (rendered < shown.length) io.observe(more); }
  }
  const io = new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting) && rendered < shown.length) renderMore(); });

  function show(newLeaf, target) {
    leaf = newLeaf; path = pathTo(leaf); onPath = new Set(path);
    shown = path.filter((i) => N[i].v);
    msgs.textContent = ''; rendered = 0;
    let pos = -1;
    if (target !== undefined) {
      // a hidden target (a label, a result shown inside its call) scrolls to its nearest shown ancestor
      const p = pathTo(target);
      for (let k = p.length - 1; k >= 0 && pos < 0; k--) pos = shown.indexOf(p[k]);
    }
    renderMore(pos);
    drawTree();
    if (pos >= 0) {
      const el = msgs.children[pos];
      if (el) { el.scrollIntoView({ block: 'start' }); el.classList.add('flash'); setTimeout(() => el.classList.remove('flash'), 1500); }
    } else {
      window.scrollTo(0, 0);
    }
  }
  function select(i) { show(onPath.has(i) ? leaf : newestLeaf(i), i); }

  // ---- sidebar: every branch as a tree, filtered and searched ----
  const tpl = document.createElement('template');
  const texts = [];
  function text(i) {
    if (texts[i] === undefined) {
      tpl.innerHTML = N[i].h || ''; // a template's content is inert: nothing loads or runs
      texts[i] = (tpl.content.textContent + ' ' + N[i].t + ' ' + (N[i].l || '')).toLowerCase();
    }
    return texts[i];
  }
  function keep(i) {
    const n = N[i];
    switch (filter) {
      case 'all': break;
      case 'user': if (n.r !== 'user') return false; break;
      case 'labeled': if (!n.l) return false; break;
      case 'notools': if (!n.v || n.r === 'tool' || n.r === 'assistant-tools') return false; break;
      default: if (!n.v) return false;
    }
    if (query.length) { const t = text(i); return query.every((q) => t.includes(q)); }
    return true;
  }
  const tree = $('#tree'), hits = $('#hits');
  function drawTree() {
    const inc = N.map((_, i) => keep(i));
    // each kept node hangs under its nearest kept ancestor
    const tk = N.map(() => []), roots = [];
    N.forEach((_, i) => {
      if (!inc[i]) return;
      let p = N[i].p; const seen = new Set();
      while (p >= 0 && !inc[p] && !seen.has(p)) { seen.add(p); p = N[p].p; }
      (p >= 0 && inc[p] ? tk[p] : roots).push(i);
    });
    const first = (a) => a.slice().sort((x, y) => (onPath.has(y) ? 1 : 0) - (onPath.has(x) ? 1 : 0) || x - y);
    const frag = document.createDocumentFragment();
    let count = 0;
    const st = first(roots).reverse().map((i, k, a) => ({ i, prefix: '', conn: a.length > 1 ? (k === 0 ? '└─ ' : '├─ ') : '' }));
    while (st.length) {
      const { i, prefix, conn } = st.pop();
      count++;
      const n = N[i], row = document.createElement('div');
      row.className = 'row r-' + n.r.replace(/[^a-z-]/g, '') + (onPath.has(i) ? ' act' : '') + (i === leaf ? ' leaf' : '');
      row.dataset.i = i;
      row.setAttribute('role', 'treeitem');
      const g = document.createElement('span'); g.className = 'g'; g.textContent = prefix + conn;
      const r = document.createElement('span'); r.className = 'rl'; r.textContent = n.r.replace('assistant-tools', 'assistant');
      row.append(g, r, ' ' + n.t);
      if (n.l) { const l = document.createElement('span'); l.className = 'tag'; l.textContent = n.l; row.append(' ', l); }
      frag.append(row);
      const ch = first(tk[i]);
      const cp = prefix + (conn === '├─ ' ? '│  ' : conn === '└─ ' ? '   ' : '');
      for (let k = ch.length - 1; k >= 0; k--) st.push({ i: ch[k], prefix: cp, conn: ch.length > 1 ? (k === ch.length - 1 ? '└─ ' : '├─ ') : '' });
    }
    tree.textContent = '';
    tree.append(frag);
    hits.textContent = query.length ? count + ' match' + (count === 1 ? '' : 'es') : '';
  }
  tree.addEventListener('click', (ev) => {
    const row = ev.target.closest('.row');
    if (row) { const i = +row.dataset.i; setHash(i); select(i); }
  });
  let timer;
  $('#q').addEventListener('input', (ev) => {
    clearTimeout(timer);
    timer = setTimeout(() => { query = ev.target.value.toLowerCase().split(/\s+/).filter(Boolean); drawTree(); }, 150);
  });
  $('#filters').addEventListener('click', (ev) => {
    const b = ev.target.closest('button');
    if (!b) return;
    filter = b.dataset.f;
    document.querySelectorAll('#filters button').forEach((x) => x.classList.toggle('on', x === b));
    root.classList.toggle('notools', filter === 'notools');
    drawTree();
  });

  // ---- deep links: #<entry id> ----
  let own = false;
  function setHash(i) {
    own = true;
    try { history.replaceState(null, '', '#' + encodeURIComponent(N[i].id)); } catch (e) { /* file:// may refuse */ }
    own = false;
  }
  function fromHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    const i = byId.get(id);
    if (i !== undefined) { select(i); return true; }
    return false;
  }
  window.addEventListener('hashchange', () => { if (!own) fromHash(); });
  window.addEventListener('beforeprint', () => {
    renderMore(shown.length - 1);
    document.querySelectorAll('details').forEach((d) => { d.open = true; });
    if (hl) msgs.querySelectorAll('pre[data-lang]').forEach(paint);
  });

  if (!location.hash || !fromHash()) show(leaf);
  root.dataset.ready = '1';
})().catch((e) => {
  const m = document.getElementById('msgs');
  if (m) m.textContent = 'Could not load the session: ' + e;
});
