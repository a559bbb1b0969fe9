export { basePath, compareDocuments, majorVersion } from './compare-document.ts';
export type { OpenApiDocument } from './refs.ts';
