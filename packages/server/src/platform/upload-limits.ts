import { Transform } from 'node:stream';

/** The MIME type of a header value, lower-cased without parameters. */
export function mimeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Counts bytes on their way through and fails the stream with `tooLarge(limit)` once they pass the limit. */
export function limitTo(limit: number, tooLarge: (limit: number) => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) done(tooLarge(limit));
      else done(null, chunk);
    },
  });
}
