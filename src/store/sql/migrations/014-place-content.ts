import type { Migration } from '../migrate.js';

/**
 * What users contribute to places (docs/places.md "User content"): reviews (one per user and place),
 * questions and their answers, and photos with a moderation status. Everything a user wrote goes with
 * the account (`on delete cascade`).
 *
 * A place's `rating` and `review_count` are kept by a trigger rather than by the repository, so that every
 * way a review disappears (its author deletes it, an account deletion cascades) recomputes them. The trigger
 * locks the place's row first: two reviews of one place written at once are counted one after the other
 * (under read committed the second's aggregate, a new statement, sees the first once it has committed).
 * The rating is the mean of the ratings rounded to two decimals; 0 with no review (spec part 2 §2.4).
 */
export const placeContentMigration: Migration = {
  version: 14,
  name: 'place-content',
  sql: `
    create table place_reviews (
      id uuid primary key,
      place_id uuid not null references places (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      rating smallint not null check (rating between 1 and 5),
      text text not null default '' check (char_length(text) <= 2000),
      created_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default clock_timestamp(),
      unique (place_id, user_id)
    );
    create index place_reviews_page on place_reviews (place_id, created_at desc, id);
    create index place_reviews_user on place_reviews (user_id);

    create function place_review_aggregates() returns trigger language plpgsql as $$
    declare
      target uuid;
    begin
      if tg_op = 'DELETE' then target := old.place_id; else target := new.place_id; end if;
      perform 1 from places where id = target for update;
      update places set
        rating = coalesce((select round(avg(r.rating)::numeric, 2)::double precision from place_reviews r where r.place_id = target), 0),
        review_count = (select count(*) from place_reviews r where r.place_id = target)
      where id = target;
      return null;
    end $$;
    create trigger place_reviews_aggregate after insert or delete or update of rating on place_reviews
      for each row execute function place_review_aggregates();

    create table place_questions (
      id uuid primary key,
      place_id uuid not null references places (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      text text not null check (char_length(text) between 1 and 500),
      created_at timestamptz not null default clock_timestamp()
    );
    create index place_questions_page on place_questions (place_id, created_at desc, id);
    create index place_questions_user on place_questions (user_id, created_at);

    create table place_answers (
      id uuid primary key,
      question_id uuid not null references place_questions (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      text text not null check (char_length(text) between 1 and 1000),
      created_at timestamptz not null default clock_timestamp()
    );
    create index place_answers_page on place_answers (question_id, created_at, id);
    create index place_answers_user on place_answers (user_id, created_at);

    -- the image bytes live in the photo store under storage_key; only approved photos are shown or served
    create table place_photos (
      id uuid primary key,
      place_id uuid not null references places (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      storage_key text not null unique,
      content_type text not null,
      width integer not null check (width > 0),
      height integer not null check (height > 0),
      bytes integer not null check (bytes > 0),
      caption text check (char_length(caption) <= 300),
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
      featured boolean not null default false,
      rejection_reason text check (char_length(rejection_reason) <= 300),
      moderated_by uuid references users (id) on delete set null,
      moderated_at timestamptz,
      created_at timestamptz not null default clock_timestamp(),
      check (not featured or status = 'approved')
    );
    create index place_photos_shown on place_photos (place_id, featured desc, created_at, id) where status = 'approved';
    create unique index place_photos_one_featured on place_photos (place_id) where featured;
    create index place_photos_queue on place_photos (status, created_at, id);
    create index place_photos_user on place_photos (user_id, created_at);

    -- the public logo URL names the path: found by it when served
    create index places_logo on places (logo_path) where logo_path is not null;
  `,
};
