/** The part of a zod schema a form rule needs (structural, so the web app needs no direct zod import). */
type Schema = {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
};

/** An antd rule from a shared zod schema: one definition for the form and the server (STYLE §3). */
export function zodRule(schema: Schema) {
  return {
    validator: async (_rule: unknown, value: unknown): Promise<void> => {
      // Emptiness is the `required` rule's job.
      if (value === undefined || value === null || value === '') return;
      const result = schema.safeParse(value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '格式不正确');
    },
  };
}
