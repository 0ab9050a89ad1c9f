/**
 * Problem spots (spec part 3 §4.8): open reports and implicit signals clustered by a cell of about
 * 110 m (0.001° of latitude and longitude), each scored by severity × source trust × recency.
 */
import { roundTo } from '../../shared/rounding.js';
import type { FeedbackReportRecord, FeedbackSignalRecord } from '../../store/pg/feedback.js';
import { DEFAULT_SOURCE_TRUST, SIGNAL_SEVERITY, SOURCE_TRUST } from './feedback-catalog.js';
import type { ImplicitSignal } from '../../domain/feedback.js';

export const CELL_DEGREES = 0.001;
/** A report's weight halves every 7 days. */
export const RECENCY_HALF_LIFE_DAYS = 7;
const DAY = 86_400_000;

export interface ProblemSpot {
  lat: number;
  lng: number;
  count: number;
  score: number;
  dominantCategory: string | null;
  reason: string;
  signals: Record<string, number>;
  sources: Record<string, number>;
  lastAt: string;
}

interface Cell {
  latSum: number;
  lngSum: number;
  count: number;
  score: number;
  categoryScore: Map<string, number>;
  categoryCount: Map<string, number>;
  signals: Record<string, number>;
  sources: Record<string, number>;
  lastAt: number;
}

export function recencyWeight(atMs: number, nowMs: number): number {
  return 0.5 ** (Math.max(0, nowMs - atMs) / DAY / RECENCY_HALF_LIFE_DAYS);
}

export function problemSpots(reports: FeedbackReportRecord[], signals: FeedbackSignalRecord[], nowMs: number, limit: number): ProblemSpot[] {
  const cells = new Map<string, Cell>();
  const cellOf = (lat: number, lng: number) => {
    const key = `${Math.floor(lat / CELL_DEGREES)}:${Math.floor(lng / CELL_DEGREES)}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { latSum: 0, lngSum: 0, count: 0, score: 0, categoryScore: new Map(), categoryCount: new Map(), signals: {}, sources: {}, lastAt: 0 }));
    return cell;
  };
  const add = (cell: Cell, lat: number, lng: number, score: number, at: number) => {
    cell.latSum += lat;
    cell.lngSum += lng;
    cell.count += 1;
    cell.score += score;
    cell.lastAt = Math.max(cell.lastAt, at);
  };
  for (const report of reports) {
    const at = Date.parse(report.createdAt);
    const score = report.severity * (SOURCE_TRUST.get(report.source) ?? DEFAULT_SOURCE_TRUST) * recencyWeight(at, nowMs);
    const cell = cellOf(report.lat, report.lng);
    add(cell, report.lat, report.lng, score, at);
    cell.categoryScore.set(report.category, (cell.categoryScore.get(report.category) ?? 0) + score);
    cell.categoryCount.set(report.category, (cell.categoryCount.get(report.category) ?? 0) + 1);
    cell.sources[report.source] = (cell.sources[report.source] ?? 0) + 1;
  }
  for (const signal of signals) {
    const at = Date.parse(signal.createdAt);
    const severity = SIGNAL_SEVERITY[signal.signal as ImplicitSignal] ?? 1;
    const cell = cellOf(signal.lat, signal.lng);
    add(cell, signal.lat, signal.lng, severity * (SOURCE_TRUST.get('implicit') ?? DEFAULT_SOURCE_TRUST) * recencyWeight(at, nowMs), at);
    cell.signals[signal.signal] = (cell.signals[signal.signal] ?? 0) + 1;
    cell.sources.implicit = (cell.sources.implicit ?? 0) + 1;
  }
  return [...cells.values()]
    .map((cell) => {
      const dominant = [...cell.categoryScore.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
      return {
        lat: roundTo(cell.latSum / cell.count, 6),
        lng: roundTo(cell.lngSum / cell.count, 6),
        count: cell.count,
        score: roundTo(cell.score, 3),
        dominantCategory: dominant,
        reason: reasonOf(cell, dominant),
        signals: cell.signals,
        sources: cell.sources,
        lastAt: new Date(cell.lastAt).toISOString(),
      };
    })
    .sort((a, b) => b.score - a.score || b.count - a.count)
    .slice(0, limit);
}

function reasonOf(cell: Cell, dominant: string | null): string {
  const parts: string[] = [];
  const reports = [...cell.categoryCount.values()].reduce((sum, count) => sum + count, 0);
  if (dominant) parts.push(`${reports} open report${reports === 1 ? '' : 's'}, mostly ${dominant} (${cell.categoryCount.get(dominant)})`);
  const signalText = Object.entries(cell.signals)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([signal, count]) => `${signal} ×${count}`);
  if (signalText.length) parts.push(`implicit signals: ${signalText.join(', ')}`);
  return parts.join('; ');
}
