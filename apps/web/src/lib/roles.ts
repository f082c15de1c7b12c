import { ROLE_CODES } from '@piibs/shared/auth';
import { ROLE_SYSTEM_DEFAULT } from '@piibs/shared/constants';

/** Display names of the built-in roles, as the server's first-run setup names them. */
const ROLE_LABELS: Readonly<Record<string, string>> = Object.freeze({
  [ROLE_CODES.admin]: '系统管理员',
  [ROLE_CODES.underwriter]: '核保员',
  [ROLE_CODES.agent]: '代理人',
  [ROLE_CODES.enterprise]: '投保企业',
  [ROLE_CODES.service]: '风控服务机构',
  [ROLE_CODES.contractor]: '施工企业',
  [ROLE_SYSTEM_DEFAULT]: '普通用户',
});

/** The user's roles for display ('核保员、代理人'); a role without a built-in name shows its code. */
export function roleLabels(roles: readonly string[]): string {
  return roles.map((role) => ROLE_LABELS[role] ?? role).join('、');
}
