import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The WSDL the SOAP mock serves at `?wsdl` and the schema files it imports, as read from the contract's folder. */
export interface WsdlDocuments {
  wsdl: string;
  /** Schema files by their `schemaLocation` (a file name beside the WSDL). */
  schemas: ReadonlyMap<string, string>;
}

const schemaLocationAttribute = /(\bschemaLocation\s*=\s*")([^"]*)(")/g;
// `location` of the ports' address elements (soap:address in this WSDL, whatever the prefix).
const addressLocationAttribute = /(<(?:[\w.-]+:)?address\b[^>]*?\blocation\s*=\s*")([^"]*)(")/g;

const schemaLocations = (xml: string) => [...xml.matchAll(schemaLocationAttribute)].map((match) => match[2]!);

/** Reads the WSDL and, transitively, every schema file its `schemaLocation`s name. */
export async function loadWsdlDocuments(wsdlPath: string): Promise<WsdlDocuments> {
  const folder = dirname(wsdlPath);
  const wsdl = await readFile(wsdlPath, 'utf8');
  const schemas = new Map<string, string>();
  const pending = schemaLocations(wsdl);
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    if (schemas.has(name)) continue;
    // Served under the SOAP base path by name, so a location outside the WSDL's folder could not resolve there.
    if (basename(name) !== name) throw new Error(`${wsdlPath}: schemaLocation "${name}" is not a file beside the WSDL`);
    const schema = await readFile(join(folder, name), 'utf8');
    schemas.set(name, schema);
    pending.push(...schemaLocations(schema));
  }
  return { wsdl, schemas };
}

/** Where a schema file is served: beside the ports, under the SOAP base address (`https://host:port/services/messaging`). */
export const schemaUrl = (soapUrl: string, name: string) => `${soapUrl}/${name}`;

/**
 * A WSDL or schema as the mock serves it from `soapUrl`: each port's address keeps its path on the mock's own scheme,
 * host and port, and each `schemaLocation` is the absolute address where the mock serves that file.
 */
export function asServedFrom(xml: string, soapUrl: string): string {
  const origin = new URL(soapUrl).origin;
  return xml
    .replace(addressLocationAttribute, (_, open: string, location: string, close: string) => open + origin + new URL(location, soapUrl).pathname + close)
    .replace(schemaLocationAttribute, (_, open: string, location: string, close: string) => open + schemaUrl(soapUrl, location) + close);
}
