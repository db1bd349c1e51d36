// Preload (`node --import`) for tests: records into RECORD_LOCALE_FILE, one name a line, each
// locale-aware comparison or formatting the process runs. The first such call makes V8 load
// ICU's collation or formatting data, which then stays resident for the life of the process.
import { appendFileSync } from "node:fs";

const file = process.env.RECORD_LOCALE_FILE;
if (file) {
  const record = (owner, key, name) => {
    const original = owner[key];
    const wrapper = function (...args) {
      appendFileSync(file, `${name}\n`);
      return new.target ? Reflect.construct(original, args, new.target) : original.apply(this, args);
    };
    Object.defineProperty(owner, key, { value: wrapper, writable: true, configurable: true });
  };
  record(String.prototype, "localeCompare", "String.prototype.localeCompare");
  for (const key of ["Collator", "DateTimeFormat", "NumberFormat", "PluralRules", "Segmenter"]) {
    record(Intl, key, `Intl.${key}`);
  }
  for (const key of ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"]) {
    record(Date.prototype, key, `Date.prototype.${key}`);
  }
  record(Number.prototype, "toLocaleString", "Number.prototype.toLocaleString");
}
