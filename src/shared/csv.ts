/**
 * CSV text (RFC 4180) for an export. Cells are quoted when needed, and a cell that a
 * spreadsheet could run as a formula is prefixed with an apostrophe, so API strings stay
 * inert text in Excel, Sheets and LibreOffice: one starting with =, +, -, @ (or their
 * full-width forms ＝ ＋ － ＠, which some spreadsheets fold), even after leading spaces, or
 * starting with a tab, CR or LF.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

const FORMULA_START = /^(?:[\t\r\n]|[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;

function cell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Offers `csv` as a file download. */
export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
