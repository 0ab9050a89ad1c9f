/**
 * Questions about places and their answers (docs/places.md "User content"). Every delete is scoped to its
 * author and to the place the path names; an answer is written only under a question of that place.
 */
import type { SqlClient } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export interface PlaceAnswerRecord {
  id: string;
  questionId: string;
  userId: string;
  authorName: string | null;
  text: string;
  createdAt: string;
}

export interface PlaceQuestionRecord {
  id: string;
  placeId: string;
  userId: string;
  authorName: string | null;
  text: string;
  createdAt: string;
  answerCount: number;
  /** The oldest answers, as many as asked for. */
  answers: PlaceAnswerRecord[];
}

interface QuestionRow extends Record<string, unknown> {
  id: string;
  place_id: string;
  user_id: string;
  author_name: string | null;
  text: string;
  created_at: Date | string;
  answer_count: number | string;
}

interface AnswerRow extends Record<string, unknown> {
  id: string;
  question_id: string;
  user_id: string;
  author_name: string | null;
  text: string;
  created_at: Date | string;
}

const toAnswer = (row: AnswerRow): PlaceAnswerRecord => ({
  id: row.id,
  questionId: row.question_id,
  userId: row.user_id,
  authorName: row.author_name,
  text: row.text,
  createdAt: isoOf(row.created_at),
});

export class PlaceQuestionRepository {
  constructor(private readonly sql: SqlClient) {}

  async create(id: string, placeId: string, userId: string, text: string): Promise<PlaceQuestionRecord> {
    await this.sql.query('insert into place_questions (id, place_id, user_id, text) values ($1, $2, $3, $4)', [id, placeId, userId, text]);
    return (await this.find(placeId, id, 0))!;
  }

  async find(placeId: string, id: string, answersEach: number): Promise<PlaceQuestionRecord | null> {
    return (await this.questions('q.place_id = $1 and q.id = $2', [placeId, id], 'q.id', 1, 0, answersEach))[0] ?? null;
  }

  /** Newest questions first, each with its answer count and its oldest `answersEach` answers. */
  async page(placeId: string, offset: number, limit: number, answersEach: number): Promise<{ items: PlaceQuestionRecord[]; total: number }> {
    const [items, count] = await Promise.all([
      this.questions('q.place_id = $1', [placeId], 'q.created_at desc, q.id desc', limit, offset, answersEach),
      this.sql.query<{ total: number | string }>('select count(*) as total from place_questions where place_id = $1', [placeId]),
    ]);
    return { items, total: Number(count[0]!.total) };
  }

  private async questions(where: string, params: unknown[], order: string, limit: number, offset: number, answersEach: number): Promise<PlaceQuestionRecord[]> {
    const rows = await this.sql.query<QuestionRow>(
      `select q.id, q.place_id, q.user_id, nullif(u.name, '') as author_name, q.text, q.created_at,
         (select count(*) from place_answers a where a.question_id = q.id) as answer_count
       from place_questions q join users u on u.id = q.user_id where ${where}
       order by ${order} limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, limit, offset],
    );
    const answers = new Map<string, PlaceAnswerRecord[]>();
    if (answersEach > 0 && rows.length > 0) {
      const answerRows = await this.sql.query<AnswerRow>(
        `select id, question_id, user_id, author_name, text, created_at from (
           select a.id, a.question_id, a.user_id, nullif(u.name, '') as author_name, a.text, a.created_at,
             row_number() over (partition by a.question_id order by a.created_at, a.id) as position
           from place_answers a join users u on u.id = a.user_id where a.question_id = any($1::uuid[])
         ) ranked where position <= $2 order by created_at, id`,
        [rows.map((row) => row.id), answersEach],
      );
      for (const row of answerRows) {
        const list = answers.get(row.question_id) ?? [];
        list.push(toAnswer(row));
        answers.set(row.question_id, list);
      }
    }
    return rows.map((row) => ({
      id: row.id,
      placeId: row.place_id,
      userId: row.user_id,
      authorName: row.author_name,
      text: row.text,
      createdAt: isoOf(row.created_at),
      answerCount: Number(row.answer_count),
      answers: answers.get(row.id) ?? [],
    }));
  }

  /** Deletes the author's own question and its answers; false when the author has none of that id at the place. */
  async delete(placeId: string, id: string, userId: string): Promise<boolean> {
    const rows = await this.sql.query('delete from place_questions where place_id = $1 and id = $2 and user_id = $3 returning id', [placeId, id, userId]);
    return rows.length > 0;
  }

  /** Answers a question of the place; null when the place has no such question. */
  async answer(id: string, placeId: string, questionId: string, userId: string, text: string): Promise<PlaceAnswerRecord | null> {
    const rows = await this.sql.query<{ id: string }>(
      `insert into place_answers (id, question_id, user_id, text)
       select $1, q.id, $4, $5 from place_questions q where q.place_id = $2 and q.id = $3 returning id`,
      [id, placeId, questionId, userId, text],
    );
    if (!rows[0]) return null;
    return (await this.answers(placeId, questionId, 0, 1, id)).items[0] ?? null;
  }

  /** The answers of a question of the place, oldest first. */
  async answers(placeId: string, questionId: string, offset: number, limit: number, onlyId?: string): Promise<{ items: PlaceAnswerRecord[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.sql.query<AnswerRow>(
        `select a.id, a.question_id, a.user_id, nullif(u.name, '') as author_name, a.text, a.created_at
         from place_answers a join place_questions q on q.id = a.question_id join users u on u.id = a.user_id
         where q.place_id = $1 and a.question_id = $2 and ($5::uuid is null or a.id = $5)
         order by a.created_at, a.id limit $3 offset $4`,
        [placeId, questionId, limit, offset, onlyId ?? null],
      ),
      this.sql.query<{ total: number | string }>(
        'select count(*) as total from place_answers a join place_questions q on q.id = a.question_id where q.place_id = $1 and a.question_id = $2',
        [placeId, questionId],
      ),
    ]);
    return { items: rows.map(toAnswer), total: Number(count[0]!.total) };
  }

  /** Deletes the author's own answer; false when the author has none of that id under the place's question. */
  async deleteAnswer(placeId: string, questionId: string, id: string, userId: string): Promise<boolean> {
    const rows = await this.sql.query(
      `delete from place_answers a using place_questions q
       where q.id = a.question_id and q.place_id = $1 and a.question_id = $2 and a.id = $3 and a.user_id = $4 returning a.id`,
      [placeId, questionId, id, userId],
    );
    return rows.length > 0;
  }

  /** Questions or answers the user wrote since an instant (the per-user daily caps). */
  async countWrittenSince(kind: 'question' | 'answer', userId: string, sinceMs: number): Promise<number> {
    const table = kind === 'question' ? 'place_questions' : 'place_answers';
    const rows = await this.sql.query<{ total: number | string }>(`select count(*) as total from ${table} where user_id = $1 and created_at >= $2`, [userId, new Date(sinceMs)]);
    return Number(rows[0]!.total);
  }

  async questionExists(placeId: string, id: string): Promise<boolean> {
    return (await this.sql.query('select 1 from place_questions where place_id = $1 and id = $2', [placeId, id])).length > 0;
  }

  async answerExists(placeId: string, questionId: string, id: string): Promise<boolean> {
    const rows = await this.sql.query(
      'select 1 from place_answers a join place_questions q on q.id = a.question_id where q.place_id = $1 and a.question_id = $2 and a.id = $3',
      [placeId, questionId, id],
    );
    return rows.length > 0;
  }
}
