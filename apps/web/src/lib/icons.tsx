import ApartmentOutlined from '@ant-design/icons/es/icons/ApartmentOutlined';
import AppstoreOutlined from '@ant-design/icons/es/icons/AppstoreOutlined';
import AuditOutlined from '@ant-design/icons/es/icons/AuditOutlined';
import BankOutlined from '@ant-design/icons/es/icons/BankOutlined';
import BarChartOutlined from '@ant-design/icons/es/icons/BarChartOutlined';
import BookOutlined from '@ant-design/icons/es/icons/BookOutlined';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import CompassOutlined from '@ant-design/icons/es/icons/CompassOutlined';
import CustomerServiceOutlined from '@ant-design/icons/es/icons/CustomerServiceOutlined';
import DashboardOutlined from '@ant-design/icons/es/icons/DashboardOutlined';
import DatabaseOutlined from '@ant-design/icons/es/icons/DatabaseOutlined';
import FileProtectOutlined from '@ant-design/icons/es/icons/FileProtectOutlined';
import FileTextOutlined from '@ant-design/icons/es/icons/FileTextOutlined';
import FormOutlined from '@ant-design/icons/es/icons/FormOutlined';
import GiftOutlined from '@ant-design/icons/es/icons/GiftOutlined';
import IdcardOutlined from '@ant-design/icons/es/icons/IdcardOutlined';
import InsuranceOutlined from '@ant-design/icons/es/icons/InsuranceOutlined';
import MenuOutlined from '@ant-design/icons/es/icons/MenuOutlined';
import MoneyCollectOutlined from '@ant-design/icons/es/icons/MoneyCollectOutlined';
import MonitorOutlined from '@ant-design/icons/es/icons/MonitorOutlined';
import PayCircleOutlined from '@ant-design/icons/es/icons/PayCircleOutlined';
import ProfileOutlined from '@ant-design/icons/es/icons/ProfileOutlined';
import ProjectOutlined from '@ant-design/icons/es/icons/ProjectOutlined';
import ReadOutlined from '@ant-design/icons/es/icons/ReadOutlined';
import SafetyOutlined from '@ant-design/icons/es/icons/SafetyOutlined';
import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import SolutionOutlined from '@ant-design/icons/es/icons/SolutionOutlined';
import TeamOutlined from '@ant-design/icons/es/icons/TeamOutlined';
import UnorderedListOutlined from '@ant-design/icons/es/icons/UnorderedListOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
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
