import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetLabels as budgetOf, pointsOf, type LabelCandidate, type LabelBudgetOptions, type ScreenBox } from './label-budget.js';

const budgetLabels = (candidates: readonly LabelCandidate[], options: LabelBudgetOptions) => budgetOf(pointsOf(candidates), options);

const overlaps = (a: ScreenBox, b: ScreenBox, gap: number) => a[0] < b[2] + gap && b[0] < a[2] + gap && a[1] < b[3] + gap && b[1] < a[3] + gap;

const candidateArbitrary = fc.record({
  x: fc.double({ min: -50, max: 900, noNaN: true }),
  y: fc.double({ min: -50, max: 700, noNaN: true }),
  labelWidth: fc.integer({ min: 0, max: 120 }),
  labelHeight: fc.constantFrom(16, 20, 32),
  priority: fc.integer({ min: 0, max: 100 }),
});

describe('budgetLabels', () => {
  it('never draws two boxes closer than the spacing, keeps the budget and accounts for every point', () => {
    fc.assert(
      fc.property(fc.array(candidateArbitrary, { maxLength: 300 }), fc.integer({ min: 1, max: 80 }), fc.integer({ min: 0, max: 12 }), fc.boolean(), (raw, budget, spacing, rightToLeft) => {
        const candidates: LabelCandidate[] = [...raw].sort((a, b) => b.priority - a.priority);
        const result = budgetLabels(candidates, { width: 800, height: 600, budget, iconSize: 24, labelSpacing: spacing, clusterRadius: 50, iconOnlyBelow: 30, rightToLeft });
        expect(result.placed.length).toBeLessThanOrEqual(budget);
        // boxes of two different points (a point's label sits beside its own icon)
        const boxes = result.placed.flatMap((placed) => (placed.labelBox ? [placed.iconBox, placed.labelBox] : [placed.iconBox]).map((box) => ({ owner: placed.index, box })));
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) if (boxes[i]!.owner !== boxes[j]!.owner) expect(overlaps(boxes[i]!.box, boxes[j]!.box, spacing - 1e-9)).toBe(false);
        }
        const clustered = result.clusters.flatMap((cluster) => cluster.members);
        expect(new Set([...result.placed.map((placed) => placed.index), ...clustered]).size).toBe(candidates.length);
        expect(clustered.length).toBe(result.overflow);
        for (const placed of result.placed) {
          const candidate = candidates[placed.index]!;
          // labels only above the icon-only threshold
          if (placed.labelBox) expect(candidate.priority).toBeGreaterThanOrEqual(30);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('draws the higher priority of two colliding points and clusters the other', () => {
    const candidates: LabelCandidate[] = [
      { x: 100, y: 100, labelWidth: 60, labelHeight: 16, priority: 90 },
      { x: 110, y: 104, labelWidth: 60, labelHeight: 16, priority: 50 },
    ];
    const result = budgetLabels(candidates, { width: 800, height: 600, budget: 10, iconSize: 24, labelSpacing: 8, clusterRadius: 50, iconOnlyBelow: 30, rightToLeft: false });
    expect(result.placed.map((placed) => placed.index)).toEqual([0]);
    expect(result.clusters).toEqual([{ x: 110, y: 104, members: [1] }]);
  });

  it('puts a right-to-left label on the icon left when there is room, else on its right, else hides it', () => {
    const options = { width: 800, height: 600, budget: 10, iconSize: 24, labelSpacing: 0, clusterRadius: 50, iconOnlyBelow: 30, rightToLeft: true };
    const alone = budgetLabels([{ x: 400, y: 300, labelWidth: 80, labelHeight: 20, priority: 60 }], options).placed[0]!;
    expect(alone.labelBox![2]).toBeLessThanOrEqual(alone.iconBox[0]);
    // a neighbour on the left takes that side first
    const squeezed = budgetLabels(
      [
        { x: 330, y: 300, labelWidth: 0, labelHeight: 0, priority: 90 },
        { x: 400, y: 300, labelWidth: 80, labelHeight: 20, priority: 60 },
      ],
      options,
    ).placed[1]!;
    expect(squeezed.labelBox![0]).toBeGreaterThanOrEqual(squeezed.iconBox[2]);
    const boxedIn = budgetLabels(
      [
        { x: 330, y: 300, labelWidth: 0, labelHeight: 0, priority: 90 },
        { x: 470, y: 300, labelWidth: 0, labelHeight: 0, priority: 80 },
        { x: 400, y: 300, labelWidth: 80, labelHeight: 20, priority: 60 },
      ],
      options,
    ).placed[2]!;
    expect(boxedIn.labelBox).toBeNull();
  });
});
