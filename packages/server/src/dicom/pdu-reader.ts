/**
 * Cuts whole PDUs (PS3.8 §9.3) from an association's incoming byte stream without copying: each
 * PDU's body is handed on as views into the network chunks it arrived in. No I/O here; dimse.ts
 * pushes a socket's chunks into it.
 */
import { PDU, UlError } from './ul.js';

/** An A-ASSOCIATE-RQ is a few hundred bytes; anything this large is not one. */
const MAX_ASSOCIATE_RQ = 65_536;

export class PduReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  /**
   * @param maxPduLength the largest PDU body accepted after the A-ASSOCIATE-RQ (ours, as announced)
   * @param onPdu receives each whole PDU: its type and its body (after the 6-byte header) as views
   */
  constructor(
    private readonly maxPduLength: number,
    private readonly onPdu: (type: number, body: Buffer[]) => void,
  ) {}

  /**
   * Adds a received chunk and hands on every PDU it completes, while `open()` holds (a PDU may end
   * the association). Throws UlError for a PDU longer than allowed.
   */
  push(chunk: Buffer, open: () => boolean): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 6 && open()) {
      const head = this.chunks[0]!.length >= 6 ? this.chunks[0]! : this.flatten();
      const type = head[0]!;
      const length = head.readUInt32BE(2);
      const limit = type === PDU.associateRq ? MAX_ASSOCIATE_RQ : this.maxPduLength + 6;
      if (length > limit) throw new UlError(`PDU of ${length} bytes exceeds ${limit}`);
      if (this.buffered < 6 + length) return;
      const parts = this.take(6 + length);
      parts[0] = parts[0]!.subarray(6);
      if (parts[0].length === 0) parts.shift();
      this.onPdu(type, parts);
    }
  }

  /** The next `n` buffered bytes as views into the received chunks (nothing copied). */
  private take(n: number): Buffer[] {
    const parts: Buffer[] = [];
    while (n > 0) {
      const first = this.chunks[0]!;
      if (first.length <= n) {
        parts.push(first);
        this.chunks.shift();
        n -= first.length;
        this.buffered -= first.length;
      } else {
        parts.push(first.subarray(0, n));
        this.chunks[0] = first.subarray(n);
        this.buffered -= n;
        n = 0;
      }
    }
    return parts;
  }

  private flatten(): Buffer {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }
}
