// A rule a request breaks, found by shared code the form and the server both run, at the field it is about:
// the server answers it as a 400 naming the field (`errors[].field`), the form shows it under that field.

export interface FieldProblem {
  /** The request path of the field ('startDate', 'rows.2.rate'; a list's own name for the list as a whole). */
  field: string;
  /** What is wrong, to show beside the field ('须晚于保险起期'). */
  message: string;
  /** The field's title for the notice ('保险止期'); none when the message says it all. */
  label?: string;
}

/** The notice of a problem, as a refusal's `message`: '保险止期：须晚于保险起期'. */
export const problemText = (p: FieldProblem): string => (p.label ? `${p.label}：${p.message}` : p.message);
