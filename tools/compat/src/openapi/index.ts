export { basePath, compareDocuments, majorVersion } from './compare-document.js';
export type { OpenApiDocument } from '@paykit/contracts';
