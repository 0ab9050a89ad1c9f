/**
 * Where the bytes of uploaded place images live (docs/places.md "Photos"). One port, so an object store can
 * be plugged in later beside the two kept here: a directory (under DATA_DIR) and process memory (the
 * embedded `memory://` default, whose database does not outlive the process either). Keys are made by the
 * product (`place-photos/<uuid>.jpg`), never from client input; the store still refuses any other shape.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';

export interface PhotoStore {
  /** Stores bytes under a key (replaces what is there). */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes under a key, or null when nothing is stored there. */
  get(key: string): Promise<Buffer | null>;
  /** Removes a key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** The keys under a folder (`place-photos`) with when each was written (epoch ms). */
  list(folder: string): Promise<{ key: string; writtenAtMs: number }[]>;
}

/** `<folder>/<name>.<ext>`: lower-case letters, digits and dashes only, so a key can never leave its root. */
const KEY_SHAPE = /^[a-z0-9-]{1,40}\/[a-z0-9-]{1,64}\.(jpg|png|webp)$/;

function checkedKey(key: string): string {
  if (!KEY_SHAPE.test(key)) throw new Error(`Refused photo store key ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}

/**
 * Files under a root directory. A write goes to a temporary name first and is renamed into place, so a
 * reader never sees half a file and a crash leaves at most a stray temporary file.
 */
export class DirectoryPhotoStore implements PhotoStore {
  constructor(private readonly root: string) {}

  async put(key: string, bytes: Buffer): Promise<void> {
    const path = join(this.root, checkedKey(key));
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomUUID()}.partial`;
    try {
      await writeFile(temporary, bytes, { mode: 0o640 });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(join(this.root, checkedKey(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(join(this.root, checkedKey(key)), { force: true });
  }

  async list(folder: string): Promise<{ key: string; writtenAtMs: number }[]> {
    let names: string[];
    try {
      names = await readdir(join(this.root, folder));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const keys = names.map((name) => `${folder}/${name}`).filter((key) => KEY_SHAPE.test(key));
    const listed = await Promise.all(keys.map(async (key) => ({ key, writtenAtMs: (await stat(join(this.root, key)).catch(() => undefined))?.mtimeMs })));
    return listed.filter((entry): entry is { key: string; writtenAtMs: number } => entry.writtenAtMs !== undefined);
  }
}

/** Bytes MemoryPhotoStore holds at most by default (256 MiB): past it a put is refused. */
export const DEFAULT_MEMORY_PHOTO_BYTES = 256 * 1024 * 1024;

/** Thrown when a store has no room left for a put. */
export class PhotoStoreFullError extends Error {
  constructor(readonly capacityBytes: number) {
    super(`The photo store holds its ${capacityBytes} bytes`);
    this.name = 'PhotoStoreFullError';
  }
}

/** Process memory, bounded: for the embedded default, where the database is in memory as well. */
export class MemoryPhotoStore implements PhotoStore {
  private readonly entries = new Map<string, Buffer>();
  private readonly writtenAt = new Map<string, number>();
  private usedBytes = 0;

  constructor(private readonly capacityBytes = DEFAULT_MEMORY_PHOTO_BYTES) {}

  async put(key: string, bytes: Buffer): Promise<void> {
    const previous = this.entries.get(checkedKey(key))?.length ?? 0;
    if (this.usedBytes - previous + bytes.length > this.capacityBytes) throw new PhotoStoreFullError(this.capacityBytes);
    this.entries.set(key, Buffer.from(bytes));
    this.writtenAt.set(key, Date.now());
    this.usedBytes += bytes.length - previous;
  }

  async get(key: string): Promise<Buffer | null> {
    return this.entries.get(checkedKey(key)) ?? null;
  }

  async delete(key: string): Promise<void> {
    const bytes = this.entries.get(checkedKey(key));
    if (!bytes) return;
    this.entries.delete(key);
    this.writtenAt.delete(key);
    this.usedBytes -= bytes.length;
  }

  async list(folder: string): Promise<{ key: string; writtenAtMs: number }[]> {
    return [...this.writtenAt].filter(([key]) => key.startsWith(`${folder}/`)).map(([key, writtenAtMs]) => ({ key, writtenAtMs }));
  }
}
