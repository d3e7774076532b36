/**
 * A PDF of `pages` pages of `linesPerPage` lines of text in a standard font, written object by
 * object with its cross-reference table: large ones take seconds to extract, as a long report does.
 * Each line reads `page <p> line <l> lorem ipsum dolor sit amet`.
 */
export function textPdf(pages: number, linesPerPage: number): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalogId = add('');
  const pagesId = add('');
  const fontId = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (let page = 0; page < pages; page += 1) {
    const lines = Array.from(
      { length: linesPerPage },
      (_, line) => `(page ${page} line ${line} lorem ipsum dolor sit amet) Tj 0 -9 Td`,
    );
    const content = `BT /F1 8 Tf 20 780 Td\n${lines.join('\n')}\nET`;
    const contentId = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] ` +
          `/Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${contentId} 0 R >>`,
      ),
    );
  }
  objects[catalogId - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] =
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root ${catalogId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
