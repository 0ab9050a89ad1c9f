import type { Migration } from '../migrate.js';

export const identitiesMigration: Migration = {
  version: 5,
  name: 'user_identities',
  sql: `
    -- Accounts at OpenID Connect providers linked to our users (social and IdP sign-in).
    create table user_identities (
      provider text not null,
      subject text not null,
      user_id uuid not null references users (id) on delete cascade,
      email text not null,
      created_at timestamptz not null default now(),
      primary key (provider, subject)
    );
    create index user_identities_user on user_identities (user_id);
  `,
};
