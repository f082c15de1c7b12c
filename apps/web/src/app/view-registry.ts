import type { ViewName } from '@piibs/shared/views';
import { type ComponentType, createElement, type LazyExoticComponent, lazy } from 'react';
import type { FlowName } from '@/features/application/flows.ts';
import type { PolicyListProps } from '@/features/policy/pages/PolicyList.tsx';
import type { SalesListProps } from '@/features/policy/pages/SalesList.tsx';

type PageModule = { default: ComponentType };
type PageLoader = () => Promise<PageModule>;

/** A step of an application wizard: one page, told its flow and step. */
const wizardStep =
  (flow: FlowName, step: string): PageLoader =>
  () =>
    import('@/features/application/pages/ApplicationWizard.tsx').then(({ ApplicationWizard }) => ({
      default: () => createElement(ApplicationWizard, { flow, step }),
    }));

/** One of the sales lists of 保单管理: one page, told its mode. */
const policyList =
  (props: PolicyListProps): PageLoader =>
  () =>
    import('@/features/policy/pages/PolicyList.tsx').then(({ PolicyList }) => ({
      default: () => createElement(PolicyList, props),
    }));

const salesList =
  (props: SalesListProps): PageLoader =>
  () =>
    import('@/features/policy/pages/SalesList.tsx').then(({ SalesList }) => ({
      default: () => createElement(SalesList, props),
    }));

/**
 * The server's view names (a menu route's `component`) and the page each one opens. 'Layout' and 'ParentView'
 * are directories, handled by menu-routes.tsx, not pages.
 */
export const VIEW_PAGES = {
  Dashboard: () => import('@/features/dashboard/pages/DashboardPage.tsx'),
  UserCenter: () => import('@/features/account/pages/UserCenterPage.tsx'),
  '404': () => import('@/features/errors/pages/NotFoundPage.tsx'),
  '401': () => import('@/features/errors/pages/ForbiddenPage.tsx'),

  'insured/StepOne': wizardStep('insured', 'stepOne'),
  'insured/StepSecond': wizardStep('insured', 'stepSecond'),
  'insured/StepThird': wizardStep('insured', 'stepThird'),
  'insured/StepForth': wizardStep('insured', 'stepForth'),
  'insured/StepSuccess': wizardStep('insured', 'stepSuccess'),
  'insured/ViewInsurance': () => import('@/features/application/pages/ApplicationViewPage.tsx'),
  'insured/ViewInsuranceCA': () => import('@/features/policy/pages/ViewInsuranceCA.tsx'),
  'insured/ImageData': () => import('@/features/application/pages/ImageData.tsx'),
  'insured/PaymentWebResult': () => import('@/features/policy/pages/PaymentWebResult.tsx'),

  'epinsure/InsureList': () => import('@/features/application/pages/InsureList.tsx'),
  'epinsure/StepOne': wizardStep('epinsure', 'stepOne'),
  'epinsure/StepSecond': wizardStep('epinsure', 'stepSecond'),
  'epinsure/StepThird': wizardStep('epinsure', 'stepThird'),
  'epinsure/CoinsureAndJoint': wizardStep('epinsure', 'coinsureAndJoint'),
  'epinsure/StepSuccess': wizardStep('epinsure', 'stepSuccess'),

  'agent/StepOne': wizardStep('agent', 'stepOne'),
  'agent/StepSecond': wizardStep('agent', 'stepSecond'),
  'agent/StepSuccess': wizardStep('agent', 'stepSuccess'),
  'agent/ViewInsurance': () => import('@/features/application/pages/ApplicationViewPage.tsx'),
  'agent/ApplicantEdit': () => import('@/features/customer/pages/CustomerEditPage.tsx'),

  'applicant/CustomerList': () => import('@/features/customer/pages/CustomerList.tsx'),
  'applicant/ApplicantEdit': () => import('@/features/customer/pages/CustomerEditPage.tsx'),

  'task/TaskList': () => import('@/features/review/pages/TaskList.tsx'),
  'task/CustomerAudit': () => import('@/features/review/pages/CustomerAudit.tsx'),
  'task/TenderAudit': () => import('@/features/review/pages/TenderAudit.tsx'),
  'task/PolicyChangeReviews': () => import('@/features/review/pages/PolicyChangeReviews.tsx'),
  'task/PolicyChangeAudit': () => import('@/features/review/pages/PolicyChangeAudit.tsx'),

  'projectManage/OrderDetail': () => import('@/features/project/pages/OrderDetail.tsx'),
  'projectManage/Apply': () => import('@/features/project/pages/Apply.tsx'),
  'projectManage/PolicyInsuranceView': () => import('@/features/policy/pages/PolicyInsuranceView.tsx'),

  'policy/PolicyList': policyList({ mode: 'all' }),
  'policy/MyPolicies': policyList({ mode: 'mine' }),
  'policy/MargeXxt': salesList({ mode: 'supplement' }),
  'policy/MargeNbnmg': salesList({ mode: 'supplement', variant: 'NBNMG' }),
  'policy/UpdateSale': salesList({ mode: 'updateSale' }),
  'policy/Marge': () => import('@/features/policy/pages/SupplementPage.tsx'),

  'riskControl/ServiceList': () => import('@/features/risk-control/pages/ServiceList.tsx'),
  'riskControl/Expert': () => import('@/features/risk-control/pages/Expert.tsx'),
  'riskControl/Prevention': () => import('@/features/risk-control/pages/Prevention.tsx'),
  'riskControl/ServicePersonEdit': () => import('@/features/risk-control/pages/ServicePersonEdit.tsx'),
  'riskControl/ServiceOrgEdit': () => import('@/features/risk-control/pages/ServiceOrgEdit.tsx'),
  'riskControl/ServiceRecord': () => import('@/features/risk-control/pages/ServiceRecord.tsx'),
  'riskControl/ServiceSuccess': () => import('@/features/risk-control/pages/ServiceSuccess.tsx'),
  'riskControl/ServiceView': () => import('@/features/risk-control/pages/ServiceView.tsx'),

  'product/Risk': () => import('@/features/product/pages/Risk.tsx'),

  'system/Users': () => import('@/features/system/pages/Users.tsx'),
  'system/Roles': () => import('@/features/system/pages/Roles.tsx'),
  'system/Menus': () => import('@/features/system/pages/Menus.tsx'),
  'system/Depts': () => import('@/features/system/pages/Depts.tsx'),
  'system/Jobs': () => import('@/features/system/pages/Jobs.tsx'),
  'system/Dicts': () => import('@/features/system/pages/Dicts.tsx'),
  'system/Logs': () => import('@/features/system/pages/Logs.tsx'),
  'system/LoginLogs': () => import('@/features/system/pages/LoginLogs.tsx'),
  'system/Online': () => import('@/features/system/pages/Online.tsx'),
  'system/Monitor': () => import('@/features/system/pages/Monitor.tsx'),
} satisfies Record<ViewName, PageLoader>;

