/* canon's embeddable search box (canon serve's /embed/). A site adds
 *   <link rel="stylesheet" href="http://SEARCH/embed/canon-search.css">
 *   <script src="http://SEARCH/embed/canon-search.js" defer></script>
 * and gets a box in every element with data-canon-search (with none, right before the script),
 * asking SEARCH/api/search as the reader types; canon serve answers another site's page only
 * when --allow-origin names its origin. Attributes (the box's element, else the script tag):
 *   data-canon-base   Results link to the URLs in the index, except those under canon's default
 *                     base URL http://localhost/ (an index built without --base-url, whose pages
 *                     canon serve serves itself): their path goes after this URL (default SEARCH).
 *   data-canon-limit  results asked for (default 8); data-canon-label: the field's label.
 * Results go in the page as text (never innerHTML), hrefs only as http(s) URLs: a hostile
 * page's title or snippet is shown, never run. */
(() => {
  'use strict';
  const script = document.currentScript || document.querySelector('script[src*="canon-search.js"]');
  if (!script || !script.src) return;
  const server = new URL(script.src, location.href).origin;
  const LOCAL = 'http://localhost/';
  const P = 'canon-search-';
  let boxes = 0;

  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = P + cls;
    if (text != null) e.textContent = String(text);
    return e;
  };
  const attrs = (e, pairs) => { for (const k in pairs) e.setAttribute(k, pairs[k]); };

  function makeBox(host) {
    const id = P + ++boxes;
    const setting = (name) => host.getAttribute(name) || script.getAttribute(name) || '';
    const base = (setting('data-canon-base') || server).replace(/\/?$/, '/');
    const limit = Math.min(Math.max(parseInt(setting('data-canon-limit'), 10) || 8, 1), 100);
    // `url` as an http(s) URL to link to, localhost's moved under `base`; null if none.
    const href = (url) => {
      if (typeof url !== 'string' || !url) return null;
      if (url.startsWith(LOCAL)) url = base + url.slice(LOCAL.length);
      try {
        const u = new URL(url, base);
        return /^https?:$/.test(u.protocol) ? u.href : null;
      } catch (e) { return null; }
    };

    const root = el('div', 'box');
    const label = el('label', 'label', setting('data-canon-label') || 'Search this site');
    const input = el('input', 'input');
    const panel = el('div', 'panel');
    const status = el('p', 'status');
    const list = el('ul', 'list');
    label.htmlFor = input.id = id + '-input';
    list.id = id + '-list';
    Object.assign(input, {type: 'search', autocomplete: 'off', spellcheck: false, placeholder: 'Search\u2026'});
    attrs(input, {role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': list.id});
    attrs(list, {role: 'listbox', 'aria-label': 'Search results'});
    status.setAttribute('role', 'status');
    panel.hidden = true;
    panel.append(status, list);
    root.append(label, input, panel);
    host.appendChild(root);

    let options = [];  // what the arrows move through: results' titles and sections
    let active = -1;
    let timer = 0;
    let controller = null;  // the latest request: only its answer is shown

    const setActive = (i) => {
      const mark = (o, yes) => {
        if (!o) return;
        o.classList.toggle(P + 'active', yes);
        o.setAttribute('aria-selected', String(yes));
      };
      mark(options[active], false);
      const now = options[active = i];
      mark(now, true);
      if (now) now.scrollIntoView({block: 'nearest'});
      if (now) input.setAttribute('aria-activedescendant', now.id);
      else input.removeAttribute('aria-activedescendant');
    };
    const open = (yes) => {
      if (!yes) setActive(-1);
      panel.hidden = !yes;
      input.setAttribute('aria-expanded', String(yes));
    };
    const show = (text, error) => {
      setActive(-1);
      options = [];
      list.textContent = '';
      status.textContent = text;
      status.className = P + 'status' + (error ? ' ' + P + 'error' : '');
    };
    const stop = () => {
      clearTimeout(timer);
      if (controller) controller.abort();
      controller = null;
    };

    // A link (an option of the list when `option`), or the text alone when `url` is not one.
    const link = (url, text, cls, option) => {
      const target = href(url);
      const a = el(target ? 'a' : 'span', cls, text);
      if (!target) return a;
      a.href = target;
      a.tabIndex = -1;  // the arrows reach the links; Tab leaves the box
      if (option) {
        attrs(a, {id: id + '-option-' + options.length, role: 'option', 'aria-selected': 'false'});
        options.push(a);
      }
      return a;
    };

    const render = (data, query) => {
      const results = Array.isArray(data.results) ? data.results.filter((r) => r && typeof r === 'object') : [];
      const corrected = typeof data.corrected_query === 'string' ? data.corrected_query : '';
      show(!results.length ? 'No results for \u201c' + (corrected || query) + '\u201d'
           : corrected ? 'Showing results for ' + corrected : '');
      // The query's words (letters and digits only) to mark: split() alternates text and words.
      const words = String(corrected || query).match(/[\p{L}\p{N}_]{2,}/gu);
      const marked = words ? new RegExp('(' + words.join('|') + ')', 'iu') : /(?!)/;
      const listOf = (x) => (Array.isArray(x) ? x : []).filter((s) => s && s.url);
      for (const r of results) {
        const li = el('li', 'result');
        const title = link(r.url, r.short_title || r.title || r.url, 'title', true);
        attrs(li, title.id ? {role: 'group', 'aria-labelledby': title.id} : {role: 'group'});
        li.append(title);
        if (r.snippet) {
          const p = el('p', 'snippet');
          String(r.snippet).split(marked).forEach((part, i) => {
            if (part) p.append(i % 2 ? el('mark', null, part) : part);
          });
          li.append(p);
        }
        const sections = listOf(r.sections).slice(0, 3);
        if (sections.length) {
          const ul = el('ul', 'sections');
          ul.setAttribute('role', 'none');
          for (const s of sections) {
            ul.appendChild(el('li')).append(link(s.url, s.heading || s.url, 'section', true));
            ul.lastChild.setAttribute('role', 'none');
          }
          li.append(ul);
        }
        const alternates = listOf(r.alternates);
        if (alternates.length) {
          const p = el('p', 'alternates', 'also at: ');
          alternates.slice(0, 3).forEach((a, i) => {
            const target = href(a.url);
            const u = target && new URL(target);
            const l = link(a.url, u ? (u.origin === server ? '' : u.host) + u.pathname + u.search : a.url, 'alternate');
            if (a.title) l.title = String(a.title);
            p.append(i ? ', ' : '', l);
          });
          if (alternates.length > 3) p.append(' and ' + (alternates.length - 3) + ' more');
          li.append(p);
        }
        list.append(li);
      }
      open(true);
    };

    const search = async (query) => {
      stop();
      const mine = controller = new AbortController();
      try {
        const response = await fetch(server + '/api/search?q=' + encodeURIComponent(query) + '&limit=' + limit,
                                     {signal: mine.signal, credentials: 'omit'});
        const data = await response.json().catch(() => null);
        if (mine !== controller) return;
        if (!response.ok) {
          throw new Error(data && typeof data.error === 'string' ? data.error : 'the server answered ' + response.status);
        }
        if (!data || typeof data !== 'object') throw new Error('the server sent no results');
        render(data, query);
      } catch (e) {
        if (mine !== controller || e.name === 'AbortError') return;
        // To fetch, an answer refused to this site (not in --allow-origin) and no server at all
        // are the same TypeError.
        show('Search failed: ' + (e instanceof TypeError
            ? 'the search server could not be reached, or does not allow this site' : e.message), true);
        open(true);
      }
    };

    input.addEventListener('input', () => {
      stop();  // an answer to older words is never shown
      const query = input.value.trim();
      if (query) timer = setTimeout(() => search(query), 200);
      else {
        show('');
        open(false);
      }
    });

    input.addEventListener('keydown', (e) => {
      if (e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        if (!options.length) return;
        e.preventDefault();
        if (panel.hidden) open(true);
        // Through the options and back to the field (-1).
        const next = active + (e.key === 'ArrowDown' ? 1 : -1);
        setActive(next >= options.length ? -1 : next < -1 ? options.length - 1 : next);
      } else if (e.key === 'Enter') {
        if (!panel.hidden && options[active]) {
          e.preventDefault();
          location.assign(options[active].href);
        } else if (input.value.trim()) search(input.value.trim());
      } else if (e.key === 'Escape') {
        e.preventDefault();  // Chromium clears a search field on Escape by itself
        if (!panel.hidden) open(false);
        else {
          stop();
          input.value = '';
          show('');
        }
      }
    });

    input.addEventListener('focus', () => {
      if (input.value.trim() && (options.length || status.textContent)) open(true);
    });
    root.addEventListener('focusout', (e) => {
      if (e.relatedTarget && !root.contains(e.relatedTarget)) open(false);
    });
    document.addEventListener('pointerdown', (e) => {
      if (!panel.hidden && !root.contains(e.target)) open(false);
    });
  }

  const start = () => {
    const hosts = [...document.querySelectorAll('[data-canon-search]')].filter((h) => h.tagName !== 'SCRIPT');
    if (!hosts.length) {
      const host = document.createElement('div');
      host.setAttribute('data-canon-search', '');
      if (script.parentNode && script.parentNode !== document.head) script.before(host);
      else if (document.body) document.body.prepend(host);
      else return;
      hosts.push(host);
    }
    for (const host of hosts) {
      if (host.hasAttribute('data-canon-ready')) continue;  // the script is on the page twice
      host.setAttribute('data-canon-ready', '');
      makeBox(host);
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
