import type { ComplexType, ElementDeclaration, ModelGroup, SimpleType, SoapContractModel } from '../soap/model.js';
import { describeState, SensitiveMarksError, type MarkState, type SensitiveKind } from './kinds.js';
import { PARAMETER_LOCATIONS, type SensitiveMarks } from './openapi-marks.js';

function* elementsOfGroup(group: ModelGroup | undefined): Generator<ElementDeclaration> {
  for (const particle of group?.particles ?? []) {
    if (particle.kind === 'group') yield* elementsOfGroup(particle);
    else yield* elementAndInside(particle);
  }
}

function* elementAndInside(element: ElementDeclaration): Generator<ElementDeclaration> {
  // A `ref=` particle stands for a global element, which is read on its own.
  if (element.ref) return;
  yield element;
  yield* insideType(element.inlineType);
}

function* insideType(type: ComplexType | SimpleType | undefined): Generator<ElementDeclaration> {
  if (type?.kind === 'complex') yield* elementsOfGroup(type.group);
}

/**
 * Reads the `<paykit:sensitive>` marks of a SOAP contract's XSD (on element declarations, global or local, by local
 * name): the same tables as an OpenAPI contract's, with `xmlElements` filled and the rest empty. A name marked two
 * ways, or marked in one declaration and not in another, is refused as in OpenAPI.
 */
export function readSoapSensitiveMarks(model: SoapContractModel): SensitiveMarks {
  const places = new Map<string, { state: MarkState; source: string }[]>();
  const declarations = [...model.elements.flatMap((e) => [...elementAndInside(e)]), ...model.complexTypes.flatMap((t) => [...insideType(t)])];
  for (const element of declarations) places.set(element.name, [...(places.get(element.name) ?? []), { state: element.sensitive, source: element.source }]);
  const problems: string[] = [];
  const xmlElements: [string, SensitiveKind][] = [];
  for (const [name, list] of [...places].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const states = new Set(list.map((p) => describeState(p.state)));
    if (states.size > 1) {
      problems.push(`the element ${JSON.stringify(name)} is ${list.map((p) => `${describeState(p.state)} at ${p.source}`).join('; ')}: a name has one kind in the whole contract`);
    } else if (list[0]!.state) xmlElements.push([name, list[0]!.state]);
  }
  if (problems.length > 0) throw new SensitiveMarksError(`The sensitive marks of the contract do not hold together:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return {
    properties: {},
    echoes: {},
    parameters: Object.fromEntries(PARAMETER_LOCATIONS.map((location) => [location, {}])) as SensitiveMarks['parameters'],
    securitySchemes: {},
    bodies: {},
    xmlElements: Object.fromEntries(xmlElements),
  };
}
