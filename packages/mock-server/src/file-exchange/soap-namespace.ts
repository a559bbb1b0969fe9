/**
 * The XML namespace of the SOAP messages and of the REST XML list. The reference does not publish the operator's
 * namespace address ({soap_namespace_uri}); this one is our own choice, used by the contracts in specs/.
 */
export const SOAP_NAMESPACE = 'urn:paykit:file-exchange:v1';
