/* canon's search box for a Pagefind bundle written by `canon export pagefind`. A page of the
 * static site adds
 *   <link rel="stylesheet" href="/pagefind/canon-pagefind.css">
 *   <script type="module" src="/pagefind/canon-pagefind.js"></script>
 *   <div data-canon-pagefind></div>
 * and gets a search box in each element marked data-canon-pagefind (with none, at the end of
 * the body). It searches with the bundle's own pagefind.js (beside this file) as the reader
 * types, and shows each result with its sections (Pagefind's sub-results) and the copies canon
 * collapsed into it ("also at", from the page's canon_alternates meta), with a select for each
 * filter the bundle has (section, release). Attributes: data-canon-limit (results shown,
 * default 10), data-canon-label (the field's label). Titles, URLs and excerpts go into the page
 * as text (excerpts keep Pagefind's <mark> and nothing else); hrefs only as relative or http(s)
 * URLs: a hostile page's title is shown, never run. */
const bundle = new URL('.', import.meta.url);
const pagefind = await import(new URL('pagefind.js', bundle).href);
const P = 'canon-pf-';
let boxes = 0;

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = P + cls;
  if (text != null) e.textContent = String(text);
  return e;
};

// `url` as a link target: relative to the site, or http(s); null otherwise.
const href = (url) => {
  if (typeof url !== 'string' || !url) return null;
  try {
    const u = new URL(url, location.href);
    return /^https?:$/.test(u.protocol) ? u.href : null;
  } catch (e) { return null; }
};

const link = (url, text, cls) => {
  const target = href(url);
  const a = el(target ? 'a' : 'span', cls, text);
  if (target) a.href = target;
  return a;
};

// Pagefind's excerpt (the page's text HTML-escaped, the query's words in <mark>) as nodes:
// its text decoded, <mark> kept, nothing else taken as markup.
const excerpt = (html, cls) => {
  const p = el('p', cls);
  const decode = (s) => new DOMParser().parseFromString('<!doctype html><body>' + s, 'text/html').body.textContent;
  String(html || '').split(/(<mark>.*?<\/mark>)/s).forEach((part) => {
    const m = /^<mark>(.*)<\/mark>$/s.exec(part);
    if (m) p.append(el('mark', null, decode(m[1])));
    else if (part) p.append(decode(part));
  });
  return p;
};

const parsed = (json) => {
  try {
    const v = JSON.parse(json || '[]');
    return Array.isArray(v) ? v : [];
  } catch (e) { return []; }
};

function render(list, results) {
  list.textContent = '';
  for (const r of results) {
    const li = el('li', 'result');
    const meta = r.meta || {};
    li.append(link(r.url, meta.title || r.url, 'title'));
    const place = parsed(meta.canon_place).filter((c) => typeof c === 'string');
    if (place.length) li.append(el('p', 'place', place.join(' \u203a ')));
    li.append(excerpt(r.excerpt, 'excerpt'));
    const sections = (r.sub_results || []).filter((s) => s.url !== r.url).slice(0, 3);
    if (sections.length) {
      const ul = el('ul', 'sections');
      for (const s of sections) {
        const item = ul.appendChild(el('li'));
        item.append(link(s.url, s.title || s.url, 'section'), excerpt(s.excerpt, 'section-excerpt'));
      }
      li.append(ul);
    }
    const copies = parsed(meta.canon_alternates).filter((a) => a && typeof a.url === 'string');
    if (copies.length) {
      const p = el('p', 'alternates', 'also at: ');
      copies.slice(0, 3).forEach((a, i) => {
        const l = link(a.url, a.url, 'alternate');
        if (typeof a.title === 'string') l.title = a.title;
        p.append(i ? ', ' : '', l);
      });
      if (copies.length > 3) p.append(' and ' + (copies.length - 3) + ' more');
      li.append(p);
    }
    list.append(li);
  }
}

async function makeBox(host) {
  const id = P + ++boxes;
  const limit = Math.min(Math.max(parseInt(host.getAttribute('data-canon-limit'), 10) || 10, 1), 50);
  const root = el('div', 'box');
  const label = el('label', 'label', host.getAttribute('data-canon-label') || 'Search this site');
  const input = el('input', 'input');
  const filters = el('div', 'filters');
  const status = el('p', 'status');
  const list = el('ol', 'results');
  label.htmlFor = input.id = id + '-input';
  Object.assign(input, {type: 'search', autocomplete: 'off', spellcheck: false, placeholder: 'Search\u2026'});
  status.setAttribute('role', 'status');
  root.append(label, input, filters, status, list);
  host.appendChild(root);

  const chosen = {};  // filter -> value ('' for any)
  let latest = 0;     // only the latest query's answer is shown
  const run = async () => {
    const query = input.value.trim();
    const mine = ++latest;
    const only = Object.fromEntries(Object.entries(chosen).filter(([, v]) => v));
    if (!query) {
      list.textContent = status.textContent = '';
      return;
    }
    const search = await pagefind.debouncedSearch(query, {filters: only}, 150);
    if (search === null || mine !== latest) return;  // a newer query took over
    const results = await Promise.all(search.results.slice(0, limit).map((r) => r.data()));
    if (mine !== latest) return;
    status.textContent = results.length ? '' : 'No results for \u201c' + query + '\u201d';
    render(list, results);
  };

  // Listen before the filters load (that waits for the bundle's index): what a reader types
  // meanwhile is searched, not lost.
  input.addEventListener('input', run);
  const available = await pagefind.filters();
  for (const [name, values] of Object.entries(available || {})) {
    const names = Object.keys(values).sort();
    if (names.length < 2) continue;
    const select = el('select', 'filter');
    select.setAttribute('aria-label', name);
    select.append(new Option('Any ' + name, ''));
    for (const v of names) select.append(new Option(v + ' (' + values[v] + ')', v));
    select.addEventListener('change', () => { chosen[name] = select.value; run(); });
    filters.append(select);
  }
}

const hosts = [...document.querySelectorAll('[data-canon-pagefind]')];
if (!hosts.length && document.body) hosts.push(document.body.appendChild(document.createElement('div')));
for (const host of hosts) makeBox(host);
