import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export type HijriMonthStartStatus = 'announced' | 'confirmed' | 'withdrawn';

export interface HijriMonthStartRow {
  id: string;
  country: string;
  hijriYear: number;
  hijriMonth: number;
  /** `YYYY-MM-DD` */
  startDate: string;
  status: HijriMonthStartStatus;
  actorId: string | null;
  note: string | null;
  createdAt: string;
}

interface Row extends Record<string, unknown> {
  id: string | number | bigint;
  country: string;
  hijri_year: number;
  hijri_month: number;
  start_date: string;
  status: HijriMonthStartStatus;
  actor_id: string | null;
  note: string | null;
  created_at: Date | string;
}

// the date as text: drivers turn a `date` into a Date at some timezone's midnight
const COLUMNS = `id, country, hijri_year, hijri_month, to_char(start_date, 'YYYY-MM-DD') as start_date, status, actor_id, note, created_at`;

const toRecord = (row: Row): HijriMonthStartRow => ({
  id: String(row.id),
  country: row.country,
  hijriYear: Number(row.hijri_year),
  hijriMonth: Number(row.hijri_month),
  startDate: row.start_date,
  status: row.status,
  actorId: row.actor_id,
  note: row.note,
  createdAt: isoOf(row.created_at),
});

/** Operators' Hijri month starts, append only (docs/calendars.md): the newest row of a month is in force. */
export class HijriMonthStartRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async append(entry: Omit<HijriMonthStartRow, 'id' | 'createdAt'>): Promise<HijriMonthStartRow> {
    const rows = await this.sql.query<Row>(
      `insert into hijri_month_starts (country, hijri_year, hijri_month, start_date, status, actor_id, note)
       values ($1, $2, $3, $4::date, $5, $6, $7) returning ${COLUMNS}`,
      [entry.country, entry.hijriYear, entry.hijriMonth, entry.startDate, entry.status, entry.actorId, entry.note],
    );
    return toRecord(rows[0]!);
  }

  /** The newest row of every month that has one (withdrawals included: they end an announcement). */
  async latest(): Promise<HijriMonthStartRow[]> {
    const rows = await this.sql.query<Row>(
      `select distinct on (country, hijri_year, hijri_month) ${COLUMNS} from hijri_month_starts
       order by country, hijri_year, hijri_month, id desc`,
    );
    return rows.map(toRecord);
  }

  /** Every change of a country's Hijri year, oldest first. */
  async history(country: string, hijriYear: number): Promise<HijriMonthStartRow[]> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from hijri_month_starts where country = $1 and hijri_year = $2 order by id`, [country, hijriYear]);
    return rows.map(toRecord);
  }
}
