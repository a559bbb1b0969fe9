// The contracts that get a reference page. REST contracts are rendered by Redocly from their redocly.yaml API name;
// the SOAP contract by our own generator from the WSDL (and the XSD it imports). `related` is the page of the same
// service over the other protocol, so the two file exchange pages link to each other.
export const restContracts = [
  {
    api: 'payments@v1',
    spec: 'specs/payments/openapi.yaml',
    page: 'payments.html',
    title: 'Payments API reference',
    summary: 'The JSON REST API: tokens, 3D Secure, transactions, customers, aliases, wallets and webhooks.',
  },
  {
    api: 'file-exchange@v1',
    spec: 'specs/file-exchange/openapi.yaml',
    page: 'file-exchange.html',
    title: 'File exchange REST API reference',
    summary: 'Upload files to the operator and drain the download list, one resource per file.',
    related: 'file-exchange-soap.html',
  },
];

export const soapContracts = [
  {
    wsdl: 'specs/file-exchange-soap/FileExchange.wsdl',
    page: 'file-exchange-soap.html',
    title: 'File exchange SOAP API reference',
    summary: 'The same file exchange as two SOAP 1.1 operations, generated from the WSDL and XSD.',
    related: 'file-exchange.html',
  },
];
