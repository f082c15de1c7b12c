// The three application wizards (spec §2): which steps each has, in which order, and where each lives.
// `insured` — the enterprise's self-service, `epinsure` — project insurance, `agent` — an agent for a client.
// Every route is `<base>/<step>/:id/:policyholderType`; `:id` 0 is a new application.
import type { ApplicationRow } from '@piibs/shared/application';
import type { Channel, PolicyholderType } from '@piibs/shared/application-status';
import type { ProductClass } from '@piibs/shared/rating';

/** The applications list (投保单列表) every wizard returns to. */
export const INSURE_LIST_PATH = '/piibs/epinsure/insureList';

export type FlowName = 'insured' | 'epinsure' | 'agent';

/** What a step page shows. */
export type StepKind =
  /** Product, customer, period and the rating inputs, with the live premium. */
  | 'insurance'
  /** Insured, contacts, special terms. */
  | 'policy'
  /** Project name, address, cost, contractor, high-risk flag, period (epinsure). */
  | 'project'
  /** The co-insurers and their shares. */
  | 'coinsurance'
  /** The premium breakdown, the prevention fee, the co-insurers' parts; submits for review. */
  | 'confirm'
  /** Submitted. */
  | 'success';

export interface StepDef {
  /** The route segment. */
  path: string;
  title: string;
  /** The sections the step shows (agent's second step: policy info, co-insurers and the fee at once). */
  kinds: StepKind[];
  /** Skipped when the product allows no co-insurance. */
  coinsuranceOnly?: boolean;
}

export interface FlowDef {
  name: FlowName;
  base: string;
  /** The channel a new application of this wizard is made in. */
  channel: Channel;
  /** The products offered. */
  productClasses: readonly ProductClass[];
  steps: StepDef[];
  /** The read-only view of an application, or null (epinsure shows its applications through the list). */
  viewPath: string | null;
}

export const FLOWS: Readonly<Record<FlowName, FlowDef>> = Object.freeze({
  insured: {
    name: 'insured',
    base: '/piibs/insured',
    channel: 'enterprise',
    productClasses: ['work_safety', 'guarantee'],
    steps: [
      { path: 'stepOne', title: '填写投保信息', kinds: ['insurance'] },
      { path: 'stepSecond', title: '保单基本信息', kinds: ['policy'] },
      { path: 'stepThird', title: '共保信息', kinds: ['coinsurance'] },
      { path: 'stepForth', title: '确认保费信息', kinds: ['confirm'] },
      { path: 'stepSuccess', title: '提交审核', kinds: ['success'] },
    ],
    viewPath: '/piibs/insured/viewInsurance',
  },
  epinsure: {
    name: 'epinsure',
    base: '/piibs/epinsure',
    channel: 'project',
    productClasses: ['construction'],
    steps: [
      { path: 'stepOne', title: '填写投保信息', kinds: ['insurance'] },
      { path: 'stepSecond', title: '项目信息', kinds: ['project'] },
      { path: 'coinsureAndJoint', title: '共保/联保信息', kinds: ['coinsurance'], coinsuranceOnly: true },
      { path: 'stepThird', title: '提交审核', kinds: ['confirm'] },
      { path: 'stepSuccess', title: '提交成功', kinds: ['success'] },
    ],
    viewPath: '/piibs/insured/viewInsurance',
  },
  agent: {
    name: 'agent',
    base: '/piibs/agent',
    channel: 'agent',
    // Construction projects go through epinsure, which agents use too.
    productClasses: ['work_safety', 'guarantee'],
    steps: [
      { path: 'stepOne', title: '填写投保信息', kinds: ['insurance'] },
      { path: 'stepSecond', title: '保单基本信息', kinds: ['policy', 'coinsurance', 'confirm'] },
      { path: 'stepSuccess', title: '提交审核', kinds: ['success'] },
    ],
    viewPath: '/piibs/agent/viewInsurance',
  },
});

/** The steps shown for a product: without co-insurance the co-insurance-only step is left out. */
export function stepsOf(flow: FlowDef, allowsCoinsurance: boolean): StepDef[] {
  return flow.steps.filter((s) => allowsCoinsurance || !s.coinsuranceOnly);
}

export const stepPath = (flow: FlowDef, step: string, id: number, type: PolicyholderType): string =>
  `${flow.base}/${step}/${id}/${type}`;

/** The wizard an application continues in: projects in epinsure, an agent's others in the agent's. */
export function flowOf(row: Pick<ApplicationRow, 'channel' | 'productClass'>): FlowDef {
  if (row.productClass === 'construction' || row.channel === 'project') return FLOWS.epinsure;
  if (row.channel === 'agent') return FLOWS.agent;
  return FLOWS.insured;
}

/** The read-only view of an application for the caller: agents have their own route. */
export function viewPathOf(row: Pick<ApplicationRow, 'id' | 'policyholderType'>, roles: readonly string[]) {
  const base = roles.includes('agent') ? FLOWS.agent.viewPath : FLOWS.insured.viewPath;
  return `${base}/${row.id}/${row.policyholderType}`;
}

/**
 * Whether a wizard offers an individual policyholder (:policyholderType 2): only one with a policy step, where
 * the person's name and identity card are typed (project insurance is for the contractor, an enterprise).
 */
export const offersIndividual = (flow: FlowDef): boolean =>
  flow.steps.some((s) => s.kinds.includes('policy'));

/** The route parameter :policyholderType: 1 enterprise (default), 2 individual. */
export function policyholderTypeOf(param: string | undefined): PolicyholderType {
  return param === '2' ? 2 : 1;
}
