import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';
import type { FeedbackStatus } from '../../domain/feedback.js';

export interface FeedbackReportRecord {
  id: string;
  source: string;
  category: string;
  severity: number;
  lat: number;
  lng: number;
  context: Record<string, unknown>;
  status: FeedbackStatus;
  createdAt: string;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
  editorNote: string;
}

export interface FeedbackSignalRecord {
  signal: string;
  lat: number;
  lng: number;
  createdAt: string;
}

interface ReportRow extends Record<string, unknown> {
  id: string;
  source: string;
  category: string;
  severity: number;
  lat: number;
  lng: number;
  context: Record<string, unknown> | string;
  status: string;
  created_at: Date | string;
  acknowledged_at: Date | string | null;
  resolved_at: Date | string | null;
  editor_note: string;
}

const REPORT_COLUMNS = 'id, source, category, severity, lat, lng, context, status, created_at, acknowledged_at, resolved_at, editor_note';
const toReport = (row: ReportRow): FeedbackReportRecord => ({
  id: row.id,
  source: row.source,
  category: row.category,
  severity: Number(row.severity),
  lat: Number(row.lat),
  lng: Number(row.lng),
  context: typeof row.context === 'string' ? (JSON.parse(row.context) as Record<string, unknown>) : row.context,
  status: row.status as FeedbackStatus,
  createdAt: isoOf(row.created_at),
  acknowledgedAt: isoOrNull(row.acknowledged_at),
  resolvedAt: isoOrNull(row.resolved_at),
  editorNote: row.editor_note,
});

export interface BoxFilter {
  west: number;
  south: number;
  east: number;
  north: number;
}

const inBox = (first: number) => `lat between $${first} and $${first + 1} and lng between $${first + 2} and $${first + 3}`;
const boxParams = (box: BoxFilter) => [box.south, box.north, box.west, box.east];

/** Explicit feedback reports and implicit signals (spec part 3 §4.8). */
export class FeedbackRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async createReport(report: Omit<FeedbackReportRecord, 'status' | 'acknowledgedAt' | 'resolvedAt' | 'editorNote' | 'createdAt'> & { reporter: string; at: Date }): Promise<void> {
    await this.sql.query(
      `insert into feedback_reports (id, reporter, source, category, severity, lat, lng, context, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [report.id, report.reporter, report.source, report.category, report.severity, report.lat, report.lng, JSON.stringify(report.context), report.at],
    );
  }

  async createSignal(signal: { id: string; reporter: string; signal: string; lat: number; lng: number; context: Record<string, unknown>; at: Date }): Promise<void> {
    await this.sql.query(`insert into feedback_signals (id, reporter, signal, lat, lng, context, created_at) values ($1, $2, $3, $4, $5, $6, $7)`, [
      signal.id, signal.reporter, signal.signal, signal.lat, signal.lng, JSON.stringify(signal.context), signal.at,
    ]);
  }

  async find(id: string): Promise<FeedbackReportRecord | undefined> {
    const rows = await this.sql.query<ReportRow>(`select ${REPORT_COLUMNS} from feedback_reports where id = $1`, [id]);
    return rows[0] ? toReport(rows[0]) : undefined;
  }

  /** Moves a report from `from` to `to`; false when it was no longer in `from` (another editor moved it). */
  async move(id: string, from: FeedbackStatus, to: FeedbackStatus, at: Date, note: string | undefined): Promise<boolean> {
    const stamp = to === 'ack' ? 'acknowledged_at' : 'resolved_at';
    const rows = await this.sql.query(
      `update feedback_reports set status = $3, ${stamp} = $4, editor_note = coalesce($5, editor_note) where id = $1 and status = $2 returning id`,
      [id, from, to, at, note ?? null],
    );
    return rows.length === 1;
  }

  /** Reports (of a status, in a box), newest first. */
  async list(filter: { status?: FeedbackStatus; box?: BoxFilter; limit: number }): Promise<FeedbackReportRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status) where.push(`status = $${params.push(filter.status)}`);
    if (filter.box) {
      where.push(inBox(params.length + 1));
      params.push(...boxParams(filter.box));
    }
    const rows = await this.sql.query<ReportRow>(
      `select ${REPORT_COLUMNS} from feedback_reports ${where.length ? `where ${where.join(' and ')}` : ''} order by created_at desc limit $${params.push(filter.limit)}`,
      params,
    );
    return rows.map(toReport);
  }

  /** Acknowledged reports of the given categories acknowledged after `since` (live avoidances), in an optional box. */
  async acknowledged(categories: readonly string[], since: Date, box: BoxFilter | undefined, limit: number): Promise<FeedbackReportRecord[]> {
    const params: unknown[] = [categories, since];
    const where = box ? `and ${inBox(3)}` : '';
    if (box) params.push(...boxParams(box));
    const rows = await this.sql.query<ReportRow>(
      `select ${REPORT_COLUMNS} from feedback_reports where status = 'ack' and category = any($1) and acknowledged_at > $2 ${where}
       order by acknowledged_at desc limit $${params.push(limit)}`,
      params,
    );
    return rows.map(toReport);
  }

  /** Open reports and implicit signals since a time (in a box), for problem spots: at most `limit` of each. */
  async openSince(since: Date, box: BoxFilter | undefined, limit: number): Promise<{ reports: FeedbackReportRecord[]; signals: FeedbackSignalRecord[] }> {
    const params: unknown[] = [since];
    const where = box ? `and ${inBox(2)}` : '';
    if (box) params.push(...boxParams(box));
    params.push(limit);
    const [reports, signals] = await Promise.all([
      this.sql.query<ReportRow>(`select ${REPORT_COLUMNS} from feedback_reports where status = 'open' and created_at > $1 ${where} order by created_at desc limit $${params.length}`, params),
      this.sql.query<{ signal: string; lat: number; lng: number; created_at: Date | string }>(
        `select signal, lat, lng, created_at from feedback_signals where created_at > $1 ${where} order by created_at desc limit $${params.length}`,
        params,
      ),
    ]);
    return {
      reports: reports.map(toReport),
      signals: signals.map((row) => ({ signal: row.signal, lat: Number(row.lat), lng: Number(row.lng), createdAt: isoOf(row.created_at) })),
    };
  }
}
