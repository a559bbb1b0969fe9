// The site's script, shared by every page (a classic script: those load from file:// too). It gives code samples a
// copy button, switches the theme (the choice is kept), and runs the search box on Pagefind's index, which it loads
// only when the reader starts a search.
//
// Served over HTTP, Pagefind's own module is imported and fetches its files. Opened from the folder (file://),
// Chromium refuses module scripts and fetch(), so the build also writes each Pagefind file as a classic script that
// registers its bytes (../search-index.mjs): the module is imported from those bytes through a blob: URL, and
// Pagefind's requests under its folder are answered from the same scripts.
(() => {
  const themeKey = 'paykit-docs-theme';
  const root = document.documentElement;
  const siteRoot = new URL('.', document.baseURI);
  const pagefindBase = new URL('pagefind/', siteRoot).href;
  /** @type {Record<string, string>} base64 contents of Pagefind's files by path, set by the offline scripts */
  const offlineFiles = /** @type {any} */ (globalThis).paykitSearchFiles ?? ((/** @type {any} */ (globalThis).paykitSearchFiles = {}));

  // Theme: the reader's choice wins over the system's; the toggle shows what a click switches to.
  const toggle = /** @type {HTMLButtonElement | null} */ (document.querySelector('.theme-toggle'));
  const systemDark = matchMedia('(prefers-color-scheme: dark)');
  const effectiveTheme = () => root.dataset.theme ?? (systemDark.matches ? 'dark' : 'light');
  const showTheme = () => {
    if (!toggle) return;
    const dark = effectiveTheme() === 'dark';
    toggle.textContent = dark ? 'Light' : 'Dark';
    toggle.setAttribute('aria-pressed', String(dark));
  };
  toggle?.addEventListener('click', () => {
    const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
    root.dataset.theme = next;
    // A Redoc page draws itself by a class on <html> and keeps its own choice: both follow the reader's.
    if (root.classList.contains('light') || root.classList.contains('dark')) {
      root.classList.remove('light', 'dark');
      root.classList.add(next);
    }
    try {
      localStorage.setItem(themeKey, next);
      localStorage.setItem('redoc.colorMode', next);
    } catch {
      // Storage refused (private mode): the choice lasts for this page only.
    }
    showTheme();
  });
  systemDark.addEventListener('change', showTheme);
  showTheme();

  // The contents list marks the section being read: the last heading above the top of the window.
  const tocLinks = /** @type {HTMLAnchorElement[]} */ ([...document.querySelectorAll('details.toc a[href^="#"]')]);
  if (tocLinks.length) {
    const sections = tocLinks.map((a) => document.getElementById(decodeURIComponent(a.hash.slice(1)))).filter((h) => h !== null);
    let scheduled = false;
    const markCurrent = () => {
      scheduled = false;
      const above = sections.filter((h) => h.getBoundingClientRect().top <= 80);
      const current = above.at(-1) ?? sections[0];
      for (const a of tocLinks) {
        if (current && a.hash === `#${current.id}`) a.setAttribute('aria-current', 'true');
        else a.removeAttribute('aria-current');
      }
    };
    addEventListener('scroll', () => (scheduled ||= (requestAnimationFrame(markCurrent), true)), { passive: true });
    addEventListener('hashchange', markCurrent);
    markCurrent();
  }

  // Copy buttons on the code samples of our pages (the Redoc pages have their own).
  for (const pre of document.querySelectorAll('.frame main pre')) {
    let holder = pre.parentElement;
    if (!holder?.classList.contains('sample')) {
      holder = document.createElement('div');
      holder.className = 'sample';
      pre.replaceWith(holder);
      holder.append(pre);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy this sample');
    button.addEventListener('click', async () => {
      const text = (pre.querySelector('code') ?? pre).textContent ?? '';
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = 'Copied';
      } catch {
        button.textContent = 'Select and copy';
        getSelection()?.selectAllChildren(pre);
      }
      setTimeout(() => (button.textContent = 'Copy'), 2000);
    });
    holder.prepend(button);
  }

  // Search.
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById('site-search'));
  const list = /** @type {HTMLOListElement | null} */ (document.getElementById('search-results'));
  if (!input || !list) return;

  /** A classic script of the offline bundle, loaded once. @param {string} path under pagefind/ */
  const loadOffline = (path) =>
    new Promise((resolve, reject) => {
      if (path in offlineFiles) return resolve(undefined);
      const script = document.createElement('script');
      script.src = `${pagefindBase}offline/${path}.js`;
      script.onload = () => resolve(undefined);
      script.onerror = () => reject(new Error(`search: ${path} is not in the offline bundle`));
      document.head.append(script);
    });
  /** @param {string} path */
  const offlineBytes = async (path) => {
    await loadOffline(path);
    return Uint8Array.from(atob(offlineFiles[path] ?? ''), (c) => c.charCodeAt(0));
  };

  /** @type {Promise<any> | undefined} */
  let pagefind;
  const loadPagefind = () =>
    (pagefind ??= (async () => {
      let module;
      if (location.protocol === 'file:') {
        const pageFetch = window.fetch.bind(window);
        window.fetch = async (request, init) => {
          // Pagefind may ask with a path from the root (`/…/pagefind/x`): compare absolute addresses.
          const url = new URL(typeof request === 'string' ? request : request instanceof URL ? request.href : request.url, document.baseURI).href;
          if (!url.startsWith(pagefindBase)) return pageFetch(request, init);
          const path = url.slice(pagefindBase.length).split(/[?#]/)[0] ?? '';
          const type = path.endsWith('.json') ? 'application/json' : 'application/octet-stream';
          return new Response(await offlineBytes(path), { headers: { 'content-type': type } });
        };
        const source = new Blob([await offlineBytes('pagefind.js')], { type: 'text/javascript' });
        const url = URL.createObjectURL(source);
        try {
          module = await import(url);
        } finally {
          URL.revokeObjectURL(url);
        }
      } else {
        module = await import(`${pagefindBase}pagefind.js`);
      }
      // From file:// a worker could not fetch either: Pagefind then runs in the page, through the fetch above.
      await module.options({ basePath: pagefindBase, baseUrl: '/', noWorker: location.protocol === 'file:' });
      await module.init();
      return module;
    })());

  /** Pagefind's URLs start at the site root (`/guide.html#id`); the site may live in any folder. @param {string} url */
  const siteUrl = (url) => new URL(url.replace(/^\//, ''), siteRoot).href;
  const escape = (/** @type {string} */ text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

  /** @param {any} data a Pagefind result's data; its excerpts are HTML with <mark> around the hits */
  const resultItem = (data) => {
    const kind = data.meta?.kind ? `<span class="kind">${escape(data.meta.kind)}</span>` : '';
    // The sections that match the search best (the weight of their matched words), not the first three of the page.
    const score = (/** @type {any} */ sub) =>
      (sub.weighted_locations ?? []).reduce((/** @type {number} */ total, /** @type {any} */ l) => total + (l.balanced_score ?? l.weight ?? 1), 0) ||
      (sub.locations?.length ?? 0);
    const sections = (data.sub_results ?? [])
      .filter((/** @type {any} */ sub) => sub.url !== data.url && sub.title !== data.meta?.title)
      .map((/** @type {any} */ sub, /** @type {number} */ order) => ({ sub, order, score: score(sub) }))
      .sort((/** @type {any} */ a, /** @type {any} */ b) => b.score - a.score || a.order - b.order)
      .slice(0, 3)
      .map((/** @type {any} */ ranked) => ranked.sub)
      .map((/** @type {any} */ sub) => `<li><a class="section" href="${escape(siteUrl(sub.url))}">${escape(sub.title)}</a></li>`)
      .join('');
    return `<li><a class="result" href="${escape(siteUrl(data.url))}">${escape(data.meta?.title ?? data.url)}</a>${kind}<p>${data.excerpt}</p>${sections ? `<ul>${sections}</ul>` : ''}</li>`;
  };

  let latest = 0;
  /** The result chosen with the arrow keys (-1: none yet). */
  let chosen = -1;
  const search = async () => {
    const term = input.value.trim();
    const ticket = ++latest;
    if (!term) {
      list.hidden = true;
      list.innerHTML = '';
      return;
    }
    try {
      const found = await (await loadPagefind()).search(term);
      const results = await Promise.all(found.results.slice(0, 8).map((/** @type {any} */ r) => r.data()));
      if (ticket !== latest) return;
      list.innerHTML = results.length ? results.map(resultItem).join('') : `<li>Nothing found for “${escape(term)}”.</li>`;
      chosen = -1;
    } catch (error) {
      if (ticket !== latest) return;
      list.innerHTML = `<li>Search is not available: ${escape(String(error instanceof Error ? error.message : error))}</li>`;
    }
    list.hidden = false;
    // What the list shows results for (tests wait on it: a new term replaces the list only when its search is done).
    list.dataset.term = term;
  };
  input.addEventListener('input', search);
  input.addEventListener('focus', () => {
    void loadPagefind().catch(() => undefined);
    if (list.innerHTML) list.hidden = false;
  });
  // The keyboard: "/" or Ctrl/Cmd+K jumps to the search box; the arrows move through the results; Enter opens the
  // chosen one (the first when none is chosen); Escape closes the list and goes back to the box.
  const resultLinks = () => /** @type {HTMLAnchorElement[]} */ ([...list.querySelectorAll('a')]);
  const choose = (/** @type {number} */ index) => {
    const links = resultLinks();
    if (!links.length) return;
    chosen = (index + links.length) % links.length;
    links.forEach((a, i) => a.closest('li')?.classList.toggle('active', i === chosen));
    const link = links[chosen];
    link?.setAttribute('aria-selected', 'true');
    link?.scrollIntoView({ block: 'nearest' });
    input.setAttribute('aria-activedescendant', link?.id || '');
  };
  document.addEventListener('keydown', (event) => {
    const typing = event.target instanceof HTMLElement && (event.target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName));
    if ((event.key === '/' && !typing) || (event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey))) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      list.hidden = true;
      return;
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (list.hidden && list.innerHTML) list.hidden = false;
      choose(chosen + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const link = resultLinks()[Math.max(chosen, 0)];
      if (link) {
        list.hidden = true;
        location.href = link.href;
      }
    }
  });
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Node) || !input.parentElement?.contains(event.target)) list.hidden = true;
  });
  // A click on a section of the page the reader is on moves within the page: close the list.
  list.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) list.hidden = true;
  });
})();
