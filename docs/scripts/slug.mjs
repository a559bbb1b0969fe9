// The one slug rule of the site: heading ids of our pages, and Redoc's routes for tags (which follow the same rule:
// lower case, every run of other characters one dash).
/** @param {string} text */
export const slugify = (text) =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
