import {
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  BookOutlined,
  CloudUploadOutlined,
  CompassOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileProtectOutlined,
  FileTextOutlined,
  FormOutlined,
  GiftOutlined,
  IdcardOutlined,
  InsuranceOutlined,
  MenuOutlined,
  MoneyCollectOutlined,
  MonitorOutlined,
  PayCircleOutlined,
  ProfileOutlined,
  ProjectOutlined,
  ReadOutlined,
  SafetyOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

type IconComponent = ComponentType<{ className?: string }>;

/**
 * The icon names the server's menus may use, each mapped to one imported icon. A fixed table keeps the
 * icon set tree-shaken: looking names up in the whole icon package would bundle all of it.
 * Add a name here (and its import) when the menu data needs a new one.
 */
const ICONS: Readonly<Record<string, IconComponent>> = {
  dashboard: DashboardOutlined,
  index: DashboardOutlined,
  form: FormOutlined,
  edit: FormOutlined,
  list: UnorderedListOutlined,
  money: MoneyCollectOutlined,
  pay: MoneyCollectOutlined,
  peoples: TeamOutlined,
  people: TeamOutlined,
  shield: SafetyOutlined,
  insurance: InsuranceOutlined,
  policy: FileProtectOutlined,
  tree: ApartmentOutlined,
  'tree-table': ApartmentOutlined,
  dept: ApartmentOutlined,
  system: SettingOutlined,
  setting: SettingOutlined,
  user: UserOutlined,
  role: IdcardOutlined,
  log: FileTextOutlined,
  dict: BookOutlined,
  menu: MenuOutlined,
  monitor: MonitorOutlined,
  server: DatabaseOutlined,
  chart: BarChartOutlined,
  project: ProjectOutlined,
  guide: CompassOutlined,
  documentation: ReadOutlined,
  education: ReadOutlined,
  component: AppstoreOutlined,
  audit: AuditOutlined,
  customer: SolutionOutlined,
  bank: BankOutlined,
  profile: ProfileOutlined,
  service: CustomerServiceOutlined,
  product: GiftOutlined,
  upload: CloudUploadOutlined,
  payment: PayCircleOutlined,
};

/** Shown for a name the table does not know, so a typo in the menu data is visible but harmless. */
const FallbackIcon: IconComponent = AppstoreOutlined;

export function hasMenuIcon(name: string | null | undefined): boolean {
  return !!name && Object.hasOwn(ICONS, name);
}

/** The icon for a server menu name; the fallback for unknown names, nothing when no name is given. */
export function MenuIcon({ name, className }: { name: string | null | undefined; className?: string }) {
  if (!name) return null;
  const Icon = (Object.hasOwn(ICONS, name) ? ICONS[name] : undefined) ?? FallbackIcon;
  return <Icon className={className} />;
}
