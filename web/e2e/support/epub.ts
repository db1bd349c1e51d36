import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A small EPUB 3 book made with Info-ZIP: the `mimetype` entry first and stored, then the
 * container, the package document, a navigation document and one XHTML file per chapter.
 */
export function epubBook(title: string, chapters: Array<{ heading: string; text: string }>): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "clipshare-e2e-epub-"));
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write("mimetype", "application/epub+zip");
  write(
    "META-INF/container.xml",
    `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
  );
  const items = chapters.map(
    (_, i) => `<item id="c${i}" href="c${i}.xhtml" media-type="application/xhtml+xml"/>`,
  );
  const spine = chapters.map((_, i) => `<itemref idref="c${i}"/>`);
  write(
    "OEBPS/content.opf",
    `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:0b1c2d3e-clipshare-test</dc:identifier><dc:title>${title}</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${items.join("")}</manifest><spine>${spine.join("")}</spine></package>`,
  );
  const links = chapters.map((c, i) => `<li><a href="c${i}.xhtml">${c.heading}</a></li>`);
  write(
    "OEBPS/nav.xhtml",
    `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>${title}</title></head><body><nav epub:type="toc"><ol>${links.join("")}</ol></nav></body></html>`,
  );
  for (const [i, c] of chapters.entries()) {
    write(
      `OEBPS/c${i}.xhtml`,
      `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${c.heading}</title></head><body><h1>${c.heading}</h1><p>${c.text}</p></body></html>`,
    );
  }
  const file = join(dir, "book.epub");
  execFileSync("zip", ["-X0q", file, "mimetype"], { cwd: dir });
  execFileSync("zip", ["-Xrq", file, "META-INF", "OEBPS"], { cwd: dir });
  return readFileSync(file);
}
