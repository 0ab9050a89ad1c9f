/** Developer API keys for black-box tests: a new user enrolls, makes an organization and a project, then keys with the given scopes. */
import { registerUser, type ApiClient } from './api-client.js';

export async function keysWithScopes(api: ApiClient, ...scopeSets: Record<string, boolean>[]): Promise<{ userToken: string; keys: string[] }> {
  const user = await registerUser(api, 'keyholder');
  await api.post('/developer/enroll', undefined, user.token);
  const organization = (await api.post('/developer/organizations', { name: 'Dispatch' }, user.token)).body;
  const project = (await api.post('/developer/projects', { name: 'Fleet', organizationId: organization.id }, user.token)).body;
  const keys: string[] = [];
  for (const [index, scopes] of scopeSets.entries()) keys.push((await api.post('/developer/api-keys', { projectId: project.id, label: `k${index}`, scopes }, user.token)).body.key);
  return { userToken: user.token, keys };
}
