/**
 * The developer page: register or sign in (a bearer session kept in sessionStorage), enrol as a developer,
 * create an organization, a project and an API key in one step; the new key (shown once) becomes the key
 * the other pages use, kept in localStorage. Lists the caller's keys with their usage, shows the quota
 * headers of the last answer live, and links to /docs.
 */
import { client, currentApiKey, developerSession, errorText, lastQuota, onQuota, setApiKey } from '../app-state.js';
import { fill, h } from '../dom.js';
import { formatNumber, t } from '../i18n.js';
import type { View } from './view.js';

interface KeyListItem {
  id: string;
  label: string;
  lastFour: string;
  plan: string;
  active: boolean;
  usage?: { minute: { used: number; limit: number | null }; day: { used: number; limit: number | null } };
}

/** The scopes the app's pages use; `optimize` (off by default) is what the fleet page needs. */
const APP_SCOPES = { search: true, geocode: true, places: true, routing: true, tiles: true, optimize: true };

export function developerView(onKeyChange: () => void): View {
  const s = () => t();
  const out = h('section', { 'aria-live': 'polite' });
  const quota = h('p', { 'data-testid': 'quota' });
  let unsubscribe: (() => void) | undefined;

  const bearer = () => ({ headers: { authorization: `Bearer ${developerSession.token}` } });

  const showQuota = () => {
    const snapshot = lastQuota();
    quota.textContent = snapshot
      ? `${s().liveQuota}: ${snapshot.unlimited ? '∞' : `${formatNumber(snapshot.remainingMinute ?? 0)}/${formatNumber(snapshot.limitMinute ?? 0)} ${s().perMinute} · ${formatNumber(snapshot.remainingDay ?? 0)}/${formatNumber(snapshot.limitDay ?? 0)} ${s().perDay}`}`
      : `${s().liveQuota}: —`;
  };

  const authenticate = async (mode: 'login' | 'register', form: HTMLFormElement) => {
    const data = new FormData(form);
    const email = String(data.get('email') ?? '');
    const password = String(data.get('password') ?? '');
    const answer =
      mode === 'register'
        ? await client.api.POST('/api/v1/auth/register', { body: { email, password, name: email.split('@')[0] || 'developer' } as never })
        : await client.api.POST('/api/v1/auth/login', { body: { email, password } as never });
    const token = (answer.data as { accessToken?: string } | undefined)?.accessToken;
    if (!token) return showError(answer.error);
    developerSession.set(token, email);
    await client.api.POST('/api/v1/developer/enroll', bearer() as never);
    await render();
  };

  const createKey = async () => {
    const organization = await client.api.POST('/api/v1/developer/organizations', { ...bearer(), body: { name: 'Web app' } } as never);
    const organizationId = (organization.data as { id?: string } | undefined)?.id;
    if (!organizationId) return showError(organization.error);
    const project = await client.api.POST('/api/v1/developer/projects', { ...bearer(), body: { name: 'Web app demo', organizationId } } as never);
    const projectId = (project.data as { id?: string } | undefined)?.id;
    if (!projectId) return showError(project.error);
    // the self-serve maximum per minute: a navigation replay sends two fix messages a second
    const key = await client.api.POST('/api/v1/developer/api-keys', { ...bearer(), body: { projectId, label: 'web app', scopes: APP_SCOPES, quotaPerMinute: 255 } } as never);
    const plaintext = (key.data as { key?: string } | undefined)?.key;
    if (!plaintext) return showError(key.error);
    setApiKey(plaintext);
    onKeyChange();
    await render();
    out.prepend(h('p', { className: 'notice', 'data-testid': 'new-key' }, s().keyCreated, ' ', h('code', {}, plaintext)));
  };

  const showError = (error: unknown) => out.prepend(h('p', { className: 'error', role: 'alert' }, errorText(error)));

  const keyForm = () =>
    h(
      'form',
      {
        className: 'key-form',
        onsubmit: (event: SubmitEvent) => {
          event.preventDefault();
          setApiKey(String(new FormData(event.target as HTMLFormElement).get('key') ?? ''));
          onKeyChange();
          void render();
        },
      },
      h('label', { for: 'own-key' }, s().useKey),
      h('input', { id: 'own-key', name: 'key', autocomplete: 'off', spellcheck: 'false', placeholder: 'svc_…', value: currentApiKey() ? `svc_…${currentApiKey()!.slice(-4)}` : '' }),
      h('button', { type: 'submit' }, s().save),
    );

  const render = async () => {
    const token = developerSession.token;
    if (!token) {
      const form = h(
        'form',
        { className: 'auth-form', onsubmit: (event: SubmitEvent) => (event.preventDefault(), void authenticate('login', form)) },
        h('label', { for: 'dev-email' }, s().email),
        h('input', { id: 'dev-email', name: 'email', type: 'email', required: true, autocomplete: 'username' }),
        h('label', { for: 'dev-password' }, s().password),
        h('input', { id: 'dev-password', name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'current-password' }),
        h('div', { className: 'actions' }, h('button', { type: 'submit' }, s().signIn), h('button', { type: 'button', onclick: () => form.reportValidity() && void authenticate('register', form) }, s().register)),
      );
      return fill(out, form, keyForm());
    }
    const keys = await client.api.GET('/api/v1/developer/api-keys', bearer() as never);
    const items = ((keys.data as { items?: KeyListItem[] } | undefined)?.items ?? []) as KeyListItem[];
    fill(out, 
      h('p', {}, s().signedInAs(developerSession.email ?? ''), ' ', h('button', { type: 'button', className: 'link', onclick: () => (developerSession.set(undefined), void render()) }, s().signOut)),
      h('button', { type: 'button', 'data-action': 'create-key', onclick: () => void createKey() }, s().createKey),
      h('h3', {}, s().yourKeys),
      h(
        'table',
        { className: 'keys' },
        h('thead', {}, h('tr', {}, h('th', {}, 'key'), h('th', {}, 'plan'), h('th', {}, s().perMinute), h('th', {}, s().perDay))),
        h(
          'tbody',
          {},
          ...items.map((item) =>
            h('tr', {}, h('td', {}, `${item.label} …${item.lastFour}`), h('td', {}, item.plan), h('td', {}, `${item.usage?.minute.used ?? 0}/${item.usage?.minute.limit ?? '∞'}`), h('td', {}, `${item.usage?.day.used ?? 0}/${item.usage?.day.limit ?? '∞'}`)),
          ),
        ),
      ),
      keyForm(),
    );
  };

  return {
    render(panel) {
      panel.append(h('p', {}, s().devIntro), quota, out, h('p', {}, h('a', { href: '/docs' }, s().docs)));
      showQuota();
      unsubscribe = onQuota(showQuota);
      void render();
    },
    leave() {
      unsubscribe?.();
    },
  };
}
