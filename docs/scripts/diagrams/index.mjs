// The diagrams of the guides, drawn at build time from the contracts' own machine-readable tables: the state machines
// the payments sandbox enforces (`x-paykit-state-machines`, through readStateMachines) and the flows
// (`x-paykit-flows`, through readFlows). A guide places one with a marker on a line of its own:
//   <!-- diagram: state alias-status -->   <!-- diagram: flow card-payment -->
import { bundleOpenApi, openApiContracts, readFlows, readStateMachines } from '@paykit/contracts';
import { renderSequenceDiagram } from './sequence-diagram.mjs';
import { renderStateDiagram } from './state-diagram.mjs';
import { kebab } from './svg.mjs';

/** A marker line; the kind and name are checked against the known diagrams by the renderer. */
export const diagramMarker = /^<!--\s*diagram:\s*(\S+)\s+(\S+)\s*-->$/;

/**
 * @typedef {{ kind: 'state' | 'flow', name: string, contract: string, render: () => string }} DiagramSource
 * @typedef {Map<string, DiagramSource>} DiagramCatalogue  keyed by `<kind> <name>`
 */

/**
 * Every diagram the contracts can draw, by marker key. Rendered on demand, each at most once per build.
 * @returns {Promise<DiagramCatalogue>}
 */
export async function loadDiagrams() {
  /** @type {DiagramCatalogue} */
  const catalogue = new Map();
  const add = (/** @type {DiagramSource} */ source) => {
    const key = `${source.kind} ${source.name}`;
    const owner = catalogue.get(key);
    if (owner) throw new Error(`two contracts draw "${key}": ${owner.contract} and ${source.contract}`);
    let svg = '';
    catalogue.set(key, { ...source, render: () => (svg ||= source.render()) });
  };
  for (const contract of openApiContracts) {
    const document = await bundleOpenApi(contract.root);
    for (const machine of Object.values(readStateMachines(document, contract.name))) {
      add({ kind: 'state', name: kebab(machine.name), contract: contract.name, render: () => renderStateDiagram(machine) });
    }
    for (const flow of Object.values(readFlows(document, contract.name))) {
      add({ kind: 'flow', name: kebab(flow.name), contract: contract.name, render: () => renderSequenceDiagram(flow) });
    }
  }
  return catalogue;
}
