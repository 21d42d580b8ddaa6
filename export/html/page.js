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
  // the tree's links and the labels close the data: they are known only
  // once the whole session has been read
  N.forEach((n, i) => { n.p = D.parents[i]; });
  for (const [i, l] of D.labels) N[i].l = l;
  for (const [i, p] of D.prompts || []) N[i].ps = p; // what followed a prompt: its tool calls and time
  const byId = new Map();
  const kids = N.map(() => []);
  N.forEach((n, i) => { byId.set(n.id, i); if (n.p >= 0 && n.p !== i) kids[n.p].push(i); });

  // ---- sub-agent runs: each is shown inside the call that started it ----
  // A run's entries are rendered as any other; RUN[i] is the run entry i
  // belongs to. The cards that say a hosted run started and ended are left
  // out: its fold says so.
  const R = D.runs || [], RUN = [], hostRuns = new Map(), lost = [];
  R.forEach((r, k) => {
    for (const i of r.e) RUN[i] = k;
    if (r.host < 0) { lost.push(k); return; }
    if (!hostRuns.has(r.host)) hostRuns.set(r.host, []);
    hostRuns.get(r.host).push(k);
    for (const i of [r.start, r.end]) if (i >= 0) N[i].v = false;
  });
  // nor are a run's entries a branch of the entry they hang from: a
  // click there shows the newest branch of the conversation, not a run
  if (R.length) kids.forEach((ks, j) => { kids[j] = ks.filter((c) => RUN[c] === undefined); });
  // topHost is the entry of the conversation a run entry is shown in, -1
  // when its run (or one it is inside) has no call.
  function topHost(i) {
    const seen = new Set();
    while (RUN[i] !== undefined && !seen.has(RUN[i])) { seen.add(RUN[i]); i = R[RUN[i]].host; if (i < 0) return -1; }
    return RUN[i] === undefined ? i : -1;
  }
  function runBlock(k, call) {
    const r = R[k], d = document.createElement('details'), s = document.createElement('summary');
    d.className = 'run'; d.dataset.run = r.id;
    const label = r.label || (call && call.dataset.agent) || r.id, desc = call ? call.dataset.desc || '' : '';
    const shownHere = r.e.filter((i) => N[i].v);
    s.textContent = 'sub-agent: ' + label + (desc ? ' — ' + desc : '') + ' · ' + shownHere.length + (shownHere.length === 1 ? ' message' : ' messages');
    const body = document.createElement('div');
    body.className = 'run-body';
    body.innerHTML = shownHere.map((i) => N[i].h || '').join('');
    d.append(s, body);
    return d;
  }
  // fillRuns puts each run inside the call that started it, in the
  // articles of el and those it adds (runs inside runs), each run once.
  function fillRuns(el) {
    if (!R.length) return;
    const done = new Set();
    for (;;) {
      const as = el.querySelectorAll('article.msg:not([data-runs])');
      if (!as.length) return;
      for (const a of as) {
        a.dataset.runs = '';
        for (const k of hostRuns.get(+a.dataset.i) || []) {
          if (done.has(k)) continue;
          done.add(k);
          const call = a.querySelector('[id="call-' + CSS.escape(R[k].call) + '"]');
          (call || a.querySelector('.mb') || a).append(runBlock(k, call));
        }
      }
    }
  }
  // the runs whose call is not found follow the conversation
  function lostRuns() {
    const sec = document.createElement('section');
    sec.className = 'lost';
    const h = document.createElement('h2');
    h.textContent = 'Sub-agent runs whose tool call was not found';
    sec.append(h);
    for (const k of lost) sec.append(runBlock(k, null));
    return sec;
  }

  let leaf = D.leaf, path = [], onPath = new Set(), shown = [], rendered = 0, filter = 'default', query = [], sel = -1, expanded = false;

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
    if (!code || code.tagName !== 'CODE' || code.classList.contains('hljs') || !hl.getLanguage(pre.dataset.lang)) return;
    try {
      // highlight.js escapes the text it returns: only its <span class> tags are markup
      code.innerHTML = hl.highlight(code.textContent, { language: pre.dataset.lang, ignoreIllegals: true }).value;
      code.classList.add('hljs');
    } catch (e) { /* leave the block plain */ }
  }
  const hlIO = hl && new IntersectionObserver((es) => {
    for (const e of es) if (e.isIntersecting) { hlIO.unobserve(e.target); paint(e.target); }
  }, { rootMargin: '300px 0px' });

  // ---- buttons added to each message and code block as it is inserted ----
  function button(cls, label, title) {
    const b = document.createElement('button');
    b.type = 'button'; b.className = cls; b.textContent = label; b.title = title; b.setAttribute('aria-label', title);
    return b;
  }
  function decorate(frag) {
    for (const a of frag.querySelectorAll('article.msg')) {
      const mh = a.querySelector('.mh');
      const l = N[+a.dataset.i] && N[+a.dataset.i].l;
      if (mh && l) { const tag = document.createElement('span'); tag.className = 'tag'; tag.textContent = l; mh.querySelector('.who').after(tag); }
      const ps = mh && N[+a.dataset.i] && N[+a.dataset.i].ps;
      if (ps) { const s = document.createElement('span'); s.className = 'turn'; s.textContent = ps; mh.querySelector('.who').after(s); }
      if (mh) mh.append(button('copy msgcopy', 'copy', 'copy this message'), button('link', 'link', 'copy a link to this message on this branch'));
    }
    for (const pre of frag.querySelectorAll('pre')) pre.append(button('copy codecopy', 'copy', 'copy this block'));
    if (expanded) setFolds(frag, true);
  }
  // plain is an element's text without the page's own buttons and numbers.
  function plain(el) {
    const c = el.cloneNode(true);
    c.querySelectorAll('button, pre.diff i').forEach((x) => x.remove());
    return c.textContent;
  }
  function copyText(s) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(s);
    const ta = document.createElement('textarea');
    ta.value = s; ta.setAttribute('readonly', ''); ta.style.position = 'fixed'; ta.style.opacity = '0';
    document.body.append(ta); ta.select();
    try { document.execCommand('copy'); } finally { ta.remove(); }
    return Promise.resolve();
  }
  function copied(b, p) {
    const was = b.textContent;
    p.then(() => { b.textContent = 'copied'; }, () => { b.textContent = 'copy failed'; })
      .then(() => setTimeout(() => { b.textContent = was; }, 1200));
  }
  // linkTo is the address of entry i on the branch shown now: the hash holds
  // the leaf too, so the link opens the same branch.
  function linkTo(i) {
    let h = '#' + encodeURIComponent(N[i].id);
    if (leaf >= 0 && leaf !== i) h += '&leaf=' + encodeURIComponent(N[leaf].id);
    return location.href.split('#')[0] + h;
  }

  // ---- folds: long output shows a preview; expand/collapse all ----
  function setClip(c, open) {
    c.classList.toggle('open', open);
    const b = c.querySelector(':scope > .unclip');
    if (!b) return;
    if (!b.dataset.label) b.dataset.label = b.textContent;
    b.textContent = open ? 'show less' : b.dataset.label;
    b.setAttribute('aria-expanded', String(open));
  }
  function setFolds(el, open) {
    el.querySelectorAll('details').forEach((d) => { d.open = open; });
    el.querySelectorAll('.clip').forEach((c) => setClip(c, open));
  }
  function expandAll(open) { expanded = open; setFolds(msgs, open); }
  $('#expand').addEventListener('click', () => expandAll(true));
  $('#collapse').addEventListener('click', () => expandAll(false));

  // ---- conversation pane: the selected path, inserted in batches ----
  const msgs = $('#msgs'), more = $('#more'), batch = document.createElement('template');
  function renderMore(upto) {
    const end = Math.min(shown.length, Math.max(rendered + BATCH, upto === undefined ? 0 : upto + 1));
    let html = '';
    for (; rendered < end; rendered++) html += N[shown[rendered]].h || '';
    batch.innerHTML = html; // inert until appended
    if (rendered === shown.length && lost.length && !msgs.querySelector(':scope > section.lost')) batch.content.append(lostRuns());
    fillRuns(batch.content);
    decorate(batch.content);
    const codes = hlIO ? batch.content.querySelectorAll('pre[data-lang]') : [];
    msgs.append(batch.content);
    for (const c of codes) hlIO.observe(c);
    more.textContent = rendered < shown.length ? (shown.length - rendered) + ' more messages…' : '';
    // re-observing makes the observer report again even when a short batch
    // left the marker in view (it only reports changes otherwise)
    if (io) { io.unobserve(more); if (rendered < shown.length) io.observe(more); }
  }
  const io = new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting) && rendered < shown.length) renderMore(); });

  msgs.addEventListener('click', (ev) => {
    const b = ev.target.closest('button');
    if (!b) return;
    if (b.classList.contains('unclip')) { const c = b.parentElement; setClip(c, !c.classList.contains('open')); return; }
    if (b.classList.contains('codecopy')) { copied(b, copyText(plain(b.parentElement))); return; }
    const a = b.closest('article.msg');
    if (!a) return;
    if (b.classList.contains('msgcopy')) copied(b, copyText(plain(a.querySelector('.mb'))));
    else if (b.classList.contains('link')) copied(b, copyText(linkTo(+a.dataset.i)));
  });

  // articleOf is the article shown for entry i: its own, or (a label, a
  // result shown inside its call) its nearest shown ancestor's.
  function posOf(i) {
    const p = pathTo(i);
    for (let k = p.length - 1; k >= 0; k--) { const pos = shown.indexOf(p[k]); if (pos >= 0) return pos; }
    return -1;
  }
  function flash(el) { el.classList.add('flash'); setTimeout(() => el.classList.remove('flash'), 1500); }

  function show(newLeaf, target) {
    leaf = newLeaf; path = pathTo(leaf); onPath = new Set(path);
    shown = path.filter((i) => N[i].v);
    msgs.textContent = ''; rendered = 0;
    const pos = target === undefined ? -1 : posOf(target);
    renderMore(pos);
    if (target !== undefined) sel = target;
    drawTree();
    if (pos >= 0) {
      const el = msgs.children[pos];
      if (el) { el.scrollIntoView({ block: 'start' }); flash(el); }
    } else {
      window.scrollTo(0, 0);
    }
    return pos;
  }
  function select(i) {
    if (RUN[i] === undefined) return show(onPath.has(i) ? leaf : newestLeaf(i), i);
    // a run's entry: show the conversation entry it is inside, then open
    // the folds around it
    const h = topHost(i);
    if (h >= 0) select(h); else { show(leaf); renderMore(shown.length - 1); }
    sel = i;
    const el = articleOf(i);
    if (el) {
      for (let p = el.parentElement; p && p !== msgs; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
      el.scrollIntoView({ block: 'start' }); flash(el);
    }
    drawTree();
    return -1;
  }
  function articleOf(i) { return msgs.querySelector('article.msg[data-i="' + i + '"]'); }

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
  const SETTINGS = { model_change: 1, thinking_level_change: 1 };
  const LABELS = {
    user: 'user', assistant: 'assistant', 'assistant-tools': 'assistant', tool: 'result', bash: 'shell', python: 'python',
    custom: 'note', compaction: 'compaction', branch_summary: 'branch summary', model_change: 'model',
    thinking_level_change: 'thinking', session_info: 'title', label: 'label', custom_message: 'note',
    subagent: 'sub-agent', subagent_end: 'sub-agent done', system: 'system',
  };
  const human = (r) => LABELS[r] || r.replace(/_/g, ' ');
  const settingsBox = $('#settings');
  function keep(i) {
    const n = N[i];
    if (SETTINGS[n.r] && !settingsBox.checked) return false;
    // a run's entries are in the tree when searched for or with All
    if (RUN[i] !== undefined && !query.length && filter !== 'all') return false;
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
  const tree = $('#tree'), hits = $('#hits'), side = $('#side');
  // up is an entry's parent in the tree: a run hangs from the entry
  // holding its call
  function up(i) {
    const k = RUN[i], p = N[i].p;
    return k !== undefined && (p < 0 || RUN[p] !== k) ? R[k].host : p;
  }
  let order = [], cur = -1; // search hits in tree order, and the one shown
  function drawTree() {
    const inc = N.map((_, i) => keep(i));
    // each kept node hangs under its nearest kept ancestor
    const tk = N.map(() => []), roots = [];
    N.forEach((_, i) => {
      if (!inc[i]) return;
      let p = up(i); const seen = new Set();
      while (p >= 0 && !inc[p] && !seen.has(p)) { seen.add(p); p = up(p); }
      (p >= 0 && inc[p] ? tk[p] : roots).push(i);
    });
    const first = (a) => a.slice().sort((x, y) => (onPath.has(y) ? 1 : 0) - (onPath.has(x) ? 1 : 0) || x - y);
    const frag = document.createDocumentFragment();
    order = [];
    const st = first(roots).reverse().map((i, k, a) => ({ i, prefix: '', conn: a.length > 1 ? (k === 0 ? '└─ ' : '├─ ') : '' }));
    while (st.length) {
      const { i, prefix, conn } = st.pop();
      order.push(i);
      const n = N[i], row = document.createElement('div');
      row.className = 'row r-' + n.r.replace(/[^a-z-]/g, '') + (onPath.has(i) ? ' act' : '') + (i === leaf ? ' leaf' : '') + (i === sel ? ' sel' : '');
      row.dataset.i = i;
      row.setAttribute('role', 'treeitem');
      row.title = n.t;
      const g = document.createElement('span'); g.className = 'g'; g.textContent = prefix + conn;
      const r = document.createElement('span'); r.className = 'rl'; r.textContent = human(n.r);
      row.append(g, r, ' ' + n.t);
      if (n.l) { const l = document.createElement('span'); l.className = 'tag'; l.textContent = n.l; row.append(' ', l); }
      frag.append(row);
      const ch = first(tk[i]);
      const cp = prefix + (conn === '├─ ' ? '│  ' : conn === '└─ ' ? '   ' : '');
      for (let k = ch.length - 1; k >= 0; k--) st.push({ i: ch[k], prefix: cp, conn: ch.length > 1 ? (k === ch.length - 1 ? '└─ ' : '├─ ') : '' });
    }
    tree.textContent = '';
    tree.append(frag);
    if (cur >= order.length) cur = -1;
    count();
    reveal(tree.querySelector('.row.sel') || tree.querySelector('.row.leaf'));
  }
  // reveal scrolls the sidebar, not the page, so that row is in view.
  function reveal(row) {
    if (!row) return;
    const r = row.getBoundingClientRect(), b = side.getBoundingClientRect();
    if (r.top < b.top + 60 || r.bottom > b.bottom) side.scrollTop += r.top - b.top - side.clientHeight / 3;
  }
  function count() {
    if (!query.length) { hits.textContent = ''; return; }
    const n = order.length;
    hits.textContent = n === 0 ? 'no match' : cur >= 0 ? (cur + 1) + ' of ' + n : n + ' match' + (n === 1 ? '' : 'es');
  }
  function closeSide() { root.classList.remove('side-open'); $('#menu').setAttribute('aria-expanded', 'false'); }
  tree.addEventListener('click', (ev) => {
    const row = ev.target.closest('.row');
    if (!row) return;
    const i = +row.dataset.i;
    const k = order.indexOf(i);
    if (query.length && k >= 0) { step(k); return; }
    setHash(i); select(i); closeSide();
  });

  // ---- search: step through the hits, highlighted in their message ----
  function unmark() {
    for (const m of msgs.querySelectorAll('mark.hit')) m.replaceWith(...m.childNodes);
    msgs.normalize();
  }
  // mark wraps each occurrence of the query's words in el; a hit inside a
  // fold opens it.
  function mark(el) {
    const words = query.slice().sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    if (!words.length) return null;
    const re = new RegExp(words.join('|'), 'gi');
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
      acceptNode: (t) => (t.parentElement.closest('button') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    const nodes = [];
    for (let t = walk.nextNode(); t; t = walk.nextNode()) nodes.push(t);
    let firstMark = null;
    for (const t of nodes) {
      const s = t.nodeValue; re.lastIndex = 0;
      let m, last = 0; const frag = document.createDocumentFragment();
      while ((m = re.exec(s))) {
        if (m[0] === '') { re.lastIndex++; continue; }
        frag.append(s.slice(last, m.index));
        const mk = document.createElement('mark'); mk.className = 'hit'; mk.textContent = m[0];
        frag.append(mk); last = m.index + m[0].length;
        if (!firstMark) firstMark = mk;
      }
      if (last === 0) continue;
      frag.append(s.slice(last));
      t.replaceWith(frag);
    }
    if (firstMark) {
      for (let p = firstMark.parentElement; p && p !== el; p = p.parentElement) {
        if (p.tagName === 'DETAILS') p.open = true;
        if (p.classList.contains('clip')) setClip(p, true);
      }
    }
    return firstMark;
  }
  function step(k) {
    if (!order.length) return;
    cur = ((k % order.length) + order.length) % order.length;
    const i = order[cur];
    setHash(i);
    unmark();
    const pos = select(i);
    const el = RUN[i] !== undefined ? articleOf(i) : pos >= 0 ? msgs.children[pos] : null;
    const m = el && mark(el);
    if (m) { m.classList.add('cur'); m.scrollIntoView({ block: 'center' }); }
    count();
  }
  const q = $('#q');
  let timer;
  q.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { query = q.value.toLowerCase().split(/\s+/).filter(Boolean); cur = -1; unmark(); drawTree(); }, 150);
  });
  function flushQuery() {
    if (timer) { clearTimeout(timer); timer = 0; const nq = q.value.toLowerCase().split(/\s+/).filter(Boolean); if (nq.join(' ') !== query.join(' ')) { query = nq; cur = -1; drawTree(); } }
  }
  q.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); flushQuery(); step(cur + (ev.shiftKey ? -1 : 1)); }
    if (ev.key === 'Escape') q.blur();
  });
  $('#next').addEventListener('click', () => { flushQuery(); step(cur + 1); });
  $('#prev').addEventListener('click', () => { flushQuery(); step(cur < 0 ? -1 : cur - 1); });
  $('#filters').addEventListener('click', (ev) => {
    const b = ev.target.closest('button');
    if (!b) return;
    filter = b.dataset.f;
    document.querySelectorAll('#filters button').forEach((x) => x.classList.toggle('on', x === b));
    root.classList.toggle('notools', filter === 'notools');
    cur = -1; drawTree();
  });
  settingsBox.addEventListener('change', () => { cur = -1; drawTree(); });

  // ---- chart: a click on a turn opens its message ----
  const chartEl = $('#chart');
  if (chartEl) chartEl.addEventListener('click', (ev) => {
    const r = ev.target.closest('rect[data-e]');
    if (!r) return;
    const i = +r.dataset.e;
    if (i >= 0 && i < N.length) { setHash(i); select(i); }
  });

  // ---- deep links: #<entry id>, with &leaf=<id> for the branch ----
  let own = false;
  function setHash(i) {
    own = true;
    try { history.replaceState(null, '', '#' + linkTo(i).split('#')[1]); } catch (e) { /* file:// may refuse */ }
    own = false;
  }
  function fromHash() {
    const [a, b] = location.hash.slice(1).split('&leaf=');
    let i, l;
    try { i = byId.get(decodeURIComponent(a)); l = b === undefined ? undefined : byId.get(decodeURIComponent(b)); } catch (e) { return false; }
    if (i === undefined) return false;
    if (l !== undefined && pathTo(l).includes(i)) show(l, i);
    else select(i);
    return true;
  }
  window.addEventListener('hashchange', () => { if (!own) fromHash(); });
  window.addEventListener('beforeprint', () => {
    renderMore(shown.length - 1);
    setFolds(msgs, true);
    if (hl) msgs.querySelectorAll('pre[data-lang]').forEach(paint);
  });

  // ---- narrow screens: the tree is an overlay; the facts fold away ----
  $('#menu').addEventListener('click', () => {
    const open = root.classList.toggle('side-open');
    $('#menu').setAttribute('aria-expanded', String(open));
    if (open) reveal(tree.querySelector('.row.sel') || tree.querySelector('.row.leaf'));
  });
  $('#facts').addEventListener('click', () => {
    const open = root.classList.toggle('facts-open');
    $('#facts').setAttribute('aria-expanded', String(open));
  });
  const helpbox = $('#helpbox');
  function help(open) { helpbox.hidden = !open; $('#help').setAttribute('aria-expanded', String(open)); }
  $('#help').addEventListener('click', () => help(helpbox.hidden));

  // ---- keys (listed in the page's help) ----
  // current is the position of the first message whose top is in view.
  function current() {
    const a = msgs.children;
    let lo = 0, hi = a.length - 1, best = a.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (a[mid].getBoundingClientRect().bottom > 12) { best = mid; hi = mid - 1; } else lo = mid + 1;
    }
    return best;
  }
  function move(d) {
    let k = current();
    const a = msgs.children;
    if (k < 0) return;
    if (d > 0 && a[k].getBoundingClientRect().top > 12) d = 0; // the message below the top is the next one
    k += d;
    if (k >= a.length && rendered < shown.length) renderMore();
    k = Math.max(0, Math.min(k, a.length - 1));
    a[k].scrollIntoView({ block: 'start' });
    sel = shown[k]; tree.querySelectorAll('.row.sel').forEach((r) => r.classList.remove('sel'));
    const row = tree.querySelector('.row[data-i="' + sel + '"]');
    if (row) { row.classList.add('sel'); reveal(row); }
  }
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) return;
    switch (ev.key) {
      case 'j': move(1); break;
      case 'k': move(-1); break;
      case 'n': step(cur + 1); break;
      case 'N': step(cur - 1); break;
      case '/': ev.preventDefault(); if (matchMedia('(max-width: 800px)').matches) root.classList.add('side-open'); q.focus(); break;
      case 'e': expandAll(true); break;
      case 'c': expandAll(false); break;
      case 't': $('#menu').click(); break;
      case '?': help(helpbox.hidden); break;
      case 'Escape': help(false); closeSide(); break;
      default: return;
    }
    ev.preventDefault();
  });

  if (!location.hash || !fromHash()) show(leaf);
  root.dataset.ready = '1';
})().catch((e) => {
  const m = document.getElementById('msgs');
  if (m) m.textContent = 'Could not load the session: ' + e;
});
