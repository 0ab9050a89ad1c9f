/** `npm run load -- <scenario>`: runs load scenarios against a locally started server; exits 1 when a target is missed. */
import { runEdgeLoad } from './edge.js';
import { runNavigationLoad } from './navigation.js';

const scenarios: Record<string, () => Promise<boolean>> = {
  edge: runEdgeLoad,
  navigation: runNavigationLoad,
};

const requested = process.argv.slice(2);
const names = requested.length ? requested : Object.keys(scenarios);
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
