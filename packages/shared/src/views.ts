// The page names a menu route's `component` may carry, shared by the server's menu seed and the web app's view
// table: a misspelt name in either fails the type check. The names are stored in the menus table, so they keep
// the original product's spelling ('<menu folder>/<Page>') whatever the web app's folders are called.

/** Directory names: the main layout and eladmin's nested-directory view group children; neither is a page. */
export const CONTAINER_VIEWS = ['Layout', 'ParentView'] as const;
export type ContainerView = (typeof CONTAINER_VIEWS)[number];

/** Every page name the seeded menus use, and the names of the pages the web app serves itself. */
export const VIEW_NAMES = [
  // The layout's own pages and the error pages.
  'Dashboard',
  'UserCenter',
  '404',
  '401',
  // 投保管理
  'insured/StepOne',
  'insured/StepSecond',
  'insured/StepThird',
  'insured/StepForth',
  'insured/StepSuccess',
  'insured/ViewInsurance',
  'insured/ViewInsuranceCA',
  'insured/ImageData',
  'insured/PaymentWebResult',
  // 投保单管理
  'epinsure/InsureList',
  'epinsure/StepOne',
  'epinsure/StepSecond',
  'epinsure/StepThird',
  'epinsure/CoinsureAndJoint',
  'epinsure/StepSuccess',
  // 代理出单
  'agent/StepOne',
  'agent/StepSecond',
  'agent/StepSuccess',
  'agent/ViewInsurance',
  'agent/ApplicantEdit',
  // 客户管理
  'applicant/CustomerList',
  'applicant/ApplicantEdit',
  // 审核任务
  'task/TaskList',
  'task/CustomerAudit',
  'task/TenderAudit',
  'task/PolicyChangeReviews',
  'task/PolicyChangeAudit',
  // 项目管理
  'projectManage/OrderDetail',
  'projectManage/Apply',
  'projectManage/PolicyInsuranceView',
  // 保单管理
  'policy/PolicyList',
  'policy/MyPolicies',
  'policy/MargeXxt',
  'policy/MargeNbnmg',
  'policy/UpdateSale',
  'policy/Marge',
  // 风险管控
  'riskControl/ServiceList',
  'riskControl/Expert',
  'riskControl/Prevention',
  'riskControl/ServicePersonEdit',
  'riskControl/ServiceOrgEdit',
  'riskControl/ServiceRecord',
  'riskControl/ServiceSuccess',
  'riskControl/ServiceView',
  // 产品管理
  'product/Risk',
  // 系统管理
  'system/Users',
  'system/Roles',
  'system/Menus',
  'system/Depts',
  'system/Jobs',
  'system/Dicts',
  'system/Logs',
  'system/LoginLogs',
  'system/Online',
  'system/Monitor',
] as const;
export type ViewName = (typeof VIEW_NAMES)[number];
