import { describe, expect, it } from 'vitest';
import {
  mayDecideHeldTask,
  REVIEW_DECISIONS,
  REVIEW_STATUSES,
  type ReviewStatus,
  statusAfterDecision,
  statusAfterEdit,
  statusAfterResubmit,
  statusOnCreate,
} from './review.ts';

describe('review state machine: pending → approved / returned / rejected; returned → pending; rejected final', () => {
  const decisions: Record<ReviewStatus, Record<string, ReviewStatus | null>> = {
    pending: { approve: 'approved', return: 'returned', reject: 'rejected' },
    approved: { approve: null, return: null, reject: null },
    returned: { approve: null, return: null, reject: null },
    rejected: { approve: null, return: null, reject: null },
  };
  for (const status of REVIEW_STATUSES) {
    for (const decision of REVIEW_DECISIONS) {
      const to = decisions[status][decision];
      it(`${status} --${decision}--> ${to ?? 'refused'}`, () => {
        expect(statusAfterDecision(status, decision)).toBe(to);
      });
    }
  }

  it.each([
    ['pending', 'pending', 'pending'],
    ['approved', 'pending', 'approved'],
    ['returned', 'pending', 'returned'],
    ['rejected', null, 'rejected'],
  ] as const)(
    'an edit of a %s record: by a non-reviewer → %s, by a reviewer → %s',
    (from, byOwner, byReviewer) => {
      expect(statusAfterEdit(from, false)).toBe(byOwner);
      expect(statusAfterEdit(from, true)).toBe(byReviewer);
    },
  );

  it.each([
    ['returned', 'pending'],
    ['pending', null],
    ['approved', null],
    ['rejected', null],
  ] as const)('resubmitting a %s record → %s', (from, to) => {
    expect(statusAfterResubmit(from)).toBe(to);
  });

  it('a new record waits for review unless a reviewer made it', () => {
    expect(statusOnCreate(false)).toBe('pending');
    expect(statusOnCreate(true)).toBe('approved');
  });
});

describe('a held task (处理人)', () => {
  it('is decided by its holder only; an unheld task by anyone', () => {
    expect(mayDecideHeldTask(null, 7)).toBe(true);
    expect(mayDecideHeldTask(7, 7)).toBe(true);
    expect(mayDecideHeldTask(8, 7)).toBe(false);
  });
});
