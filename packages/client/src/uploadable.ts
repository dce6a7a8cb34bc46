/**
 * A file to upload: a path on disk (Node, Bun, Deno; read with `node:fs` only when used),
 * bytes (`Buffer`, `Uint8Array`, `ArrayBuffer`), a `Blob` or `File`, a web `ReadableStream`,
 * or any async iterable of chunks such as a Node stream (`fs.createReadStream(path)`).
 */
export type Uploadable = string | Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;
