import { z } from 'zod';

/** What the footer shows (spec §1, §3 `footerTxt`, `caseNumber`), set by the administrator. */
export const siteSettingsSchema = z.object({
  footerTxt: z.string().trim().max(100).meta({ title: '页脚文字' }),
  /** ICP filing number, e.g. 苏ICP备12345678号-1. */
  caseNumber: z.string().trim().max(50).meta({ title: 'ICP备案号' }),
  /** Public-security filing number, e.g. 苏公网安备 32110202000001号. */
  policeNumber: z.string().trim().max(50).meta({ title: '公安备案号' }),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;
