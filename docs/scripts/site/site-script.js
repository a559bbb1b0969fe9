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
    try {
      localStorage.setItem(themeKey, next);
    } catch {
      // Storage refused (private mode): the choice lasts for this page only.
    }
    showTheme();
  });
  systemDark.addEventListener('change', showTheme);
  showTheme();

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
    const sections = (data.sub_results ?? [])
      .filter((/** @type {any} */ sub) => sub.url !== data.url && sub.title !== data.meta?.title)
      .slice(0, 3)
      .map((/** @type {any} */ sub) => `<li><a class="section" href="${escape(siteUrl(sub.url))}">${escape(sub.title)}</a></li>`)
      .join('');
    return `<li><a class="result" href="${escape(siteUrl(data.url))}">${escape(data.meta?.title ?? data.url)}</a>${kind}<p>${data.excerpt}</p>${sections ? `<ul>${sections}</ul>` : ''}</li>`;
  };

  let latest = 0;
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
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') list.hidden = true;
  });
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Node) || !input.parentElement?.contains(event.target)) list.hidden = true;
  });
  // A click on a section of the page the reader is on moves within the page: close the list.
  list.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) list.hidden = true;
  });
})();
