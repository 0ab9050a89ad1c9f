import { describe, expect, it } from 'vitest';
import type { FeedbackReportRecord } from '../../store/pg/feedback.js';
import { problemSpots, recencyWeight } from './problem-spots.js';
import { incidentConfidence } from '../incidents/incident-service.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const DAY = 86_400_000;
const report = (fields: Partial<FeedbackReportRecord>): FeedbackReportRecord => ({
  id: 'r', source: 'nav_chip', category: 'road_closed', severity: 3, lat: 30.0605, lng: 31.3205, context: {}, status: 'open',
  createdAt: new Date(NOW).toISOString(), acknowledgedAt: null, resolvedAt: null, editorNote: '', ...fields,
});

describe('problem spots', () => {
  it('puts items of one ~110 m cell together and apart from the next cell', () => {
    const spots = problemSpots([report({}), report({ lat: 30.0609, lng: 31.3201 }), report({ lat: 30.0615 })], [], NOW, 10);
    expect(spots.map((spot) => spot.count).sort()).toEqual([1, 2]);
  });

  it('scores severity × source trust × recency (half every 7 days)', () => {
    const [fresh] = problemSpots([report({ severity: 4 })], [], NOW, 1);
    expect(fresh!.score).toBeCloseTo(4 * 0.9, 6);
    const [old] = problemSpots([report({ severity: 4, createdAt: new Date(NOW - 7 * DAY).toISOString() })], [], NOW, 1);
    expect(old!.score).toBeCloseTo((4 * 0.9) / 2, 6);
    const [unknownSource] = problemSpots([report({ severity: 4, source: 'carrier_pigeon' })], [], NOW, 1);
    expect(unknownSource!.score).toBeCloseTo(4 * 0.5, 6);
    expect(recencyWeight(NOW + DAY, NOW)).toBe(1);
  });

  it('names the dominant category by score and counts signals and sources', () => {
    const [spot] = problemSpots(
      [report({ category: 'wrong_eta', severity: 1 }), report({ category: 'wrong_eta', severity: 1 }), report({ category: 'hazard', severity: 5 })],
      [{ signal: 'u_turn', lat: 30.0605, lng: 31.3205, createdAt: new Date(NOW).toISOString() }],
      NOW,
      1,
    );
    expect(spot).toMatchObject({ count: 4, dominantCategory: 'hazard', signals: { u_turn: 1 }, sources: { nav_chip: 3, implicit: 1 } });
    expect(spot!.reason).toBe('3 open reports, mostly hazard (1); implicit signals: u_turn ×1');
  });
});

describe('incident confidence', () => {
  it('rises with reports and falls with clears', () => {
    expect([1, 2, 3].map((supports) => incidentConfidence(supports, 0))).toEqual([0.5, 0.75, 0.88]);
    expect(incidentConfidence(2, 2)).toBeLessThan(incidentConfidence(2, 0));
    expect(incidentConfidence(0, 1)).toBe(0);
  });
});
