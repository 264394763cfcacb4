// jsbarcode's own typings cover only its all-formats entry; the pass card loads just the
// Code 128 encoders (CommonJS, imported by name: the same in Vite's build, its dev server
// and Node), which have none.
declare module 'jsbarcode/bin/barcodes/CODE128/index.js' {
  /** Code 128 with automatic code set switching (C for runs of digits). */
  export class CODE128 {
    constructor(data: string, options: { ean128?: boolean });
    /** Whether the text can be encoded (ASCII only). */
    valid(): boolean;
    /** data: the symbol's modules, start to stop character, '1' dark and '0' light. */
    encode(): { data: string; text: string };
  }
}
