import {
  bundleOpenApi,
  fromRoot,
  openApiModel,
  readSensitiveMarks,
  readSoapContract,
  readSoapSensitiveMarks,
  sensitiveModule,
  type GeneratedFile,
  type OpenApiDocument,
  type SoapContract,
} from '@paykit/contracts';
import type { SoapInput } from './generator.js';
import { displayPath, generatedHeader } from './header.js';
import { codegenView } from './generators/soap/view.js';
import { isSoapSource, sensitivePath, specOf, type MarkedContract, type Target } from './targets.js';

/** Each contract a target reads, read once: OpenAPI bundled (`redocly bundle`), SOAP read into the shared model. */
class Contracts {
  private readonly bundles = new Map<string, Promise<OpenApiDocument>>();
  private readonly soap = new Map<string, Promise<SoapInput>>();

  openApi(root: string): Promise<OpenApiDocument> {
    let bundle = this.bundles.get(root);
    if (!bundle) this.bundles.set(root, (bundle = bundleOpenApi(root)));
    return bundle;
  }

  soapContract(contract: SoapContract): Promise<SoapInput> {
    let input = this.soap.get(contract.wsdl);
    if (!input) {
      input = readSoapContract(fromRoot(contract.wsdl)).then((model) => ({ contract, model, view: codegenView(model), specPath: displayPath(model.wsdlFile) }));
      this.soap.set(contract.wsdl, input);
    }
    return input;
  }
}

/** The package's tables of what its contracts mark secret, from the contracts already read where there are some. */
async function sensitiveFile(marked: readonly MarkedContract[], contracts: Contracts): Promise<GeneratedFile> {
  const sources = [];
  for (const contract of marked) {
    const marks =
      contract.kind === 'soap'
        ? readSoapSensitiveMarks((await contracts.soapContract(contract)).model)
        : readSensitiveMarks(openApiModel(await contracts.openApi(contract.root)));
    sources.push({ contract: contract.name, spec: specOf(contract), marks });
  }
  return { path: sensitivePath, content: sensitiveModule(generatedHeader(marked.map(specOf).join(' and ')), sources) };
}

/** Every file a target writes, each contract it reads read once. */
export async function generate(target: Target): Promise<GeneratedFile[]> {
  const contracts = new Contracts();
  const files: GeneratedFile[] = [];
  for (const source of target.sources) {
    if (isSoapSource(source)) {
      const input = await contracts.soapContract(source.contract);
      for (const generator of source.generators) files.push(...(await generator(input)));
    } else {
      const specPath = source.contract.root;
      const document = await contracts.openApi(specPath);
      for (const generator of source.generators) files.push(...(await generator({ document, specPath })));
    }
  }
  if (target.sensitive) files.push(await sensitiveFile(target.sensitive, contracts));
  return files;
}
