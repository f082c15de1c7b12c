import { extractText, getDocumentProxy } from 'unpdf';

/** The text of a PDF, all pages, without whitespace (the layout's line breaks and padding are not content). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text.replace(/\s+/g, '');
}
