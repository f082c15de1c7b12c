// The forms that set a new password: first-run setup and the change of password. Apart from ./auth.ts, which the
// web app loads with every page, because the password rules carry the breached-password list (./password.ts).
import { z } from 'zod';
import { USERNAME_MESSAGE, USERNAME_PATTERN } from './auth.ts';
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import { passwordProblem } from './password.ts';

/** A new password, refused with the rule it breaks: 新密码：至少 8 个字符 … */
const newPassword = (title: string) =>
  z
    .string()
    .superRefine((pw, ctx) => {
      const problem = passwordProblem(pw);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ title });

/** POST /api/init: first-run setup. */
export const initForm = z.object({
  organisationName: z
    .string()
    .trim()
    .min(2, { error: '至少 2 个字符' })
    .max(50, { error: '不能超过 50 个字符' })
    .meta({ title: '机构名称' }),
  username: z
    .string()
    .trim()
    .regex(USERNAME_PATTERN, { error: USERNAME_MESSAGE })
    .meta({ title: '管理员账号' }),
  password: newPassword('密码'),
  nickName: z.string().trim().max(30, { error: '不能超过 30 个字符' }).optional().meta({ title: '昵称' }),
});
export type InitForm = z.infer<typeof initForm>;

/** POST /api/users/updatePass. */
export const changePasswordForm = z.object({
  oldPass: z.string().min(1, { error: '不能为空' }).max(PASSWORD_MAX_LENGTH).meta({ title: '旧密码' }),
  newPass: newPassword('新密码'),
});
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;
