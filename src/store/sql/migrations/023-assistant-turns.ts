import type { Migration } from '../migrate.js';

/**
 * The assistant's conversation log (spec part 3 §4.7; docs/assistant.md): each /ai/agent and
 * /ai/assistant turn's prompt, the history sent with it and the reply, kept at most 30 days (a
 * scheduled purge deletes older rows) and tied to the user it was made for, so that the account's
 * export includes them and its deletion removes them (cascade). A key's turns belong to the key's owner.
 */
export const assistantTurnsMigration: Migration = {
  version: 23,
  name: 'assistant-turns',
  sql: `
    create table assistant_turns (
      id uuid primary key,
      user_id uuid references users (id) on delete cascade,
      key_id text,
      endpoint text not null,
      message text not null,
      history jsonb not null default '[]'::jsonb,
      reply text not null,
      action text not null,
      source text not null,
      created_at timestamptz not null
    );
    create index assistant_turns_user on assistant_turns (user_id, created_at);
    create index assistant_turns_created on assistant_turns (created_at);
  `,
};
