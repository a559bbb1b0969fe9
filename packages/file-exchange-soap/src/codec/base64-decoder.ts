const EQUALS = 0x3d;

/**
 * How many bytes of a field's text `writeBytes` gathers before it decodes them: a multiple of 4, and below V8's
 * largest regular object (128 KiB), so that each slice's string is made and dies in the young generation. Measured
 * on a 1 GiB download: 1 MiB slices (strings outside the heap) piled up ~80 MiB before a collection freed them
 * (peak 154 MiB, against 74 MiB), and 128 KiB ones (large objects, mapped one by one) tripled the system time.
 */
const STAGED_BYTES = 64 * 1024;

/**
 * Where decoded bytes go. When the response announces its length, every base64 field of the response is decoded
 * straight into one buffer of at most 3/4 of that length (base64 needs 4 characters for 3 bytes), and each field
 * is a view of it: a file is never held twice, as it would be while joining pieces.
 */
export class DecodeArena {
  private offset = 0;

  constructor(readonly buffer: Buffer) {}

  static forResponseLength(contentLength: number): DecodeArena {
    // Zero-filled: a view's `.buffer` must not expose memory that held something else.
    return new DecodeArena(Buffer.alloc(Math.floor((contentLength * 3) / 4)));
  }

  get position(): number {
    return this.offset;
  }

  /** Whether `length` characters of base64 (whole groups) fit in what is left. */
  fits(length: number): boolean {
    return this.buffer.length - this.offset >= (length / 4) * 3;
  }

  /** Decodes whole 4-character groups that fit at the position without moving it: the bytes written. */
  decodeAt(base64: string): number {
    return this.buffer.write(base64, this.offset, 'base64');
  }

  advance(bytes: number): void {
    this.offset += bytes;
  }
}

/**
 * Where a base64 field's bytes go instead of memory (a file, for a download saved to a folder): each decoded piece
 * is written as it comes, so the field never exists whole. What `end` returns becomes the field's value.
 */
export interface ByteSink {
  /** `bytes` is valid only during the call (its memory is reused for the next piece): write or copy it at once. */
  write(bytes: Buffer): void;
  end(): unknown;
}

/**
 * Decodes base64 text that arrives in pieces of any length, so that a file's content never exists as one big string:
 * each piece is decoded as soon as it holds whole 4-character groups. XML may wrap base64 over lines: white space is
 * skipped.
 */
export class Base64Decoder {
  private carry = '';
  private readonly chunks: Buffer[] = [];
  private finished = false;
  /** Whether every piece so far was plain base64 (no white space), so that the next one is first decoded unchecked. */
  private clean = true;
  private scratch = Buffer.alloc(0);
  private readonly start: number;
  /** Text given by `writeBytes` and not decoded yet: `stagedLength` bytes at the start of `staged`. */
  private staged: Buffer | undefined;
  private stagedLength = 0;

  constructor(
    private readonly arena?: DecodeArena,
    private readonly sink?: ByteSink,
  ) {
    this.start = arena?.position ?? 0;
  }

