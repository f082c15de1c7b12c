// 从业人员名单 of an application, read-only (the view page and the underwriter's review): each person with the
// identity card number masked. Nothing when the application has no list (its product does not ask for one).
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { InsuredPersonsTable } from '@/components/insured/InsuredPersonsTable.tsx';
import { applicationInsuredQuery } from '../api.ts';

export const applicationInsuredTitle = (n: number) => `从业人员名单（共 ${n} 人）`;

export function ApplicationInsuredPersons({
  applicationId,
  frame,
}: {
  applicationId: number;
  /** The section around the table (a card on the view page, a foldable section on the review page). */
  frame: (title: string, table: ReactNode) => ReactNode;
}) {
  const list = useQuery(applicationInsuredQuery(applicationId)).data;
  if (!list || list.persons.length === 0) return null;
  const title = applicationInsuredTitle(list.persons.length);
  return frame(title, <InsuredPersonsTable label={title} persons={list.persons} />);
}
