/** `npm run load -- <scenario>`: runs load scenarios against a locally started server; exits 1 when a target is missed. */
import { runEdgeLoad } from './edge.js';
import { runNavigationLoad } from './navigation.js';
import { runSlowConsumersLoad } from './slow-consumers.js';
import { runSoakLoad } from './soak.js';

const scenarios: Record<string, () => Promise<boolean>> = {
  edge: runEdgeLoad,
  navigation: runNavigationLoad,
  'slow-consumers': runSlowConsumersLoad,
  soak: runSoakLoad,
};

const requested = process.argv.slice(2);
// the soak runs 10 minutes: only when named
const names = requested.length ? requested : Object.keys(scenarios).filter((name) => name !== 'soak');
let allMet = true;
for (const name of names) {
  const run = scenarios[name];
  if (!run) {
    console.error(`unknown scenario "${name}"; known: ${Object.keys(scenarios).join(', ')}`);
    process.exit(2);
  }
  allMet = (await run()) && allMet;
}
process.exit(allMet ? 0 : 1);
