export type { CertificateSource, ClientTlsOptions, PemCredentials, PfxCredentials, TlsExtras } from './client-tls-options.js';
export { createTlsAgent, type TlsAgentTuning } from './create-tls-agent.js';
export { parseProxyUrl } from './proxy-url.js';
export { TlsConfigurationError, type TlsConfigurationProblem } from './errors.js';
export { loadTlsMaterial, type TlsMaterial } from './load-tls-material.js';
export { redactUrl } from './redact-url.js';
