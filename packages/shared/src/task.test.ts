import { describe, expect, it } from 'vitest';
import { assignForm, decideForm, taskAssigneeParam } from './task.ts';

describe('the queue’s assignee filter (assignee=me|none|<id>)', () => {
  it.each([
    ['me', 'me'],
    ['none', 'none'],
    [' 42 ', 42],
  ])('%j → %j', (input, parsed) => {
    expect(taskAssigneeParam.parse(input)).toBe(parsed);
  });

  it.each(['', 'all', '0', '-3', '1.5', 'ME', '12345678901234567'])(
    'refuses %j, naming the choices',
    (input) => {
      const res = taskAssigneeParam.safeParse(input);
      expect(res.success).toBe(false);
      expect(res.error?.issues[0]?.message).toBe('请选择 me、none 或处理人ID');
    },
  );
});

describe('assign and decide bodies', () => {
  it('assigning needs a reviewer’s id and the version', () => {
    expect(assignForm.parse({ assigneeId: 8, version: 3 })).toEqual({ assigneeId: 8, version: 3 });
    for (const assigneeId of [undefined, 0, -1, 1.5, '8'])
      expect(assignForm.safeParse({ assigneeId, version: 3 }).error?.issues[0]?.message).toBe('请选择处理人');
    expect(assignForm.safeParse({ assigneeId: 8 }).success).toBe(false);
  });

  it('a decision keeps its opinion trimmed; return needs one', () => {
    expect(decideForm.parse({ decision: 'approve', opinion: '  ', version: 1 }).opinion).toBeNull();
    expect(decideForm.safeParse({ decision: 'return', version: 1 }).success).toBe(false);
  });
});
