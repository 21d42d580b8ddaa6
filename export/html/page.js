(async function () {
  'use strict';
  const $ = (s) => document.querySelector(s);
  const root = document.documentElement;
  // The page holds, for readers without scripts, the list of prompts and
  // the first cards: the script takes over. The list becomes the outline
  // in the sidebar; its items give their anchors back to the cards.
  root.classList.remove('nojs');
  const outline = $('#outline');
  if (outline) {
    for (const li of outline.querySelectorAll('li[id]')) li.removeAttribute('id');
    outline.open = false;
    $('#side').insertBefore(outline, $('#tree'));
  }

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

  let leaf = D.leaf, path = [], onPath = new Set(), tail = new Set(), shown = [], filter = 'default', query = [], sel = -1, expanded = false;

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

  // ---- conversation pane: a window of the selected path ----
  // Only the cards near the view are in the DOM, between two spacers whose
  // heights stand for the cards left out: measured once a card has been
  // in the page, estimated from the length of its HTML before. A jump
  // renders its target first and then what is around it, so a session of
  // any length opens and jumps as quickly as a short one.
  const msgs = $('#msgs'), batch = document.createElement('template');
  const padTop = document.createElement('div'), padBot = document.createElement('div');
  padTop.className = padBot.className = 'pad';
  msgs.textContent = ''; // what the page holds for readers without scripts
  msgs.append(padTop, padBot);
  let lo = 0, hi = 0, hgt = new Float64Array(0), posIdx = new Map(), all = false, lostEl = null;
  const STEP = 8, MAXCARDS = 160;
  function est(i) { const h = N[i].h; return h ? 60 + Math.min(h.length, 9000) / 15 : 0; }
  function sum(a, b) { let s = 0; for (let k = a; k < b; k++) s += hgt[k]; return s; }
  function pads() { padTop.style.height = sum(0, lo) + 'px'; padBot.style.height = sum(hi, shown.length) + 'px'; }
  // card is the element of position k of the path, rendered (lo <= k < hi).
  function card(k) { return msgs.children[1 + k - lo]; }
  function build(a, b) {
    let html = '';
    for (let k = a; k < b; k++) html += N[shown[k]].h || '<article class="msg" data-i="' + shown[k] + '"></article>';
    batch.innerHTML = html; // inert until inserted
    if (b === shown.length && lost.length) { lostEl = lostRuns(); batch.content.append(lostEl); }
    fillRuns(batch.content);
    decorate(batch.content);
    const codes = hlIO ? [...batch.content.querySelectorAll('pre[data-lang]')] : [];
    return [batch.content, codes];
  }
  function watch(codes) { for (const c of codes) hlIO.observe(c); }
  // measure keeps the heights of the cards a..b, margins included.
  function measure(a, b) {
    for (let k = a; k < b; k++) { const el = card(k); hgt[k] = el.nextElementSibling.offsetTop - el.offsetTop; }
  }
  function appendTo(b) {
    b = Math.min(b, shown.length);
    if (b <= hi) return;
    const [frag, codes] = build(hi, b);
    padBot.before(frag);
    const a = hi; hi = b;
    measure(a, b); pads(); watch(codes);
  }
  // prependTo renders the cards from a to lo, keeping what is in view
  // where it was: the spacer above stood for their estimated heights.
  function prependTo(a) {
    a = Math.max(0, a);
    if (a >= lo) return;
    const ref = lo < hi ? card(lo) : padBot, y0 = ref.getBoundingClientRect().top;
    const [frag, codes] = build(a, lo);
    padTop.after(frag);
    const b = lo; lo = a;
    measure(a, b); pads(); watch(codes);
    const dy = ref.getBoundingClientRect().top - y0;
    if (dy) window.scrollBy(0, dy);
  }
  // reset drops every card and renders from position a on.
  function reset(a) {
    while (padTop.nextElementSibling !== padBot) padTop.nextElementSibling.remove();
    lostEl = null;
    lo = hi = all ? 0 : Math.max(0, Math.min(a, shown.length));
    pads();
    appendTo(all ? shown.length : lo + STEP);
  }
  // trim drops the cards far above and below the view (not while printing).
  function trim() {
    if (all || hi - lo <= MAXCARDS) return;
    const far = 2 * innerHeight;
    let k = lo;
    while (k < hi - 1 && card(k + 1).getBoundingClientRect().bottom < -far) k++;
    if (k > lo) {
      const ref = card(k), y0 = ref.getBoundingClientRect().top;
      measure(lo, k);
      for (; lo < k; lo++) padTop.nextElementSibling.remove();
      pads();
      const dy = ref.getBoundingClientRect().top - y0;
      if (dy) window.scrollBy(0, dy);
    }
    let j = hi;
    while (j > lo + 1 && card(j - 2).getBoundingClientRect().top > innerHeight + far) j--;
    if (j < hi) {
      measure(j, hi);
      if (lostEl) { lostEl.remove(); lostEl = null; }
      for (; hi > j; hi--) card(hi - 1).remove();
      pads();
    }
  }
  // fill renders what the view needs: the cards around it, or, when the
  // reader has scrolled far past the rendered ones (the scroll bar),
  // those at the estimated position.
  function fill() {
    if (!shown.length || all) return;
    const M = innerHeight;
    let rt = (lo < hi ? card(lo) : padBot).getBoundingClientRect().top, rb = padBot.getBoundingClientRect().top;
    if (rb < -M || rt > innerHeight + M) {
      const y = -padTop.getBoundingClientRect().top;
      let k = 0, acc = 0;
      while (k < shown.length - 1 && acc + hgt[k] <= y) acc += hgt[k++];
      reset(k);
      rb = padBot.getBoundingClientRect().top;
    }
    for (let n = 0; rb < innerHeight + M && hi < shown.length && n < 200; n++) { appendTo(hi + STEP); rb = padBot.getBoundingClientRect().top; }
    for (let n = 0; lo > 0 && n < 200; n++) {
      rt = card(lo).getBoundingClientRect().top;
      if (rt < -M) break;
      prependTo(lo - STEP);
    }
    trim();
  }
  // renderAll puts the whole path in the page, for printing.
  function renderAll() { all = true; if (lo > 0) prependTo(0); appendTo(shown.length); }
  // goTo renders position k of the path (first, then around it) and
  // scrolls it to the top.
  function goTo(k) {
    if (k < lo || k >= hi) reset(k);
    const el = card(k);
    el.scrollIntoView({ block: 'start' });
    fill();
    return card(k);
  }
  let frame = 0;
  function onScroll() {
    if (frame) return;
    frame = requestAnimationFrame(() => { frame = 0; fill(); follow(); });
  }
  window.addEventListener('scroll', onScroll, { passive: true });
  window.addEventListener('resize', onScroll);

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

  // posOf is the position on the path of the card shown for entry i: its
  // own, or (a label, a result shown inside its call) its nearest shown
  // ancestor's.
  function posOf(i) {
    const p = pathTo(i);
    for (let k = p.length - 1; k >= 0; k--) { const pos = posIdx.get(p[k]); if (pos !== undefined) return pos; }
    return -1;
  }
  function flash(el) { el.classList.add('flash'); setTimeout(() => el.classList.remove('flash'), 1500); }

  function show(newLeaf, target) {
    const same = newLeaf === leaf && shown.length > 0;
    if (!same) {
      leaf = newLeaf; path = pathTo(leaf); onPath = new Set(path);
      // the records after the shown leaf (bookkeeping, a run's markers) are
      // on the active path too: marked so in the tree, not shown
      const full = leaf === D.leaf && D.end !== leaf ? pathTo(D.end) : [];
      tail = new Set(full[path.length - 1] === leaf ? full.slice(path.length) : []);
      shown = path.filter((i) => N[i].v);
      posIdx = new Map(shown.map((i, k) => [i, k]));
      hgt = Float64Array.from(shown, est);
      lo = hi = 0;
    }
    const pos = target === undefined ? -1 : posOf(target);
    if (target !== undefined) sel = target;
    // the same branch: the tree's rows stay, only the selected one moves
    if (same) { paintTree(false); revealRow(rowOf.get(sel)); } else drawTree();
    if (pos >= 0) {
      flash(goTo(pos));
    } else {
      if (!same) reset(0);
      window.scrollTo(0, 0);
      fill();
    }
    follow();
    return pos;
  }
  function select(i) {
    if (RUN[i] === undefined) return show(onPath.has(i) ? leaf : newestLeaf(i), i);
    // a run's entry: show the conversation entry it is inside, then open
    // the folds around it
    const h = topHost(i);
    if (h >= 0) select(h); else { show(leaf); goTo(shown.length - 1); }
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
  // The text index: each entry's text, from its HTML with the tags taken
  // out and the escapes the exporter writes decoded, made as a search
  // first needs it (in slices, see search) and kept.
  const texts = [];
  const ENT = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };
  function unescape(s) {
    return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => {
      if (e[0] !== '#') return ENT[e.toLowerCase()] || m;
      const c = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      try { return String.fromCodePoint(c); } catch (x) { return m; }
    });
  }
  // yieldNow runs f after the browser has handled what waits (input,
  // paint), without setTimeout's 4 ms clamp.
  const chan = new MessageChannel(), yq = [];
  chan.port1.onmessage = () => { const f = yq.shift(); if (f) f(); };
  function yieldNow(f) { yq.push(f); chan.port2.postMessage(0); }
  // indexIdle builds the text index while the page is idle, so that the
  // first search has little left to do.
  let indexed = 0;
  function indexIdle(dl) {
    while (indexed < N.length && dl.timeRemaining() > 2) for (const e = Math.min(N.length, indexed + 16); indexed < e; indexed++) text(indexed);
    if (indexed < N.length) requestIdleCallback(indexIdle);
  }
  function text(i) {
    if (texts[i] === undefined) texts[i] = (unescape((N[i].h || '').replace(/<[^>]*>/g, '')) + ' ' + N[i].t + ' ' + (N[i].l || '')).toLowerCase();
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
    if (query.length) return !!(hitv && hitv[i]);
    return true;
  }
  const tree = $('#tree'), hits = $('#hits'), side = $('#side');
  // up is an entry's parent in the tree: a run hangs from the entry
  // holding its call
  function up(i) {
    const k = RUN[i], p = N[i].p;
    return k !== undefined && (p < 0 || RUN[p] !== k) ? R[k].host : p;
  }
  // The tree is drawn as data (order: the rows' entries, glyph: their
  // lines) and only the rows in the sidebar's view are in the DOM, each
  // RH pixels high. It is a keyboard tree: the sidebar's #tree takes the
  // focus, the arrows move the active row (aria-activedescendant), Enter
  // opens it.
  const RH = 20, WHOLE = 2000;
  let order = [], glyph = [], rowOf = new Map(), cur = -1; // search hits in tree order, and the one shown
  let active = -1, here = -1, twA = -1, twB = -1;
  const tw = document.createElement('div');
  tw.className = 'tw';
  tree.append(tw);
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
    order = []; glyph = [];
    const st = first(roots).reverse().map((i, k, a) => ({ i, prefix: '', conn: a.length > 1 ? (k === 0 ? '└─ ' : '├─ ') : '' }));
    while (st.length) {
      const { i, prefix, conn } = st.pop();
      order.push(i); glyph.push(prefix + conn);
      const ch = first(tk[i]);
      const cp = prefix + (conn === '├─ ' ? '│  ' : conn === '└─ ' ? '   ' : '');
      for (let k = ch.length - 1; k >= 0; k--) st.push({ i: ch[k], prefix: cp, conn: ch.length > 1 ? (k === ch.length - 1 ? '└─ ' : '├─ ') : '' });
    }
    rowOf = new Map(order.map((i, k) => [i, k]));
    tree.style.height = order.length * RH + 'px';
    if (cur >= order.length) cur = -1;
    if (!rowOf.has(active)) active = -1;
    paintTree(true);
    count();
    const k = rowOf.has(sel) ? rowOf.get(sel) : rowOf.get(leaf);
    revealRow(k);
  }
  // style sets the classes of row k, which change as the reader moves.
  function style(row, k) {
    const i = order[k];
    row.className = 'row r-' + N[i].r.replace(/[^a-z-]/g, '') + (onPath.has(i) || tail.has(i) ? ' act' : '') + (i === leaf ? ' leaf' : '') + (i === sel ? ' sel' : '') +
      (i === here ? ' here' : '') + (k === active ? ' focus' : '');
    row.setAttribute('aria-selected', String(i === sel));
  }
  function rowEl(k) {
    const i = order[k], n = N[i], row = document.createElement('div');
    style(row, k);
    row.dataset.i = i;
    row.id = 'tr-' + i;
    row.setAttribute('role', 'treeitem');
    row.setAttribute('aria-level', String(1 + Math.floor(glyph[k].length / 3)));
    row.title = n.t;
    const g = document.createElement('span'); g.className = 'g'; g.textContent = glyph[k];
    const r = document.createElement('span'); r.className = 'rl'; r.textContent = human(n.r);
    row.append(g, r, ' ' + n.t);
    if (n.l) { const l = document.createElement('span'); l.className = 'tag'; l.textContent = n.l; row.append(' ', l); }
    return row;
  }
  // paintTree puts the rows in the sidebar's view (and some around) in
  // the DOM: new ones when the rows changed (rebuild) or the view moved,
  // else it restyles those there, so a row under the pointer is never
  // replaced between the press and the release of a click.
  function paintTree(rebuild) {
    const top = side.scrollTop - tree.offsetTop, h = side.clientHeight || innerHeight;
    // a tree of a few thousand rows is drawn whole: it is quick, and the
    // browser's own find sees every row
    const whole = order.length <= WHOLE;
    const a = whole ? 0 : Math.max(0, Math.floor(top / RH) - 30), b = whole ? order.length : Math.min(order.length, Math.ceil((top + h) / RH) + 30);
    if (active >= a && active < b) tree.setAttribute('aria-activedescendant', 'tr-' + order[active]);
    else tree.removeAttribute('aria-activedescendant');
    if (!rebuild && a === twA && b === twB) {
      for (let k = a, row = tw.firstElementChild; k < b && row; k++, row = row.nextElementSibling) style(row, k);
      return;
    }
    twA = a; twB = b;
    const frag = document.createDocumentFragment();
    for (let k = a; k < b; k++) frag.append(rowEl(k));
    tw.style.transform = 'translateY(' + a * RH + 'px)';
    tw.textContent = '';
    tw.append(frag);
  }
  side.addEventListener('scroll', () => paintTree(false), { passive: true });
  // revealRow scrolls the sidebar, not the page, so that row k is in view.
  function revealRow(k) {
    if (k === undefined || k < 0) return;
    const y = tree.offsetTop + k * RH - side.scrollTop;
    if (y < 60 || y + RH > side.clientHeight) side.scrollTop += y - side.clientHeight / 3;
    paintTree(false);
  }
  // follow marks the row of the message at the top of the view and keeps it
  // in the sidebar's view: the tree follows the scroll.
  function follow() {
    const k = current();
    const i = k >= 0 ? shown[k] : -1;
    if (i === here) return;
    here = i;
    paintTree(false);
    if (!tree.contains(document.activeElement)) revealRow(rowOf.get(i));
  }
  tree.tabIndex = 0;
  tree.setAttribute('aria-label', 'entries of every branch');
  function focusRow(k) {
    if (!order.length) return;
    active = Math.max(0, Math.min(k, order.length - 1));
    revealRow(active);
    paintTree(false);
  }
  tree.addEventListener('focus', () => { if (active < 0) focusRow(rowOf.has(sel) ? rowOf.get(sel) : rowOf.has(here) ? rowOf.get(here) : 0); });
  tree.addEventListener('keydown', (ev) => {
    const page = Math.max(1, Math.floor(side.clientHeight / RH) - 2);
    switch (ev.key) {
      case 'ArrowDown': focusRow(active + 1); break;
      case 'ArrowUp': focusRow(active - 1); break;
      case 'PageDown': focusRow(active + page); break;
      case 'PageUp': focusRow(active - page); break;
      case 'Home': focusRow(0); break;
      case 'End': focusRow(order.length - 1); break;
      case 'ArrowLeft': { const p = up(order[active]); if (rowOf.has(p)) focusRow(rowOf.get(p)); break; }
      case 'Enter': case ' ': if (active >= 0) openRow(order[active]); break;
      default: return;
    }
    ev.preventDefault();
    ev.stopPropagation();
  });
  function count() {
    if (!query.length) { hits.textContent = ''; return; }
    const n = order.length;
    hits.textContent = n === 0 ? 'no match' : cur >= 0 ? (cur + 1) + ' of ' + n : n + ' match' + (n === 1 ? '' : 'es');
  }
  function closeSide() { root.classList.remove('side-open'); $('#menu').setAttribute('aria-expanded', 'false'); }
  function openRow(i) {
    const k = rowOf.get(i);
    if (k !== undefined) active = k;
    if (query.length && k !== undefined) { step(k); return; }
    setHash(i); select(i); closeSide();
  }
  tree.addEventListener('click', (ev) => {
    const row = ev.target.closest('.row');
    if (row) openRow(+row.dataset.i);
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
    const el = RUN[i] !== undefined ? articleOf(i) : pos >= 0 ? card(pos) : null;
    const m = el && mark(el);
    if (m) { m.classList.add('cur'); m.scrollIntoView({ block: 'center' }); }
    count();
  }
  // search matches the words typed against the text index, a slice of
  // entries at a time so the page stays responsive, and never renders a
  // card to do it; hitv[i] says whether entry i holds every word.
  const q = $('#q');
  let timer = 0, hitv = null, scan = 0, scanned = Promise.resolve();
  const words = () => q.value.toLowerCase().split(/\s+/).filter(Boolean);
  function search(ws) {
    const id = ++scan;
    query = ws; cur = -1; unmark();
    if (!ws.length) { hitv = null; drawTree(); scanned = Promise.resolve(); return scanned; }
    const v = new Uint8Array(N.length);
    let i = 0;
    scanned = new Promise((done) => {
      const slice = () => {
        if (id !== scan) { done(); return; }
        const t0 = performance.now();
        while (i < N.length && performance.now() - t0 < 12) {
          for (const e = Math.min(N.length, i + 32); i < e; i++) { const t = text(i); v[i] = ws.every((w) => t.includes(w)) ? 1 : 0; }
        }
        if (i < N.length) { yieldNow(slice); return; }
        hitv = v; drawTree(); done();
      };
      slice();
    });
    return scanned;
  }
  q.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { timer = 0; search(words()); }, 150);
  });
  // flushQuery starts the search for what is typed now, if it has not
  // started, and resolves once it is done.
  function flushQuery() {
    const ws = words();
    if (timer) { clearTimeout(timer); timer = 0; }
    if (ws.join(' ') !== query.join(' ')) return search(ws);
    return scanned;
  }
  q.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); const back = ev.shiftKey; flushQuery().then(() => step(cur + (back ? -1 : 1))); }
    if (ev.key === 'Escape') q.blur();
  });
  $('#next').addEventListener('click', () => { flushQuery().then(() => step(cur + 1)); });
  $('#prev').addEventListener('click', () => { flushQuery().then(() => step(cur < 0 ? -1 : cur - 1)); });
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

  // ---- the outline of prompts: a click opens the prompt ----
  if (outline) outline.addEventListener('click', (ev) => {
    const li = ev.target.closest('li[data-i]');
    if (!li) return;
    ev.preventDefault();
    const i = +li.dataset.i;
    setHash(i); select(i); closeSide();
  });
  // prompt moves to the next (d = 1) or previous (-1) prompt of the path
  // from the message at the top of the view; back from the middle of a
  // prompt goes to its start.
  function prompt(d) {
    let k = current();
    if (k < 0) return;
    if (d < 0 && card(k).getBoundingClientRect().top < -12) k++;
    for (k += d; k >= 0 && k < shown.length; k += d) {
      if (N[shown[k]].r === 'user') { goTo(k); sel = shown[k]; paintTree(false); revealRow(rowOf.get(sel)); return; }
    }
  }

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
  window.addEventListener('afterprint', () => { all = false; onScroll(); });
  window.addEventListener('beforeprint', () => {
    renderAll();
    setFolds(msgs, true);
    if (hl) msgs.querySelectorAll('pre[data-lang]').forEach(paint);
  });

  // ---- narrow screens: the tree is an overlay; the facts fold away ----
  $('#menu').addEventListener('click', () => {
    const open = root.classList.toggle('side-open');
    $('#menu').setAttribute('aria-expanded', String(open));
    if (open) revealRow(rowOf.has(sel) ? rowOf.get(sel) : rowOf.get(leaf));
  });
  $('#facts').addEventListener('click', () => {
    const open = root.classList.toggle('facts-open');
    $('#facts').setAttribute('aria-expanded', String(open));
  });
  const helpbox = $('#helpbox');
  function help(open) { helpbox.hidden = !open; $('#help').setAttribute('aria-expanded', String(open)); }
  $('#help').addEventListener('click', () => help(helpbox.hidden));

  // ---- keys (listed in the page's help) ----
  // current is the position of the first message whose bottom is in view.
  function current() {
    let a = lo, b = hi - 1, best = hi - 1;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (card(mid).getBoundingClientRect().bottom > 12) { best = mid; b = mid - 1; } else a = mid + 1;
    }
    return best;
  }
  function move(d) {
    let k = current();
    if (k < 0) return;
    if (d > 0 && card(k).getBoundingClientRect().top > 12) d = 0; // the message below the top is the next one
    k = Math.max(0, Math.min(k + d, shown.length - 1));
    goTo(k);
    sel = shown[k];
    paintTree(false);
    revealRow(rowOf.get(sel));
  }
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) return;
    switch (ev.key) {
      case 'j': move(1); break;
      case 'k': move(-1); break;
      case 'J': prompt(1); break;
      case 'K': prompt(-1); break;
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
  root.dataset.readyAt = String(Math.round(performance.now()));
  root.dataset.ready = '1';
  if (window.requestIdleCallback) requestIdleCallback(indexIdle);
})().catch((e) => {
  const m = document.getElementById('msgs');
  if (m) m.textContent = 'Could not load the session: ' + e;
});
