import { ApiError } from '../../../shared/errors.js';
import type { UserRecord } from '../../../domain/user.js';
import type { IdentityRepository } from '../../../store/pg/identities.js';
import type { ProviderPasswordCheck, ProviderPasswordVerdict } from '../account-service.js';
import { OidcError, type OidcProvider } from './oidc-provider.js';

/**
 * Spec part 1 §4.2 rule 5: an account created through an identity provider's
 * e-mail/password method has no password here; its password login is checked
 * by that provider, with the resource-owner password grant, when the operator
 * configured the provider with `passwordGrant: true`. Otherwise the login
 * answers PROVIDER_ACCOUNT (rule 4).
 */
export class OidcPasswordCheck implements ProviderPasswordCheck {
  private readonly providers: Map<string, OidcProvider>;

  constructor(
    providers: readonly OidcProvider[],
    private readonly identities: IdentityRepository,
  ) {
    this.providers = new Map(providers.map((provider) => [provider.id, provider]));
  }

  async check(user: UserRecord, password: string): Promise<ProviderPasswordVerdict> {
    const linked = await this.identities.identitiesOf(user.id);
    const identity = linked.find((candidate) => this.providers.get(candidate.provider)?.config.passwordGrant === true);
    if (!identity) return { kind: 'no-password-grant', provider: linked[0]?.provider ?? null };
    const provider = this.providers.get(identity.provider)!;
    try {
      const grant = await provider.passwordGrant(user.email, password);
      if (grant.kind === 'refused') return { kind: 'invalid' };
      const verified = await provider.verifyIdToken(grant.idToken);
      // The provider vouched for its account with this e-mail: it must be the very account linked to this user.
      const linkedSubject = linked.some((candidate) => candidate.provider === provider.id && candidate.subject === verified.subject);
      return linkedSubject ? { kind: 'valid' } : { kind: 'invalid' };
    } catch (error) {
      if (!(error instanceof OidcError)) throw error;
      // Fail closed: a provider that cannot answer (or answers what cannot be verified) signs nobody in.
      const reason = error.reason === 'provider_unavailable' ? 'provider_unavailable' : 'provider_misconfigured';
      throw new ApiError('SERVICE_UNAVAILABLE', {
        message: `Identity provider ${provider.id} cannot check the password right now`,
        details: { reason, provider: provider.id },
        headers: { 'retry-after': '5' },
      });
    }
  }
}
