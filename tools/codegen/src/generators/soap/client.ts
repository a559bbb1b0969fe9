import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { ContractError, readSoapSensitiveMarks, sensitiveModule } from '@paykit/contracts';
import type { GeneratedFile, SoapGenerator } from '../../generator.js';
import { displayPath } from '../../header.js';
import { emitContract } from './emit-contract.js';
import { emitTypes } from './emit-types.js';
import { withXmlHeader } from './header.js';

/** The messages' TypeScript types. */
const typesGenerator: SoapGenerator = ({ view, header }) => [{ path: 'src/generated/types.ts', content: `${header}\n${emitTypes(view)}` }];

/** The descriptors the hand-written codec reads: namespace, fields in schema order, operations. */
const descriptorsGenerator: SoapGenerator = ({ view, header }) => [
  { path: 'src/generated/contract.ts', content: `${header}\n${emitContract(view, './types.js')}` },
];

/** What the contract marks secret (<paykit:sensitive> in the XSD), as every package's tables are written. */
const sensitiveGenerator: SoapGenerator = ({ contract, model, header }) => [
  {
    path: 'src/generated/sensitive.ts',
    content: sensitiveModule(header, [{ contract: contract.name, spec: displayPath(model.wsdlFile), marks: readSoapSensitiveMarks(model) }]),
  },
];

/** The contract files as the client package ships them, for merchants' own tools; imports are relative, so the layout is kept. */
const contractCopiesGenerator: SoapGenerator = async ({ model, view }) => {
  const wsdlDir = dirname(model.wsdlFile);
  const files: GeneratedFile[] = [];
  for (const source of view.sources) {
    if (source.startsWith('..') || isAbsolute(source)) {
      throw new ContractError(`${source}: every imported schema must sit in the WSDL's folder or below it`);
    }
    const xml = await readFile(join(wsdlDir, source), 'utf8');
    files.push({ path: join('wsdl', source), content: withXmlHeader(xml, [displayPath(join(wsdlDir, source))]) });
  }
  return files;
};

/** The typed client: types, descriptors, the table of what is secret, and the contract copy it ships. */
export const soapClientGenerators: SoapGenerator[] = [typesGenerator, descriptorsGenerator, sensitiveGenerator, contractCopiesGenerator];
