// The contracts that get a reference page: the redocly.yaml API name, the page file and its title.
export const referencePages = [
  { api: 'payments@v1', spec: 'specs/payments/openapi.yaml', page: 'payments.html', title: 'Payments API reference' },
  {
    api: 'file-exchange@v1',
    spec: 'specs/file-exchange/openapi.yaml',
    page: 'file-exchange.html',
    title: 'File exchange REST API reference',
  },
];
