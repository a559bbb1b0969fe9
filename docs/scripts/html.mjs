// Escaping for text and attribute values placed in generated HTML.
const entities = /** @type {Record<string, string>} */ ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' });

/** @param {unknown} text */
export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => entities[c] ?? c);
