import type { ComplexType, ElementDeclaration, Global, ModelGroup, QName, SimpleType, SoapContractModel } from './model.js';
import { ContractError, XSD_NS } from './xml.js';

type Declarations = Pick<SoapContractModel, 'elements' | 'complexTypes' | 'simpleTypes'>;

const named = <T extends { name: string; namespace: string }>(list: readonly T[], name: QName): T | undefined =>
  list.find((d) => d.name === name.name && d.namespace === name.namespace);

export const isBuiltIn = (name: QName): boolean => name.namespace === XSD_NS;

export const findElement = (model: Declarations, name: QName): Global<ElementDeclaration> | undefined => named(model.elements, name);
export const findComplexType = (model: Declarations, name: QName): Global<ComplexType> | undefined => named(model.complexTypes, name);
export const findSimpleType = (model: Declarations, name: QName): Global<SimpleType> | undefined => named(model.simpleTypes, name);

/** An element particle with whether it may be left out because a choice or an optional group holds it. */
export interface GroupElement {
  element: ElementDeclaration;
  inOptionalGroup: boolean;
}

/** The element particles of a model group and the groups nested in it, in document order. */
export function elementsOf(group: ModelGroup | undefined, inOptionalGroup = false): GroupElement[] {
  if (!group) return [];
  const optional = inOptionalGroup || group.compositor === 'choice' || group.minOccurs === 0;
  return group.particles.flatMap((particle) =>
    particle.kind === 'element' ? [{ element: particle, inOptionalGroup: optional }] : elementsOf(particle, optional),
  );
}

/** The path of a port address (`https://host:4021/services/messaging/UploadFile` -> `/services/messaging/UploadFile`). */
export function addressPath(location: string): string {
  return location.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
}

/**
 * The path every port address of the contract sits under (`/services/messaging`): the address paths without their
 * last segment, which must be the same for every port.
 */
export function soapBasePath(model: Pick<SoapContractModel, 'services' | 'wsdlFile'>): string {
  const bases = new Set(
    model.services.flatMap((s) => s.ports.flatMap((p) => (p.address ? [addressPath(p.address.location).replace(/\/[^/]*\/?$/, '')] : []))),
  );
  if (bases.size !== 1) throw new ContractError(`${model.wsdlFile}: the port addresses must share one base path, found ${[...bases].join(', ') || 'none'}`);
  return [...bases][0]!;
}
