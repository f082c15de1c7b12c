import { describe, expect, it } from 'vitest';
import {
  docTypeNeedNote,
  type MaterialNeeds,
  materialsProblem,
  missingDocTypes,
  neededDocTypes,
} from './material.ts';
import { problemText } from './problem.ts';

const workSafety: MaterialNeeds = {
  requiredMaterials: [
    { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
    { docType: 'INSURED_LIST', stage: 'APPROVE' },
  ],
  requestedDocTypes: [],
};

describe('what an application must carry', () => {
  it('to be submitted: the SUBMIT-stage types; to be approved: the APPROVE-stage ones too', () => {
    expect(neededDocTypes(workSafety, 'SUBMIT')).toEqual(['BUSINESS_LICENSE']);
    expect(neededDocTypes(workSafety, 'APPROVE')).toEqual(['BUSINESS_LICENSE', 'INSURED_LIST']);
  });

  it('what the underwriter asked for is needed at both stages, once', () => {
    const asked = { ...workSafety, requestedDocTypes: ['SIGNED_APPLICATION', 'BUSINESS_LICENSE'] };
    expect(neededDocTypes(asked, 'SUBMIT')).toEqual(['BUSINESS_LICENSE', 'SIGNED_APPLICATION']);
    expect(neededDocTypes(asked, 'APPROVE')).toEqual([
      'BUSINESS_LICENSE',
      'INSURED_LIST',
      'SIGNED_APPLICATION',
    ]);
  });

  it('missing: the needed types not on file (the application’s or its applicant’s materials)', () => {
    expect(missingDocTypes(workSafety, 'APPROVE', [])).toEqual(['BUSINESS_LICENSE', 'INSURED_LIST']);
    expect(missingDocTypes(workSafety, 'APPROVE', ['BUSINESS_LICENSE', 'OTHER'])).toEqual(['INSURED_LIST']);
    expect(missingDocTypes(workSafety, 'SUBMIT', new Set(['BUSINESS_LICENSE']))).toEqual([]);
    expect(missingDocTypes({ requiredMaterials: [], requestedDocTypes: [] }, 'APPROVE', [])).toEqual([]);
  });

  it('the refusal names the missing types at the field materials', () => {
    const p = materialsProblem(['营业执照', '被保险人清单']);
    expect(p).toMatchObject({ field: 'materials' });
    expect(problemText(p!)).toBe('影像资料：请上传 营业执照、被保险人清单');
    expect(materialsProblem([])).toBeNull();
  });

  it('a heading says why a type matters: asked for, or required at a stage', () => {
    const asked = { ...workSafety, requestedDocTypes: ['INSURED_LIST'] };
    expect(docTypeNeedNote(asked, 'INSURED_LIST')).toBe('核保要求补充');
    expect(docTypeNeedNote(asked, 'BUSINESS_LICENSE')).toBe('提交投保时必备');
    expect(docTypeNeedNote(workSafety, 'INSURED_LIST')).toBe('核保通过前必备');
    expect(docTypeNeedNote(workSafety, 'OTHER')).toBeNull();
  });
});
