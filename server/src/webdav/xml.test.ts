import { describe, expect, it } from "vitest";
import { parseXml, serializeElement, type XmlElement, XmlError } from "./xml";

describe("parseXml", () => {
  it("resolves default and prefixed namespaces, attributes and text", () => {
    const root = parseXml(
      `<?xml version="1.0" encoding="utf-8"?>\n<D:propfind xmlns:D="DAV:" xmlns="urn:x"><D:prop><a b="1" D:c="2">x &amp; y &#x1F600; <![CDATA[<raw>]]></a></D:prop></D:propfind>`,
    );
    expect(root).toMatchObject({ ns: "DAV:", local: "propfind" });
    const prop = root.children[0] as XmlElement;
    expect(prop).toMatchObject({ ns: "DAV:", local: "prop" });
    const a = prop.children[0] as XmlElement;
    expect(a).toMatchObject({ ns: "urn:x", local: "a" });
    expect(a.attributes).toEqual([
      { ns: "", local: "b", value: "1" },
      { ns: "DAV:", local: "c", value: "2" },
    ]);
    expect(a.children[0]).toHaveProperty("text", "x & y 😀 <raw>");
  });

  it('treats xmlns="" as no namespace', () => {
    const root = parseXml(`<D:x xmlns:D="DAV:" xmlns="urn:a"><y xmlns=""/></D:x>`);
    expect(root.children[0]).toMatchObject({ ns: "", local: "y" });
  });

  it.each([
    ["a DOCTYPE (no entities, ever)", `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>`],
    ["an unknown entity", "<x>&nbsp;</x>"],
    ["an empty prefixed namespace", `<D:x xmlns:D="DAV:"><b:y xmlns:b=""/></D:x>`],
    ["an undeclared prefix", "<a:x/>"],
    ["mismatched tags", "<a><b></a></b>"],
    ["an unclosed element", "<a><b/>"],
    ["two roots", "<a/><b/>"],
    ["text outside the root", "<a/>junk"],
    ["duplicate attributes", `<a x="1" x="2"/>`],
    ["duplicate expanded attributes", `<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>`],
    ["a bad character reference", "<a>&#0;</a>"],
    ["a control character", "<a>\u0001</a>"],
    ["an empty document", "   "],
    ["a late XML declaration", `<a/><?xml version="1.0"?>`],
    ["'--' inside a comment", "<a><!-- a -- b --></a>"],
    ["unquoted attributes", "<a x=1/>"],
  ])("refuses %s", (_label, input) => {
    expect(() => parseXml(input)).toThrow(XmlError);
  });

  it("bounds depth and size", () => {
    expect(() => parseXml(`${"<a>".repeat(100)}${"</a>".repeat(100)}`)).toThrow(/nested too deeply/);
    expect(() => parseXml(`<a>${"x".repeat(2000)}</a>`, { maxLength: 1000 })).toThrow(/too large/);
  });
});

describe("serializeElement", () => {
  it("writes a self-contained fragment that parses back to the same names", () => {
    const root = parseXml(
      `<D:prop xmlns:D="DAV:"><t:val xmlns:t="urn:t" xmlns="urn:d"><inner a="&lt;&quot;"><x:deep xmlns:x="urn:x">v</x:deep></inner><none xmlns="">z</none></t:val></D:prop>`,
    );
    const xml = serializeElement(root.children[0] as XmlElement);
    const again = parseXml(xml);
    expect(again).toMatchObject({ ns: "urn:t", local: "val" });
    const [inner, none] = again.children as XmlElement[];
    expect(inner).toMatchObject({
      ns: "urn:d",
      local: "inner",
      attributes: [{ ns: "", local: "a", value: '<"' }],
    });
    expect(inner!.children[0]).toMatchObject({ ns: "urn:x", local: "deep" });
    expect(none).toMatchObject({ ns: "", local: "none" });
  });
});