  /**
   * Text given as its bytes, as it comes off the socket (16 KiB at most at a time): gathered and decoded in slices
   * of STAGED_BYTES. With a string, a carry joined to it (one more copy) and a write to the sink per socket read, a
   * 1 GiB download spent 0.96 s in its writes and 0.41 s collecting garbage (CPU profile); gathered, 0.31 and 0.23 s.
   * Each byte is one latin1 character: base64 is ASCII, and any other byte is refused as not base64 when decoded.
   */
  writeBytes(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      this.staged ??= Buffer.allocUnsafeSlow(STAGED_BYTES);
      const count = Math.min(bytes.length - at, this.staged.length - this.stagedLength);
      this.staged.set(bytes.subarray(at, at + count), this.stagedLength);
      this.stagedLength += count;
      at += count;
      if (this.stagedLength === this.staged.length) this.decodeStaged();
    }
  }

  /** Decodes what `writeBytes` gathered, so that text given after it comes after it. */
  private decodeStaged(): void {
    if (this.stagedLength === 0) return;
    const text = this.staged!.toString('latin1', 0, this.stagedLength);
    this.stagedLength = 0;
    this.writeText(text);
  }

  write(text: string): void {
    this.decodeStaged();
    this.writeText(text);
  }

  private writeText(text: string): void {
    if (text === '') return;
    // Most text is a run of base64 characters with no white space: decoded at once, then checked by its count
    // (Node's decoder skips what is not base64 and stops at padding, so such text decodes to fewer bytes than its
    // length promises), which spares a scan of every character before decoding (a regular expression over each
    // piece took 40 % of the time of reading a download). Node also takes '-' and '_' (base64url), which XML
    // Schema's base64Binary does not: text holding one takes the checked way. Text wrapped over lines fails the count
    // once, and the rest of the field takes the checked way at once instead of being decoded twice.
    if (this.clean && !this.finished && text.indexOf('-') === -1 && text.indexOf('_') === -1 && this.writeClean(this.carry + text)) return;
    this.clean = false;
    this.writeChecked(text);
  }

  /** Decodes `text4` (carry included) if it is clean base64; false, with nothing written, otherwise. */
  private writeClean(text4: string): boolean {
    const usable = text4.length - (text4.length % 4);
    // The characters kept for the next piece are not decoded yet, so not checked by a count: checked here (at most 3).
    const rest = text4.slice(usable);
    if (!/^[A-Za-z0-9+/=]*$/.test(rest)) return false;
    if (usable > 0) {
      const whole = text4.slice(0, usable);
      const padding = whole.charCodeAt(usable - 1) !== EQUALS ? 0 : whole.charCodeAt(usable - 2) === EQUALS ? 2 : 1;
      const expected = (usable / 4) * 3 - padding;
      if (this.sink) {
        const decoded = this.decodeIntoScratch(whole);
        if (decoded.length !== expected) return false;
        this.sink.write(decoded);
      } else if (this.chunks.length === 0 && this.arena?.fits(usable)) {
        // Decoded in place at the arena's position, which moves only once the count is right.
        if (this.arena.decodeAt(whole) !== expected) return false;
        this.arena.advance(expected);
      } else {
        const decoded = Buffer.from(whole, 'base64');
        if (decoded.length !== expected) return false;
        this.chunks.push(decoded);
      }
      if (padding > 0) this.finished = true;
    }
    this.carry = rest;
    return true;
  }

  /** Text with white space (or not base64 at all): cleaned, then every character checked before decoding. */
  private writeChecked(text: string): void {
    const compact = text.replace(/\s+/g, '');
    if (compact === '') return;
    if (this.finished) throw new Error('base64 continues after its padding');
    if (/[^A-Za-z0-9+/=]/.test(compact)) throw new Error('not base64 text');
    const text4 = this.carry + compact;
    const usable = text4.length - (text4.length % 4);
    if (usable > 0) {
      const whole = text4.slice(0, usable);
      const padding = whole.indexOf('=');
      if (padding !== -1) {
        if (padding < usable - 2 || !/={1,2}$/.test(whole)) throw new Error('base64 padding in the middle of the text');
        this.finished = true;
      }
      if (this.sink) this.sink.write(this.decodeIntoScratch(whole));
      // Once a piece has gone to `chunks`, the rest follows it, so that the order of the bytes is kept.
      else if (this.chunks.length > 0 || !this.arena?.fits(usable)) this.chunks.push(Buffer.from(whole, 'base64'));
      else this.arena.advance(this.arena.decodeAt(whole));
    }
    this.carry = text4.slice(usable);
  }

  /**
   * Decodes into one buffer reused for every piece: a sink writes the bytes before `write` returns, and a new
   * buffer per piece would leave the garbage collector a file's worth of buffers to find.
   */
  private decodeIntoScratch(base64: string): Buffer {
    const most = (base64.length / 4) * 3;
    if (this.scratch.length < most) this.scratch = Buffer.allocUnsafeSlow(Math.max(most, 64 * 1024));
    return this.scratch.subarray(0, this.scratch.write(base64, 'base64'));
  }

  /** The bytes (or, with a sink, what the sink's `end` returns). */
  end(): unknown {
    this.decodeStaged();
    this.staged = undefined;
    if (this.carry !== '') throw new Error('base64 text is cut short (its length is not a multiple of 4)');
    if (this.sink) return this.sink.end();
    const inArena = this.arena ? this.arena.buffer.subarray(this.start, this.arena.position) : undefined;
    if (this.chunks.length === 0) return inArena ?? Buffer.alloc(0);
    const parts = inArena && inArena.length > 0 ? [inArena, ...this.chunks] : this.chunks;
    if (parts.length === 1) return parts[0]!;
    const whole = Buffer.concat(parts);
    this.chunks.length = 0;
    return whole;
  }
}
