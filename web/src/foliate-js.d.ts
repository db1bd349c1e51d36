/** foliate-js (plain ES modules, no types of its own): the parts the e-book reader uses. */
declare module "foliate-js/view.js" {
  export interface FoliateBook {
    dir?: string;
    metadata?: { title?: string | Record<string, string> };
    toc?: Array<{ label: string; href: string }>;
  }
  export interface RelocateDetail {
    fraction?: number;
    tocItem?: { label?: string } | null;
  }
  export class View extends HTMLElement {
    book: FoliateBook;
    open(book: Blob | File | string): Promise<void>;
    init(options: { lastLocation?: unknown; showTextStart?: boolean }): Promise<void>;
    goTo(target: string | number): Promise<unknown>;
    goLeft(): Promise<void>;
    goRight(): Promise<void>;
    close?(): void;
  }
}