/**
 * A view name as the table spells it. Menus an administrator creates may use eladmin's forms: a leading '/',
 * a trailing '/index' and a file extension are ignored ('/insured/StepOne/index.vue' → 'insured/StepOne').
 */
export function normalizeViewName(name: string): string {
  return name
    .trim()
    .replace(/^\/+/, '')
    .replace(/\.(tsx|jsx|vue)$/, '')
    .replace(/\/index$/, '');
}

function isViewName(name: string): name is ViewName {
  return Object.hasOwn(VIEW_PAGES, name);
}

/** A page's code being loaded, and the module once it is there. */
type Load = { promise: Promise<PageModule>; module?: PageModule };

/** Each page's code: one load per page (a failed load is forgotten, so a later render asks again). */
const loads = new Map<ViewName, Load>();

function load(name: ViewName): Load {
  const known = loads.get(name);
  if (known) return known;
  const entry: Load = { promise: VIEW_PAGES[name]() };
  entry.promise.then(
    (module) => {
      entry.module = module;
    },
    () => loads.delete(name),
  );
  loads.set(name, entry);
  return entry;
}

/**
 * A page module already loaded, as a thenable that answers at once: React's lazy then renders the page in the
 * same pass as the shell around it. A promise answers only after a microtask, so the page would show its fallback
 * first and appear up to 300 ms later (React's Suspense reveal throttle), on every first load.
 */
function loaded(module: PageModule): PromiseLike<PageModule> {
  return {
    // biome-ignore lint/suspicious/noThenProperty: a thenable is the point (see above); React's lazy takes one.
    then<T1 = PageModule, T2 = never>(
      onFulfilled?: ((value: PageModule) => T1 | PromiseLike<T1>) | null,
    ): PromiseLike<T1 | T2> {
      // Called now, not after a microtask: that is what lets React render the page in the same pass.
      return Promise.resolve(onFulfilled ? onFulfilled(module) : (module as T1));
    },
  };
}

/**
 * Starts loading a view's page code (unknown names resolve at once): its later `resolveView` then finds it
 * loaded. Resolves when the code is there or has failed (the page's own render reports the failure).
 */
export function preloadView(name: string): Promise<void> {
  const normalized = normalizeViewName(name);
  if (!isViewName(normalized)) return Promise.resolve();
  return load(normalized).promise.then(
    () => {},
    () => {},
  );
}

// One lazy component per page name: a new one on every render would remount the page each time.
const resolved = new Map<ViewName, LazyExoticComponent<ComponentType>>();

/** The lazily loaded page for a view name, or null when no page has that name. */
export function resolveView(name: string): LazyExoticComponent<ComponentType> | null {
  const normalized = normalizeViewName(name);
  if (!isViewName(normalized)) return null;
  let view = resolved.get(normalized);
  if (!view) {
    const page = () => {
      const { promise, module } = load(normalized);
      return module ? loaded(module) : promise;
    };
    // React's lazy only calls `then` on what the loader answers (its type asks for a whole Promise).
    view = lazy(page as () => Promise<PageModule>);
    resolved.set(normalized, view);
  }
  return view;
}

/** Forgets which pages' code was loaded and their lazy components; for tests that watch a page load. */
export function resetViewLoads(): void {
  loads.clear();
  resolved.clear();
}
