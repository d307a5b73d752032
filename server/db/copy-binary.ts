// PostgreSQL's COPY binary format (PostgreSQL manual, "COPY", "Binary Format"): the 11-byte
// signature "PGCOPY\n\377\r\n\0", a 32-bit flags field and a header extension (its length, then
// that many bytes), then one tuple after another: a 16-bit field count and, per field, a 32-bit
// length (−1 for a null) and that many bytes of the type's binary form, all big-endian; a field
// count of −1 ends the data. The forms used here: int2, int4, int8 (two's complement), float8
// (IEEE 754), bool (one byte), text (UTF-8). Columns move as typed arrays: no row object, no
// text parsing, so a million answers read or a million targets written cost milliseconds here.

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
/** Signature, flags and an empty header extension. */
const HEADER_BYTES = SIGNATURE.length + 8;

/** Reads a COPY binary stream field by field; every method advances past what it reads. */
export class CopyBinaryReader {
  private readonly view: DataView;
  private offset: number;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < HEADER_BYTES || SIGNATURE.some((byte, index) => bytes[index] !== byte))
      throw new Error('not COPY binary data (no PGCOPY signature)');
    this.offset = HEADER_BYTES + this.view.getInt32(SIGNATURE.length + 4);
  }

  /** The next tuple's field count, or −1 at the end of the data. */
  tuple(): number {
    if (this.offset >= this.bytes.length) return -1;
    const fields = this.view.getInt16(this.offset);
    this.offset += 2;
    return fields;
  }

  /** The next field's length (−1 for a null) and the offset of its bytes. */
  private field(): number {
    const length = this.view.getInt32(this.offset);
    this.offset += 4;
    return length;
  }

  /** An integer field of 2, 4 or 8 bytes (an int8 must stay below 2^53), or `ifNull`. */
  integer(ifNull = NaN): number {
    const length = this.field();
    if (length < 0) return ifNull;
    const at = this.offset;
    this.offset += length;
    if (length === 8) return this.view.getInt32(at) * 4294967296 + this.view.getUint32(at + 4);
    if (length === 4) return this.view.getInt32(at);
    if (length === 2) return this.view.getInt16(at);
    throw new Error(`an integer field of ${length} bytes`);
  }

  /** A float8 field, NaN for a null. */
  float8(): number {
    const length = this.field();
    if (length < 0) return NaN;
    const value = this.view.getFloat64(this.offset);
    this.offset += length;
    return value;
  }

  /** A bool field, false for a null. */
  boolean(): boolean {
    const length = this.field();
    if (length < 0) return false;
    const value = this.bytes[this.offset] !== 0;
    this.offset += length;
    return value;
  }

  /** Skips the next `fields` fields, whatever their type. */
  skip(fields: number): void {
    for (let field = 0; field < fields; field += 1) {
      const length = this.field();
      if (length > 0) this.offset += length;
    }
  }

  /** A text field, null for a null. */
  text(): string | null {
    const length = this.field();
    if (length < 0) return null;
    const value = decoder.decode(this.bytes.subarray(this.offset, this.offset + length));
    this.offset += length;
    return value;
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A column to write: its binary form and its values (NaN in a float8 column is written as NaN). */
export type CopyColumn =
  | { type: 'int8' | 'int4' | 'int2' | 'float8'; values: ArrayLike<number> }
  | { type: 'bool'; values: ArrayLike<number | boolean> }
  | { type: 'text'; values: readonly (string | null)[] };

const WIDTHS = { int8: 8, int4: 4, int2: 2, float8: 8, bool: 1 } as const;

/** `rows` tuples of `columns` in COPY's binary format, ready for `COPY … FROM … (FORMAT binary)`. */
export function encodeCopyBinary(columns: readonly CopyColumn[], rows: number): Uint8Array {
  const texts = columns.map((column) =>
    column.type === 'text' ? column.values.map((value) => (value === null ? null : encoder.encode(value))) : undefined,
  );
  let size = HEADER_BYTES + 2;
  columns.forEach((column, index) => {
    if (column.type === 'text') {
      for (const value of texts[index]!) size += 4 + (value?.length ?? 0);
    } else size += rows * (4 + WIDTHS[column.type]);
  });
  size += rows * 2;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes.set(SIGNATURE);
  let offset = HEADER_BYTES;
  for (let row = 0; row < rows; row += 1) {
    view.setInt16(offset, columns.length);
    offset += 2;
    for (let index = 0; index < columns.length; index += 1) {
      const column = columns[index]!;
      if (column.type === 'text') {
        const value = texts[index]![row];
        if (value === null || value === undefined) {
          view.setInt32(offset, -1);
          offset += 4;
        } else {
          view.setInt32(offset, value.length);
          bytes.set(value, offset + 4);
          offset += 4 + value.length;
        }
        continue;
      }
      const width = WIDTHS[column.type];
      view.setInt32(offset, width);
      offset += 4;
      const value = Number(column.values[row]);
      switch (column.type) {
        case 'int8':
          view.setInt32(offset, Math.floor(value / 4294967296));
          view.setUint32(offset + 4, value >>> 0);
          break;
        case 'int4':
          view.setInt32(offset, value);
          break;
        case 'int2':
          view.setInt16(offset, value);
          break;
        case 'float8':
          view.setFloat64(offset, value);
          break;
        case 'bool':
          bytes[offset] = value ? 1 : 0;
          break;
      }
      offset += width;
    }
  }
  view.setInt16(offset, -1);
  return bytes;
}

/** COPY binary data of no tuples. */
export const EMPTY_COPY: Uint8Array = encodeCopyBinary([], 0);
