import { childrenNamed, parseXml } from './xml-reader.js';

export interface SoapOperation {
  name: string;
  /** Global XSD element of the input message (what the client sends). */
  input?: string;
  /** Global XSD element of the output message (what the client receives). */
  output?: string;
}

/** What a WSDL says about the service's surface: its namespace, operations and the paths of its addresses. */
export interface WsdlModel {
  targetNamespace: string;
  operations: SoapOperation[];
  /** Paths of the port addresses (hosts differ per environment and are left out). */
  addressPaths: string[];
}

const local = (qualified: string | undefined): string | undefined => qualified?.slice(qualified.indexOf(':') + 1);

export function readWsdl(source: string): WsdlModel {
  const root = parseXml(source);
  if (root.local !== 'definitions') throw new Error(`not a WSDL 1.1 document: root element is <${root.name}>`);
  const messages = new Map<string, string | undefined>();
  for (const message of childrenNamed(root, 'message')) {
    messages.set(message.attributes.name ?? '', local(childrenNamed(message, 'part')[0]?.attributes.element));
  }
  const operations: SoapOperation[] = [];
  for (const portType of childrenNamed(root, 'portType')) {
    for (const operation of childrenNamed(portType, 'operation')) {
      const input = messages.get(local(childrenNamed(operation, 'input')[0]?.attributes.message) ?? '');
      const output = messages.get(local(childrenNamed(operation, 'output')[0]?.attributes.message) ?? '');
      operations.push({ name: operation.attributes.name ?? '?', ...(input ? { input } : {}), ...(output ? { output } : {}) });
    }
  }
  const addressPaths = childrenNamed(root, 'service')
    .flatMap((service) => childrenNamed(service, 'port'))
    .flatMap((port) => childrenNamed(port, 'address'))
    .map((address) => (address.attributes.location ?? '').replace(/^[a-z]+:\/\/[^/]*/i, ''))
    .sort();
  return { targetNamespace: root.attributes.targetNamespace ?? '', operations, addressPaths };
}
