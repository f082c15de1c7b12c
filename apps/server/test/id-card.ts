/** A valid GB 11643 identity card number for a birth date and sequence (the check character computed). */
export function idCard(birth: string, seq: number): string {
  const body = `320102${birth}${String(seq).padStart(3, '0')}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((s, c, i) => s + Number(c) * weights[i]!, 0);
  return body + '10X98765432'[sum % 11];
}
